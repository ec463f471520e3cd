// Fleet reports: the per-host table (host, step, verdict, ready time, KV tokens; failures first) and
// the findings grouped per host in that order, for the terminal and the job summary. Pure.
import type { HostRow } from "./finding.js";
import { codeSpan } from "./code-span.js";
import type { Finding, Report } from "./finding.js";
import { cell } from "./markdown-text.js";

const ready = (r: HostRow) => (r.readyMs === null ? "—" : `${(r.readyMs / 1000).toFixed(1)} s`);
const kv = (r: HostRow) => (r.kvTokens === null ? "—" : r.kvTokens.toLocaleString("en-US"));
const MARK: Record<HostRow["verdict"], string> = {
  pass: "✅",
  warn: "⚠️",
  fail: "❌",
  "rolled back": "↩️",
  "failed, rolled back": "❌",
  "rollback failed": "❌",
  "not touched": "⏭️",
};

/** The job summary's hosts table (empty for a one-host endpoint). */
export function fleetMarkdown(report: Report): string[] {
  if (!report.fleet?.length) return [];
  return [
    "| host | step | verdict | ready | KV tokens |",
    "|---|---|---|---|---|",
    ...report.fleet.map(
      (r) =>
        `| ${cell(codeSpan(r.host))} | ${r.step ?? "—"} | ${MARK[r.verdict]} ${r.verdict} | ${ready(r)} | ${kv(r)} |`,
    ),
    "",
  ];
}

/**
 * The terminal body of a fleet report: the hosts table, then each host's findings under its own heading
 * (failing hosts first, the table's order), then the endpoint-wide findings (preflight, verify.replicas,
 * fleet.rollout).
 */
export function fleetTerminal(
  report: Report,
  lines: (f: Finding) => string[],
  heading: (s: string) => string,
): string[] | null {
  const rows = report.fleet;
  if (!rows?.length) return null;
  const w = Math.max(4, ...rows.map((r) => r.host.length));
  const out = [`${"host".padEnd(w)}  step  ${"verdict".padEnd(15)}  ${"ready".padStart(8)}  KV tokens`];
  for (const r of rows)
    out.push(
      `${r.host.padEnd(w)}  ${String(r.step ?? "—").padEnd(4)}  ${r.verdict.padEnd(15)}  ${ready(r).padStart(8)}  ${kv(r)}`,
    );
  for (const r of rows) {
    const own = report.findings.filter((f) => f.host === r.host);
    if (!own.length) continue;
    out.push("", heading(`── ${r.host}${r.step === null ? "" : ` (step ${r.step})`}: ${r.verdict}`));
    for (const f of own) out.push(...lines(f));
  }
  const fleetWide = report.findings.filter((f) => !f.host);
  if (fleetWide.length) out.push("", heading("── the endpoint (every host)"), ...fleetWide.flatMap(lines));
  return out;
}
