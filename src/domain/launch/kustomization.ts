// What a kustomization.yaml names: the directories and files under resources:, bases: and components: (each
// resolved against the kustomization's own directory). Pure.
import { posix } from "node:path";

/** The repository paths a kustomization in `dir` takes resources from (remote URLs left out). */
export function kustomizeResources(text: string, dir: string): string[] {
  const out: string[] = [];
  let inList = false;
  for (const line of text.split("\n")) {
    // (a list's items may sit at column 0 under their key)
    if (/^[A-Za-z]/.test(line)) inList = /^(resources|bases|components)\s*:/.test(line);
    const m = inList ? /^\s*-\s*["']?([^\s"'#]+)["']?\s*(?:#.*)?$/.exec(line) : null;
    if (m && !/^[a-z]+:\/\/|^(github\.com|git@)/.test(m[1]!)) out.push(posix.normalize(posix.join(dir, m[1]!)));
  }
  return out;
}
