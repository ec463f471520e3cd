// preflight.clean-tree: modified, staged and untracked files each fail the gate (the deployer's
// dirty-tree gate trips on untracked files too, and a deploy must come from a commit).
import type { StatusEntry } from "../../ports/git/git.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { shellJoin } from "../../lib/shell-quote.js";

const CHECK = "preflight.clean-tree";

/** The gate's own files in the tree: its config (repository-relative), which a stash would hide from it. */
export interface GateFiles {
  config?: string | null;
}

/** `npm pack` of the gate, as the README's install step leaves it in the tree. */
const GATE_TARBALL = /(^|\/)deploy-gate-\d[^/]*\.tgz$/;

/** What to do with each kind of dirty file; a stash never takes a file the gate needs to run. */
function cleanFix(entries: readonly StatusEntry[], own: GateFiles): string {
  const config = entries.filter((e) => e.path === own.config);
  const tarballs = entries.filter((e) => GATE_TARBALL.test(e.path));
  const rest = entries.filter((e) => !config.includes(e) && !tarballs.includes(e));
  const steps: string[] = [];
  for (const c of config)
    steps.push(
      `commit the gate's config (set aside, the gate could not read it): \`git add ${shellJoin([c.path])} && git commit -m "deploy-gate: config"\``,
    );
  if (tarballs.length)
    steps.push(
      `move ${tarballs.map((t) => t.path).join(", ")} outside the repository (npx takes an absolute path) or add \`deploy-gate-*.tgz\` to .gitignore`,
    );
  if (rest.length) {
    const untracked = rest.some((e) => e.kind === "untracked");
    const stash =
      config.length || tarballs.length
        ? `\`git stash push -u -- ${shellJoin(rest.map((e) => e.path))}\``
        : `\`git stash -u\`${untracked ? " (bare `git stash` leaves untracked files behind, and they still trip the gate)" : ""}`;
    steps.push(`commit the changes, or set them aside with ${stash}; add build output to .gitignore`);
  }
  return steps.join("; ");
}

export function cleanTreeFinding(entries: readonly StatusEntry[], own: GateFiles = {}): Finding {
  if (entries.length === 0) return pass(CHECK, "work tree is clean (no modified, staged or untracked files)");
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const parts = [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
  return fail(CHECK, `work tree is not clean: ${parts}`, {
    evidence: entries
      .slice(0, 50)
      .map((e) => `${e.code} ${e.path} (${e.kind})`)
      .concat(entries.length > 50 ? [`... and ${entries.length - 50} more`] : []),
    fix: cleanFix(entries, own),
    data: { files: entries.map((e) => ({ path: e.path, kind: e.kind })) },
  });
}
