// preflight.clean-tree: modified, staged and untracked files each fail the gate (the deployer's
// dirty-tree gate trips on untracked files too, and a deploy must come from a commit).
import type { StatusEntry } from "../../ports/git/git.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";

const CHECK = "preflight.clean-tree";

export function cleanTreeFinding(entries: readonly StatusEntry[]): Finding {
  if (entries.length === 0) return pass(CHECK, "work tree is clean (no modified, staged or untracked files)");
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const parts = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
  const untracked = counts.has("untracked");
  return fail(CHECK, `work tree is not clean: ${parts}`, {
    evidence: entries
      .slice(0, 50)
      .map((e) => `${e.code} ${e.path} (${e.kind})`)
      .concat(entries.length > 50 ? [`... and ${entries.length - 50} more`] : []),
    fix: `commit the changes, or set them aside with \`git stash -u\`${untracked ? " (bare `git stash` leaves untracked files behind, and they still trip the gate)" : ""}; add build output to .gitignore`,
    data: { files: entries.map((e) => ({ path: e.path, kind: e.kind })) },
  });
}
