// A unit whose ExecStart= runs the team's own Python launcher (`/opt/llama-service/llama-tool.py run`, `python3
// %h/.../launcher.py`) that builds the engine's argv and execs it: the engine is the one the unit's Description=
// says it serves ("Llama.cpp Vulkan Server", "vLLM OpenAI-Compatible API Server"); no flag of it is known here.
// A helper the description names as one (a gateway, an RPC worker, a proxy, an exporter) serves nothing. Pure.
import type { EngineKind } from "../engine/kind.js";
import type { Command, Engine, Runtime } from "./model.js";
import { unitValue, type UnitFile } from "./unit.js";

const PYTHON_LAUNCHER = /^(?:\S*\/)?(?:\S+\.py|python[\d.]*(?:\s+-\S+)*\s+(?:\S+\.py|-m\s+\S+))(?:\s|$)/;
const SERVES = /\b(?:server|serving|inference|api)\b/i;
const HELPER =
  /\b(?:gateway|proxy|rpc|worker|router|monitor|exporter|watchdog|client|web-?ui|bench(?:mark)?|download|tunnel|swap|metrics|health)\b/i;

function describedEngine(text: string): EngineKind | null {
  if (!SERVES.test(text) || HELPER.test(text)) return null;
  if (/\bvllm\b/i.test(text)) return "vllm";
  if (/\bsglang\b/i.test(text)) return "sglang";
  if (/\bllama[ ._-]?cpp\b|\bllama[ -]server\b/i.test(text)) return "llama.cpp";
  return null;
}

/** The engine a unit's Python launcher starts, from its Description=; null when it is not one. */
export function launcherEngine(unit: UnitFile, command: Command | undefined): Engine | null {
  const description = unitValue(unit, "Unit", "Description")?.value ?? "";
  const kind = describedEngine(description);
  const words = command?.words ?? [];
  const line = words.map((w) => w.text).join(" ");
  if (!kind || !command || !PYTHON_LAUNCHER.test(line)) return null;
  return programEngine(kind, "systemd", command, line);
}

/** An engine a program starts with an argv it builds when it runs (`builtBy`): no flag of it is known here. */
export function programEngine(kind: EngineKind, runtime: Runtime, command: Command, builtBy: string): Engine {
  return { kind, runtime, flags: [], args: [], source: "vllm", line: command.line, podmanRun: null, command, builtBy };
}
