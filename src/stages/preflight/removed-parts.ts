// preflight.dropped-flags for one launch removed from a file that keeps others (a compose service or a container
// deleted while its siblings stay): the per-target comparison only sees the launches still there. Each flag the
// removed launch passed that no launch left in the file passes is reported dropped, at its line at the base.
import type { Flag } from "../../domain/launch/model.js";
import type { Finding } from "../../domain/report/finding.js";
import { normalizeFlagName } from "../../domain/launch/contract.js";
import { droppedFlags } from "./dropped-flags.js";
import { goneBase, launchesAt } from "./gone-launch.js";
import { readAt } from "./read-launch.js";
import type { PreflightContext, PreflightTarget } from "./targets.js";

export async function checkRemovedParts(
  ctx: PreflightContext,
  targets: readonly PreflightTarget[],
): Promise<Finding[]> {
  if (!ctx.historyOk) return [];
  const out: Finding[] = [];
  const files = [...new Set(targets.filter((t) => t.part && !t.render).map((t) => t.scriptPath))];
  for (const file of files) {
    const at = await goneBase(ctx, file);
    if (!at) continue;
    const [was, nowText] = await Promise.all([ctx.reader.show(at.base, file), readAt(ctx, file, ctx.ref)]);
    if (was === null || nowText === null) continue;
    const before = launchesAt(file, was);
    const after = launchesAt(file, nowText);
    const names = new Set(after.map((p) => p.part));
    const removed = before.filter((p) => !names.has(p.part));
    // a launch renamed (a part gone, another new) is paired by the per-target comparison, not reported here
    if (!removed.length || !after.length || after.some((p) => !before.some((b) => b.part === p.part))) continue;
    const left: Flag[] = after.flatMap((p) => p.flags);
    for (const r of removed) {
      // (a flag the removed launch passed that a remaining one passes still reaches an engine)
      const kept = new Set(left.map((f) => normalizeFlagName(f.name)));
      const gone = r.flags.filter((f) => !kept.has(normalizeFlagName(f.name)));
      for (const f of droppedFlags(gone, [], file, at.label, new Set(), at.short, file, r.engine)) {
        if (f.status === "pass") continue;
        out.push({
          ...f,
          summary: `${file} (${r.part}): ${f.summary.slice(file.length + 2)} (this launch was removed; the file's other launches do not pass it)`,
          data: { ...f.data, part: r.part, partGone: true },
        });
      }
    }
  }
  return out;
}
