// Flag-parse hook: the engine flag names today's parser finds in a fixture. Issue 10's one engine-command
// model replaces this; until then units are read through their ExecStart= lines and quadlets and compose
// files are not reachable (null).
// TODO(i10): return the new model's engine argv flag names for every kind (script, unit, quadlet).
import { parseServeScript } from "../../src/script/parse.js";
import { execCommands, parseUnit } from "../../src/script/unit.js";
import type { Kind } from "./expected.js";

export function parsedEngineFlags(kind: Kind, text: string): string[] | null {
  if (kind === "script") return parseServeScript(text).engine?.flags.map((f) => f.name) ?? [];
  if (kind === "unit") {
    return execCommands(parseUnit(text), "ExecStart").flatMap((e) => parseServeScript(e.value, { firstLine: e.line }).engine?.flags.map((f) => f.name) ?? []);
  }
  return null;
}
