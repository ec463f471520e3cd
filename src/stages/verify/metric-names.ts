// verify.metrics (contracts.metrics): the metric names the repository's dashboards and alert rules use
// exist in the live /metrics; a name the engine renamed names both names, so a dashboard never goes blank
// silently after an upgrade.
import { exposedNames, metricNamesIn, renameOf } from "../../domain/engine/metric-names.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import type { HttpResult } from "../../ports/http/client.js";

export const CHECK = "verify.metrics";

/** A declared file's text at the ref (null: not there). */
export interface DeclaredFile {
  path: string;
  text: string | null;
}

export function checkMetricNames(files: readonly DeclaredFile[], metrics: HttpResult, via: string): Finding {
  const absent = files.filter((f) => f.text === null).map((f) => f.path);
  if (absent.length)
    return fail(CHECK, `declared in contracts.metrics but not in the repository at this ref: ${absent.join(", ")}`, {
      fix: "correct the paths in contracts.metrics in deploy-gate.yml (relative to the repository root), or commit the files",
    });
  if (metrics.status !== 200)
    return fail(
      CHECK,
      `GET /metrics via ${via}: ${metrics.status === null ? (metrics.error ?? "no answer") : `HTTP ${metrics.status}`}`,
      {
        evidence: [metrics.body.slice(0, 200)],
        fix: "the engine must serve /metrics on its port (llama-server: start it with --metrics; SGLang: --enable-metrics); then rerun deploy-gate verify",
      },
    );
  const live = exposedNames(metrics.body);
  const evidence: string[] = [];
  const renames: string[] = [];
  let used = 0;
  let missing = 0;
  for (const f of files) {
    for (const name of metricNamesIn(f.text!)) {
      used++;
      if (live.has(name)) continue;
      missing++;
      const r = renameOf(name);
      if (r?.now) {
        evidence.push(
          `${f.path}: ${name} renamed ${r.now} (${r.why})${live.has(r.now) ? "" : "; the new name is not served either"}`,
        );
        renames.push(`${name} -> ${r.now}`);
      } else if (r) evidence.push(`${f.path}: ${name} is gone with no replacement (${r.why})`);
      else evidence.push(`${f.path}: ${name} is not in /metrics`);
    }
  }
  const where = files.map((f) => f.path).join(", ");
  const data = { used, missing, renames };
  if (!missing) return pass(CHECK, `${used} metric names used by ${where} all exist in /metrics`, { data });
  return fail(
    CHECK,
    `${missing} of ${used} metric names used by ${where} are not in /metrics: the panels and alerts on them see nothing`,
    {
      evidence,
      data,
      fix: renames.length
        ? `rename in the dashboards and rules: ${[...new Set(renames)].join(", ")}; for a name with no replacement, change the query; for a name not in /metrics, check the engine flag or version that serves it`
        : "each name above is not served by this engine: change the queries to names in its /metrics, or the engine flag or version that serves them",
    },
  );
}
