// Flag-parse hook: the engine flag names preflight's launch model finds in a fixture (scripts, units and
// quadlets all parse into it); null for compose files, which preflight does not read.
import { parseLaunch } from "../../src/domain/launch/launch.js";
import type { Kind } from "./expected.js";

export function parsedEngineFlags(kind: Kind, text: string): string[] | null {
  if (kind === "compose") return null;
  return parseLaunch(kind, text).engine?.flags.map((f) => f.name) ?? [];
}
