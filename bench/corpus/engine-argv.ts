// Flag-parse hook: the engine flag names preflight's launch model finds in a fixture (scripts, units, quadlets,
// compose files and manifests all parse into it; a file with several engines gives every engine's flags).
import { parseLaunchParts } from "../../src/domain/launch/launch.js";
import type { Kind } from "./expected.js";

export function parsedEngineFlags(kind: Kind, text: string): string[] {
  return parseLaunchParts(kind, text).flatMap((p) => p.script.engine?.flags.map((f) => f.name) ?? []);
}
