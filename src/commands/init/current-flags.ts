// The one place `init` reads a script's engine argv: the lead can repoint it at a new engine model.
import { CLIENT_FLAGS } from "../../stages/preflight/dropped-flags.js";
import { parseLaunch, type FileKind } from "../../domain/launch/launch.js";
import type { EngineKind } from "../../domain/engine/kind.js";

export interface EngineFlag {
  name: string;
  value: string | null;
  clientFacing: boolean;
  /** only passed on some runs (inside ${VAR:+...}): not a contract the script always keeps */
  optional: boolean;
}

/** The engine and its flags in a serve script, unit or quadlet as it reads now (values with the file's own
 *  variables filled in where known), or null when no engine command is found. */
export function currentEngine(
  kind: FileKind,
  text: string,
  part: string | null = null,
): { kind: EngineKind; flags: EngineFlag[] } | null {
  const engine = parseLaunch(kind, text, { part }).engine;
  if (!engine) return null;
  const facing = CLIENT_FLAGS[engine.kind];
  return {
    kind: engine.kind,
    flags: engine.flags.map((f) => ({
      name: f.name,
      value: f.resolvedValue ?? f.value,
      clientFacing: facing.has(f.name),
      optional: f.optional,
    })),
  };
}
