// The GitHub job summary: the verdict first, a table of every check, then what to do about each
// failure. Kept under GitHub's 1 MiB step-summary limit by trimming evidence, never the verdict.
import type { Finding, Report, Status } from "./finding.js";
import { fleetMarkdown } from "./fleet.js";

const ICON: Record<Status, string> = { pass: "✅", fail: "❌", warn: "⚠️", skip: "⏭️" };
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const fence = (lines: readonly string[]) => {
  const body = lines.join("\n");
  const ticks = "`".repeat(Math.max(3, ...[...body.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}text\n${body}\n${ticks}`;
};

function planTable(plan: Record<string, unknown>): string[] {
  const rows = Object.entries(plan).filter(([, v]) => v !== null && v !== undefined);
  if (!rows.length) return [];
  return ["| plan value | |", "|---|---|", ...rows.map(([k, v]) => `| ${cell(k)} | ${cell(typeof v === "number" ? v.toLocaleString("en-US") : JSON.stringify(v))} |`)];
}

interface DepthRow { depth: number; promptTokens: number | null; ttftS: number | null; decodeTokPerS: number | null; floor: number; valid: boolean; problems: string[] }

/** verify.decode's per-depth table (seed 003: per-depth tables, never one number). */
function depthTable(rows: readonly DepthRow[]): string[] {
  return ["| depth | prompt tokens | TTFT s | decode tok/s | floor | validity |", "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.depth} | ${r.promptTokens ?? "?"} | ${r.ttftS ?? "?"} | ${r.decodeTokPerS ?? "—"} | ${r.floor} | ${r.valid ? "valid" : cell(`invalid: ${r.problems.join("; ")}`)} |`)];
}
const depthRows = (f: Finding): DepthRow[] | null => {
  const rows = f.data?.rows;
  return Array.isArray(rows) && rows.length > 0 && typeof (rows[0] as DepthRow).depth === "number" ? rows as DepthRow[] : null;
};

function details(f: Finding, maxEvidenceLines: number): string[] {
  const out = [`### ${ICON[f.status]} \`${f.check}\`${f.host ? ` on \`${f.host}\`` : ""}`, "", `**${cell(f.summary)}**`, ""];
  if (f.file) out.push(`at \`${f.file}${f.line ? `:${f.line}` : ""}\``, "");
  const decisive = f.data?.decisive;
  if (typeof decisive === "string") out.push(`decisive line: \`${decisive.replace(/`/g, "'")}\``, "");
  const ev = f.evidence ?? [];
  if (ev.length) {
    const shown = ev.slice(0, maxEvidenceLines);
    if (ev.length > shown.length) shown.push(`… ${ev.length - shown.length} more lines in the JSON report`);
    out.push(fence(shown), "");
  }
  if (f.fix) out.push(`**Fix:** ${f.fix}`, "");
  const rows = depthRows(f);
  if (rows) out.push(...depthTable(rows), "");
  const plan = f.data?.plan;
  if (plan && typeof plan === "object") out.push(...planTable(plan as Record<string, unknown>), "");
  const drift = f.data?.drift;
  if (Array.isArray(drift) && drift.length) out.push("Drift (repo vs host):", "", fence(drift.map(String).slice(0, maxEvidenceLines)), "");
  return out;
}

export function renderMarkdown(report: Report, limitBytes = SUMMARY_LIMIT_BYTES): string {
  const verdict = report.verdict === "fail" ? "❌ FAIL" : report.verdict === "warn" ? "⚠️ PASS with warnings" : "✅ PASS";
  const n = (s: Status) => report.findings.filter((f) => f.status === s).length;
  const head = [
    `## deploy-gate ${report.command}: ${verdict}`,
    "",
    `${report.endpoint ? `endpoint **${report.endpoint}** · ` : ""}ref \`${report.ref.name}\`${report.ref.sha ? ` (\`${report.ref.sha.slice(0, 10)}\`)` : ""} · ${(report.durationMs / 1000).toFixed(1)} s · ${n("fail")} failed, ${n("warn")} warnings, ${n("pass")} passed, ${n("skip")} skipped`,
    "",
    ...fleetMarkdown(report),
    "| | check | summary |",
    "|---|---|---|",
    ...report.findings.map((f) => `| ${ICON[f.status]} | \`${f.check}\` | ${f.host ? `\`${f.host}\` ` : ""}${cell(f.summary)} |`),
    "",
  ].join("\n");
  // Problems get details; so does a measured decode table, which a reader wants even when it passes.
  const problems = report.findings.filter((f) => f.status === "fail" || f.status === "warn" || depthRows(f) !== null);
  // Shrink evidence until the whole summary fits; the head (verdict and table) always stays.
  for (const maxLines of [200, 40, 10, 3, 0]) {
    const body = problems.flatMap((f) => details(f, maxLines)).join("\n");
    const text = `${head}\n${body}`;
    if (Buffer.byteLength(text) <= limitBytes) return text;
  }
  const cut = `${head}\n_Details omitted to stay under GitHub's summary limit: see the JSON report._\n`;
  return Buffer.byteLength(cut) <= limitBytes ? cut : Buffer.from(cut).subarray(0, limitBytes - 64).toString("utf8").replace(/\uFFFD*$/, "") + "\n…\n";
}
