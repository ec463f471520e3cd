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
export function launchesAt(
  file: string,
  text: string,
  executable = false,
): { part: string; flags: Flag[]; engine: EngineKind }[] {
  const kind = candidateKind(file, text, executable);
  if (!kind) return [];
  return parseLaunchParts(kind, text).flatMap((p) =>
    p.script.engine ? [{ part: p.name, flags: p.script.engine.flags, engine: p.script.engine.kind }] : [],
  );
}

/**
 * What a launch that went away is compared with: --base, else (with `dirty`) HEAD when one of `paths` has uncommitted
 * changes, else the parent of the commit under check when that commit changed one of `paths` (files or a chart's
 * directory); null when none applies.
 */
export async function goneBase(
  ctx: PreflightContext,
  paths: string | readonly string[],
  opts: { dirty?: boolean } = {},
): Promise<{ base: string; label: string; short: string } | null> {
  const head = ctx.ref ?? "HEAD";
  const explicit = ctx.base ? await ctx.reader.resolve(ctx.base) : null;
  if (explicit) {
    const label = ctx.base!;
    return { base: explicit, label, short: /^[0-9a-f]{40}$/.test(label) ? label.slice(0, 10) : label };
  }
  const headSha = await ctx.reader.resolve(head);
  const list = typeof paths === "string" ? [paths] : paths;
  if (opts.dirty && ctx.ref === null && headSha) {
    // a file edited in the work tree: compared with HEAD
    const status = await (ctx.statusCache ??= ctx.git.status());
    if (status.some((e) => list.includes(e.path)))
      return { base: headSha, label: `HEAD (${headSha.slice(0, 10)})`, short: headSha.slice(0, 10) };
  }
  for (const path of list) {
    const last = (await ctx.reader.history(path, head))[0]?.commit;
    if (!last || last.sha !== headSha || !last.parents[0]) continue;
    const base = last.parents[0];
    return {
      base,
      label: `${base.slice(0, 10)} (before ${last.sha.slice(0, 10)} "${last.subject}")`,
      short: base.slice(0, 10),
    };
  }
  return null;
}

/**
 * The quiet files (see quietLaunchFiles) whose launch went away: against --base, else only when the commit under
 * check is the one that took it away (an old, deliberate retirement is not reported on every run).
 */
export async function checkGoneLaunches(ctx: PreflightContext): Promise<Finding[]> {
  if (!ctx.historyOk || !ctx.quietFiles?.length) return [];
  const out: Finding[] = [];
  for (const file of ctx.quietFiles) {
    const at = await goneBase(ctx, file);
    if (!at) continue;
    const { base, label, short } = at;
    const text = await ctx.reader.show(base, file);
    // each launch on its own: two retired compose services each lose their own --port
    // (a quiet file without `#!` or extension was listed for its execute bit: it is a script)
    const was = text === null ? [] : launchesAt(file, text, true);
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
  const out: Finding[] = [];
  for (const t of emptied) {
    const spec = t.render!;
    const at = await goneBase(ctx, spec.dir);
    if (!at) continue;
    const { base, label, short } = at;
    const parts = await renderedParts(ctx, spec, base);
    if (!Array.isArray(parts)) continue;
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
