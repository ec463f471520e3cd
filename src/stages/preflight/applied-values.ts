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
import { goneBase } from "./gone-launch.js";
import { renderedParts } from "./rendered.js";
import type { AppliedRender, PreflightContext, PreflightTarget } from "./targets.js";

/** The Applications that apply value files of their own to a chart preflight renders (`targets`' helm charts). */
export function appliedRenders(root: string, files: readonly string[], targets: readonly PreflightTarget[]) {
  const charts = new Map(targets.filter((t) => t.render?.tool === "helm").map((t) => [t.render!.dir, t.render!]));
  const out: AppliedRender[] = [];
  // no chart to apply value files to: the repository's YAML is not read again
  if (!charts.size) return out;
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

export async function checkAppliedValues(ctx: PreflightContext): Promise<Finding[]> {
  if (!ctx.historyOk || !ctx.appliedRenders?.length) return [];
  const out: Finding[] = [];
  for (const { app, own, spec } of ctx.appliedRenders) {
    const base = await goneBase(ctx, own, { dirty: true });
    if (!base) continue;
    const data = { endpoint: app.name, renderDir: app.chartDir, application: app.file };
    const how = `${app.chartDir} as the Argo CD Application ${app.name} (${app.file}) applies it (helm template with ${app.valueFiles.join(", ")})`;
    const [now, then] = await Promise.all([renderedParts(ctx, spec, ctx.ref), renderedParts(ctx, spec, base.base)]);
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
