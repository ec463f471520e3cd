// preflight.dropped-flags for the value files an Argo CD Application applies to a chart of the repository
// (`helm.valueFiles: [values.yaml, ../../overlays/prod/x/values.yaml]`): the chart's own target renders it with its
// own values only, so a flag deleted from the production value file would never show. The chart is rendered as the
// Application applies it at both ends, and a flag that one of those value files wrote at the base and no longer
// reaches the engine is reported on that file. Trap rules stay with the chart's own render.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appliedCharts } from "../../domain/launch/argo-app.js";
import { pass, warn, type Finding } from "../../domain/report/finding.js";
import { droppedFlags } from "./dropped-flags.js";
import { renderedParts } from "./rendered.js";
import type { AppliedRender, PreflightContext, PreflightTarget } from "./targets.js";

/** The Applications that apply value files of their own to a chart preflight renders (`targets`' helm charts). */
export function appliedRenders(root: string, files: readonly string[], targets: readonly PreflightTarget[]) {
  const charts = new Map(targets.filter((t) => t.render?.tool === "helm").map((t) => [t.render!.dir, t.render!]));
  const out: AppliedRender[] = [];
  for (const file of files) {
    if (!/\.ya?ml$/i.test(file) || /(^|\/)(templates|node_modules)\//.test(file)) continue;
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue;
    }
    for (const app of appliedCharts(file, text)) {
      const chart = charts.get(app.chartDir);
      const own = app.valueFiles.filter((f) => f !== `${app.chartDir === "." ? "" : `${app.chartDir}/`}values.yaml`);
      if (!chart || !own.length || !own.every((f) => files.includes(f))) continue;
      const sources = chart.sources ?? [];
      const tpl = sources.filter((f) => /\.tpl$/.test(f));
      // the last file helm applies wins: its lines are looked at first, the chart's values.yaml last
      const values = [...own].reverse();
      out.push({
        app,
        own,
        spec: {
          tool: "helm",
          dir: app.chartDir,
          valueFiles: app.valueFiles,
          sources: [...tpl, ...values, ...sources.filter((f) => !tpl.includes(f) && !values.includes(f))],
        },
      });
    }
  }
  return out;
}

/**
 * --base, else HEAD when one of the Application's own value files has uncommitted changes, else the parent of the
 * commit under check when it changed one of them.
 */
async function baseOf(ctx: PreflightContext, own: readonly string[]) {
  if (ctx.base) {
    const sha = await ctx.reader.resolve(ctx.base);
    const short = /^[0-9a-f]{40}$/.test(ctx.base) ? ctx.base.slice(0, 10) : ctx.base;
    return sha ? { sha, label: ctx.base, short } : null;
  }
  const head = ctx.ref ?? "HEAD";
  const headSha = await ctx.reader.resolve(head);
  // a value file edited in the work tree: compared with HEAD
  const dirty = ctx.ref === null && (await (ctx.statusCache ??= ctx.git.status())).some((e) => own.includes(e.path));
  if (dirty && headSha) return { sha: headSha, label: `HEAD (${headSha.slice(0, 10)})`, short: headSha.slice(0, 10) };
  for (const f of own) {
    const last = (await ctx.reader.history(f, head))[0]?.commit;
    if (!last || last.sha !== headSha || !last.parents[0]) continue;
    const sha = last.parents[0];
    return {
      sha,
      label: `${sha.slice(0, 10)} (before ${last.sha.slice(0, 10)} "${last.subject}")`,
      short: sha.slice(0, 10),
    };
  }
  return null;
}

export async function checkAppliedValues(ctx: PreflightContext): Promise<Finding[]> {
  if (!ctx.historyOk || !ctx.appliedRenders?.length) return [];
  const out: Finding[] = [];
  for (const { app, own, spec } of ctx.appliedRenders) {
    const base = await baseOf(ctx, own);
    if (!base) continue;
    const data = { endpoint: app.name, renderDir: app.chartDir, application: app.file };
    const how = `${app.chartDir} as the Argo CD Application ${app.name} (${app.file}) applies it (helm template with ${app.valueFiles.join(", ")})`;
    const [now, then] = await Promise.all([renderedParts(ctx, spec, ctx.ref), renderedParts(ctx, spec, base.sha)]);
    if (!Array.isArray(now)) {
      if ("error" in now)
        out.push(
          warn("preflight.dropped-flags", `${how} did not render: ${now.error}; dropped flags not checked`, {
            file: app.file,
            fix: `run \`helm template ${app.chartDir} ${app.valueFiles.map((f) => `-f ${f}`).join(" ")}\` and fix what it reports`,
            data,
          }),
        );
      continue;
    }
    // the value files or the chart did not render at the base: nothing to compare with
    if (!Array.isArray(then)) continue;
    let dropped = 0;
    for (const part of now) {
      const was = then.find((p) => p.part === part.part)?.script.engine;
      const engine = part.script.engine;
      if (!was || !engine) continue;
      for (const file of own) {
        const found = droppedFlags(
          was.flags.filter((f) => f.file === file),
          engine.flags,
          file,
          base.label,
          new Set(),
          base.short,
          file,
          was.kind,
        ).filter((f) => f.status !== "pass");
        dropped += found.length;
        out.push(
          ...found.map((f) => ({
            ...f,
            evidence: [...(f.evidence ?? []), `rendered as ${how}`],
            data: { ...data, part: part.part, ...f.data },
          })),
        );
      }
    }
    // (an Application of a chart that starts no engine as applied says nothing)
    if (!dropped && now.some((p) => p.script.engine))
      out.push(
        pass("preflight.dropped-flags", `${own.join(", ")}: no engine flag dropped since ${base.label}`, {
          file: own[0]!,
          evidence: [`rendered as ${how}`],
          data,
        }),
      );
  }
  return out;
}
