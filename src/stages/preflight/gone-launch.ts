// preflight.dropped-flags for a launch that went away whole: a file that started an engine at the base and starts
// none now (the command commented out, deleted, replaced by a sleep) is no target any more, so the per-target
// comparison never sees it. Every flag of the base's launch is reported dropped, critical ones failing.
import { parseLaunchParts } from "../../domain/launch/launch.js";
import { candidateKind } from "./discover.js";
import type { Flag } from "../../domain/launch/model.js";
import type { EngineKind } from "../../domain/engine/kind.js";
import type { Finding } from "../../domain/report/finding.js";
import { droppedFlags } from "./dropped-flags.js";
import type { PreflightContext, PreflightTarget } from "./targets.js";
import { renderedParts } from "./rendered.js";

/** The engine flags of each launch a file held at a commit (a compose service, a container); empty for none. */
function launchesAt(file: string, text: string): { part: string; flags: Flag[]; engine: EngineKind }[] {
  const kind = candidateKind(file, text);
  if (!kind) return [];
  return parseLaunchParts(kind, text).flatMap((p) =>
    p.script.engine ? [{ part: p.name, flags: p.script.engine.flags, engine: p.script.engine.kind }] : [],
  );
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
    const short = /^[0-9a-f]{40}$/.test(label) ? label.slice(0, 10) : label.split(" ")[0]!;
    // each launch on its own: two retired compose services each lose their own --port
    const was = text === null ? [] : launchesAt(file, text);
    for (const w of was) {
      for (const f of droppedFlags(w.flags, [], file, label, new Set(), short, file, w.engine)) {
        if (f.status === "pass") continue;
        out.push({
          ...f,
          summary: `${f.summary} (the file starts no engine now: its launch went away whole)`,
          data: { ...f.data, launchGone: true, ...(was.length > 1 ? { part: w.part } : {}) },
        });
      }
    }
  }
  return out;
}

/**
 * A chart or overlay that renders and starts no engine now (`vllm.enabled: false` in values.yaml) but did at the base:
 * each flag of each engine container the base rendered is reported dropped, at its line there. The base is --base,
 * else the commit before HEAD when HEAD changed the chart or overlay.
 */
export async function checkGoneRenders(ctx: PreflightContext, emptied: readonly PreflightTarget[]): Promise<Finding[]> {
  if (!ctx.historyOk || emptied.length === 0) return [];
  const head = ctx.ref ?? "HEAD";
  const headSha = await ctx.reader.resolve(head);
  const out: Finding[] = [];
  for (const t of emptied) {
    const spec = t.render!;
    let base = ctx.base ? await ctx.reader.resolve(ctx.base) : null;
    let label = ctx.base ?? "";
    if (!base) {
      const last = (await ctx.reader.history(spec.dir, head))[0]?.commit;
      if (!last || last.sha !== headSha || !last.parents[0]) continue;
      base = last.parents[0];
      label = `${base.slice(0, 10)} (before ${last.sha.slice(0, 10)} "${last.subject}")`;
    }
    const parts = await renderedParts(ctx, spec, base);
    if (!Array.isArray(parts)) continue;
    const short = /^[0-9a-f]{40}$/.test(label) ? label.slice(0, 10) : label.split(" ")[0]!;
    for (const p of parts) {
      const engine = p.script.engine!;
      for (const f of droppedFlags(engine.flags, [], p.file, label, new Set(), short, p.file, engine.kind)) {
        if (f.status === "pass") continue;
        out.push({
          ...f,
          summary: `${f.summary} (${spec.dir} renders no engine now: the launch went away whole)`,
          data: { ...f.data, launchGone: true, part: p.part, renderDir: spec.dir },
        });
      }
    }
  }
  return out;
}
