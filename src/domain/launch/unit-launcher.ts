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
export function launcherEngine(
  unit: UnitFile,
  command: Command | undefined,
  before: readonly Command[] = [],
): Engine | null {
  const description = unitValue(unit, "Unit", "Description")?.value ?? "";
  const words = command?.words ?? [];
  const line = words.map((w) => w.text).join(" ");
  if (!command) return null;
  const kind = describedEngine(description);
  if (kind && PYTHON_LAUNCHER.test(line)) return programEngine(kind, "systemd", command, line);
  // a program of the team's (`/usr/local/bin/spark-llm launch %i`) in a unit that first removes the container the
  // Description names (`ExecStartPre=-/usr/bin/docker rm -f vllm-%i`, "ephemeral vLLM container vllm-%i"): the
  // program runs that container; its argv is built when it runs
  const held = containerKind(description);
  const rm = before.map((c) => CONTAINER_RM.exec(c.words.map((w) => w.text).join(" "))).find((m) => m !== null);
  if (!held || !rm || !description.includes(rm[2]!) || HELPER.test(description)) return null;
  return programEngine(held, rm[1] === "podman" ? "podman" : "docker", command, line);
}

const CONTAINER_RM = /^(?:\S*\/)?(docker|podman)\s+(?:container\s+)?rm\s+(?:-\S+\s+)*(\S+)/;

/** "vLLM container", "SGLang container": the engine a description says the unit's container runs. */
function containerKind(text: string): EngineKind | null {
  if (!/\bcontainers?\b/i.test(text)) return null;
  if (/\bvllm\b/i.test(text)) return "vllm";
  if (/\bsglang\b/i.test(text)) return "sglang";
  if (/\bllama[ ._-]?cpp\b|\bllama[ -]server\b/i.test(text)) return "llama.cpp";
  return null;
}

/** An engine a program starts with an argv it builds when it runs (`builtBy`): no flag of it is known here. */
export function programEngine(kind: EngineKind, runtime: Runtime, command: Command, builtBy: string): Engine {
  return { kind, runtime, flags: [], args: [], source: "vllm", line: command.line, podmanRun: null, command, builtBy };
}
