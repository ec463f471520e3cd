// preflight.dropped-flags for a launch that went away whole: a file that started an engine at the base and starts
// none now (the command commented out, deleted, replaced by a sleep) is no target any more, so the per-target
// comparison never sees it. Every flag of the base's launch is reported dropped, critical ones failing.
import { parseLaunchParts, yamlKind, fileKind, type FileKind } from "../../domain/launch/launch.js";
import type { Flag } from "../../domain/launch/model.js";
import type { EngineKind } from "../../domain/engine/kind.js";
import type { Finding } from "../../domain/report/finding.js";
import { droppedFlags } from "./dropped-flags.js";
import { readAt, readLaunch } from "./read-launch.js";
import { normalizeFlagName } from "../../domain/launch/contract.js";
import type { PreflightContext } from "./targets.js";

function kindAt(file: string, text: string): FileKind | null {
  const yaml = yamlKind(file, text);
  if (yaml) return yaml;
  if (/\.container$/.test(file)) return "quadlet";
  if (/\.service$/.test(file)) return fileKind(file, text);
  return /\.(sh|bash)$/.test(file) || /^#!.*\b(ba|z|k|)sh\b/.test(text) ? "script" : null;
}

/** The engine flags a file's launches held at a commit; null when it started no engine there. */
function launchAt(file: string, text: string): { flags: Flag[]; engine: EngineKind } | null {
  const kind = kindAt(file, text);
  if (!kind) return null;
  const engines = parseLaunchParts(kind, text).flatMap((p) => (p.script.engine ? [p.script.engine] : []));
  if (engines.length === 0) return null;
  return { flags: engines.flatMap((e) => e.flags), engine: engines[0]!.kind };
}

/**
 * The quiet files (see quietLaunchFiles) whose launch went away: against --base, else only when the commit under
 * check is the one that took it away (an old, deliberate retirement is not reported on every run).
 */
export async function checkGoneLaunches(ctx: PreflightContext): Promise<Finding[]> {
  if (!ctx.historyOk || !ctx.quietFiles?.length) return [];
  const head = ctx.ref ?? "HEAD";
  const headSha = await ctx.reader.resolve(head);
  const explicit = ctx.base ? await ctx.reader.resolve(ctx.base) : null;
  const out: Finding[] = [];
  for (const file of ctx.quietFiles) {
    let base = explicit;
    let label = ctx.base ?? "";
    if (!base) {
      const last = (await ctx.reader.history(file, head))[0]?.commit;
      if (!last || last.sha !== headSha || !last.parents[0]) continue;
      base = last.parents[0];
      label = `${base.slice(0, 10)} (before ${last.sha.slice(0, 10)} "${last.subject}")`;
    }
    const text = await ctx.reader.show(base, file);
    const was = text === null ? null : launchAt(file, text);
    if (!was) continue;
    const short = /^[0-9a-f]{40}$/.test(label) ? label.slice(0, 10) : label.split(" ")[0]!;
    // a launch moved to another file is compared with that file's: only what did not move is dropped
    const moved = await movedTo(ctx, was);
    const where = moved ? `its launch moved to ${moved.file}` : "its launch went away whole";
    for (const f of droppedFlags(was.flags, moved?.flags ?? [], file, label, new Set(), short, file, was.engine)) {
      if (f.status === "pass") continue;
      out.push({
        ...f,
        summary: `${f.summary} (the file starts no engine now: ${where})`,
        data: { ...f.data, launchGone: true, ...(moved ? { movedTo: moved.file } : {}) },
      });
    }
  }
  return out;
}

/** The current launch of the same engine holding most of the old launch's flags (more than half); else null. */
async function movedTo(
  ctx: PreflightContext,
  was: { flags: Flag[]; engine: EngineKind },
): Promise<{ file: string; flags: Flag[] } | null> {
  const want = new Set(was.flags.map((f) => normalizeFlagName(f.name)));
  let best: { file: string; flags: Flag[]; n: number } | null = null;
  for (const t of ctx.targets) {
    if (t.render) continue;
    const text = await readAt(ctx, t.scriptPath, ctx.ref);
    const engine = text === null ? null : (await readLaunch(ctx, t, text, ctx.ref)).engine;
    if (!engine || engine.kind !== was.engine) continue;
    const n = engine.flags.filter((f) => want.has(normalizeFlagName(f.name))).length;
    if (n * 2 > want.size && (!best || n > best.n)) best = { file: t.scriptPath, flags: engine.flags, n };
  }
  return best;
}
