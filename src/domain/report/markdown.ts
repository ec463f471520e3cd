// The GitHub job summary, in the order a reader needs it: the verdict, the failures (each once,
// grouped by check and file), the warnings, measurements, then the passes collapsed. Kept under
// GitHub's 1 MiB step-summary limit by shedding the least needed first (evidence, passes, warning
// details), never the verdict or a failure's headline and fix. Pure.
// Sections are a list: a new one (a per-host table) is a function added to SECTIONS.
import type { Finding, Report, Status } from "./finding.js";
import { fleetMarkdown } from "./fleet.js";
import { codeSpan } from "./code-span.js";
import { cell, commitLink, fence, fixCommands, knownShas, prose, type SummaryContext } from "./markdown-text.js";

export { repoUrlOf, type SummaryContext } from "./markdown-text.js";

const ICON: Record<Status, string> = { pass: "✅", fail: "❌", warn: "⚠️", skip: "⏭️" };
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;

/** How much a rendering keeps: each shrink step keeps less of what a reader needs least. */
interface Detail {
  maxEvidenceLines: number;
  passes: boolean;
  warnings: boolean;
}
interface Ctx extends SummaryContext, Detail {}

const SHRINK: Detail[] = [
  ...[200, 40, 10, 3, 0].map((maxEvidenceLines) => ({ maxEvidenceLines, passes: true, warnings: true })),
  { maxEvidenceLines: 0, passes: false, warnings: true },
  { maxEvidenceLines: 0, passes: false, warnings: false },
];
const LEFT_OUT = "left out to stay under GitHub's summary limit: see the JSON report";

function planTable(plan: Record<string, unknown>, ctx: Ctx): string[] {
  const rows = Object.entries(plan).filter(([, v]) => v !== null && v !== undefined);
  if (!rows.length) return [];
  return [
    "| plan value | |",
    "|---|---|",
    ...rows.map(
      ([k, v]) =>
        `| ${cell(prose(k, ctx))} | ${cell(typeof v === "number" ? v.toLocaleString("en-US") : prose(JSON.stringify(v), ctx))} |`,
    ),
    "",
  ];
}

interface DepthRow {
  depth: number;
  promptTokens: number | null;
  ttftS: number | null;
  decodeTokPerS: number | null;
  floor: number;
  valid: boolean;
  problems: string[];
}

/** verify.decode's per-depth table (seed 003: per-depth tables, never one number). */
function depthTable(rows: readonly DepthRow[], ctx: Ctx): string[] {
  return [
    "| depth | prompt tokens | TTFT s | decode tok/s | floor | validity |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.depth} | ${r.promptTokens ?? "?"} | ${r.ttftS ?? "?"} | ${r.decodeTokPerS ?? "—"} | ${r.floor} | ${r.valid ? "valid" : cell(prose(`invalid: ${r.problems.join("; ")}`, ctx))} |`,
    ),
    "",
  ];
}
const depthRows = (f: Finding): DepthRow[] | null => {
  const rows = f.data?.rows;
  return Array.isArray(rows) && rows.length > 0 && typeof (rows[0] as DepthRow).depth === "number"
    ? (rows as DepthRow[])
    : null;
};

/** One finding under its group's heading: what, where, the decisive line, evidence, the fix and its commands. */
function findingBlock(f: Finding, ctx: Ctx): string[] {
  const out = [
    `${f.host ? `${codeSpan(f.host)}: ` : ""}**${cell(prose(f.summary, ctx))}**${f.line ? ` (line ${f.line})` : ""}`,
    "",
  ];
  const decisive = f.data?.decisive;
  if (typeof decisive === "string") out.push("decisive line:", "", fence([decisive]), "");
  const ev = f.evidence ?? [];
  if (ev.length && ctx.maxEvidenceLines > 0) {
    const shown = ev.slice(0, ctx.maxEvidenceLines);
    if (ev.length > shown.length) shown.push(`… ${ev.length - shown.length} more lines in the JSON report`);
    out.push(fence(shown), "");
  }
  if (f.fix) {
    out.push(`**Fix:** ${prose(f.fix, ctx)}`, "");
    const cmds = fixCommands(f.fix);
    if (cmds.length) out.push(fence(cmds, "sh"), "");
  }
  const rows = depthRows(f);
  if (rows) out.push(...depthTable(rows, ctx));
  const plan = f.data?.plan;
  if (plan && typeof plan === "object") out.push(...planTable(plan as Record<string, unknown>, ctx));
  const drift = f.data?.drift;
  if (Array.isArray(drift) && drift.length)
    out.push("Drift (repo vs host):", "", fence(drift.map(String).slice(0, ctx.maxEvidenceLines || 3)), "");
  return out;
}

/** How many findings each check has, for a line that stands in for their details. */
function countsByCheck(fs: readonly Finding[]): string {
  const n = new Map<string, number>();
  for (const f of fs) n.set(f.check, (n.get(f.check) ?? 0) + 1);
  return [...n].map(([check, k]) => `\`${check}\` (${k.toLocaleString("en-US")})`).join(", ");
}

/**
 * Findings of one status, grouped by check and file (a check that fails on two lines of a script reads as one group).
 */
function grouped(findings: readonly Finding[], status: Status, title: string, ctx: Ctx): string[] {
  const mine = findings.filter((f) => f.status === status);
  if (!mine.length) return [];
  if (status === "warn" && !ctx.warnings)
    return [`### ${ICON[status]} ${title} (${mine.length})`, "", `${countsByCheck(mine)}: details ${LEFT_OUT}.`, ""];
  const groups = new Map<string, Finding[]>();
  for (const f of mine) {
    const key = `${f.check}\0${f.file ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const out = [`### ${ICON[status]} ${title} (${mine.length})`, ""];
  for (const fs of groups.values()) {
    const { check, file } = fs[0]!;
    out.push(`#### \`${check}\`${file ? ` · ${codeSpan(file)}` : ""}`, "");
    for (const f of fs) out.push(...findingBlock(f, ctx));
  }
  return out;
}

function head(report: Report, ctx: Ctx): string[] {
  const verdict =
    report.verdict === "fail" ? "❌ FAIL" : report.verdict === "warn" ? "⚠️ PASS with warnings" : "✅ PASS";
  const n = (s: Status) => report.findings.filter((f) => f.status === s).length;
  const sha = report.ref.sha ? ` (${commitLink(report.ref.sha, ctx)})` : "";
  const failed = [...new Set(report.findings.filter((f) => f.status === "fail").map((f) => `\`${f.check}\``))];
  return [
    `## deploy-gate ${report.command}: ${verdict}`,
    "",
    `${report.endpoint ? `endpoint ${codeSpan(report.endpoint)} · ` : ""}ref ${codeSpan(report.ref.name)}${sha} · ${(report.durationMs / 1000).toFixed(1)} s · ${n("fail")} failed, ${n("warn")} warnings, ${n("pass")} passed, ${n("skip")} skipped`,
    "",
    ...(failed.length ? [`**Failed:** ${failed.join(", ")}`, ""] : []),
  ];
}

/** A passing check with a table a reader wants anyway (verify.decode's depths). */
function measured(report: Report, ctx: Ctx): string[] {
  const fs = report.findings.filter((f) => f.status === "pass" && depthRows(f));
  return fs.length
    ? [
        "### 📏 Measured",
        "",
        ...fs.flatMap((f) => [
          `#### \`${f.check}\``,
          "",
          `**${cell(prose(f.summary, ctx))}**`,
          "",
          ...depthTable(depthRows(f)!, ctx),
        ]),
      ]
    : [];
}

/** Passes and skips, collapsed: present for the record, out of the way of what needs doing. */
function passes(report: Report, ctx: Ctx): string[] {
  const fs = report.findings.filter((f) => f.status === "pass" || f.status === "skip");
  if (!fs.length) return [];
  const n = (s: Status) => fs.filter((f) => f.status === s).length;
  if (!ctx.passes) return [`_${n("pass")} passed, ${n("skip")} skipped: ${LEFT_OUT}._`, ""];
  return [
    `<details><summary>${n("pass")} passed, ${n("skip")} skipped</summary>`,
    "",
    "| | check | summary |",
    "|---|---|---|",
    ...fs.map(
      (f) =>
        `| ${ICON[f.status]} | \`${f.check}\` | ${f.host ? `${cell(codeSpan(f.host))} ` : ""}${cell(prose(f.summary, ctx))}${f.status === "skip" && f.fix ? ` (${cell(prose(f.fix, ctx))})` : ""} |`,
    ),
    "",
    "</details>",
    "",
  ];
}

type Section = (report: Report, ctx: Ctx) => string[];
export const SECTIONS: Section[] = [
  head,
  (r) => fleetMarkdown(r),
  (r, ctx) => grouped(r.findings, "fail", "Failures", ctx),
  (r, ctx) => grouped(r.findings, "warn", "Warnings", ctx),
  measured,
  passes,
];

// A list item, not a table cell: a pipe stays as written (an escaped one would show in a code span).
const oneLine = (s: string) => s.replace(/\r?\n/g, " ");

/** The last resort: the head, then each failure's one line and fix, nothing else. */
function brief(report: Report, ctx: Ctx): string[] {
  const fails = report.findings.filter((f) => f.status === "fail");
  const warns = report.findings.filter((f) => f.status === "warn");
  const where = (f: Finding) =>
    `${f.host ? ` ${codeSpan(f.host)}` : ""}${f.file ? ` · ${codeSpan(f.file)}${f.line ? ` line ${f.line}` : ""}` : ""}`;
  return [
    ...head(report, ctx),
    ...(fails.length ? [`### ${ICON.fail} Failures (${fails.length})`, ""] : []),
    ...fails.map(
      (f) =>
        `- \`${f.check}\`${where(f)}: **${oneLine(prose(f.summary, ctx))}**${f.fix ? ` **Fix:** ${oneLine(prose(f.fix, ctx))}` : ""}`,
    ),
    "",
    ...(warns.length ? [`${warns.length} warning${warns.length === 1 ? "" : "s"}: ${LEFT_OUT}.`, ""] : []),
    `_Evidence, tables and passes ${LEFT_OUT}._`,
    "",
  ];
}

export function renderMarkdown(report: Report, limitBytes = SUMMARY_LIMIT_BYTES, context: SummaryContext = {}): string {
  const shas = [...knownShas(report.findings.map((f) => f.data)), ...(report.ref.sha ? [report.ref.sha] : [])];
  // Shed the least needed until the whole summary fits; the verdict and the failure headlines always stay.
  for (const detail of SHRINK) {
    const ctx: Ctx = { ...context, shas, ...detail };
    const text = SECTIONS.flatMap((s) => s(report, ctx)).join("\n");
    if (Buffer.byteLength(text) <= limitBytes) return text;
  }
  const cut = brief(report, { ...context, shas, ...SHRINK.at(-1)! }).join("\n");
  if (Buffer.byteLength(cut) <= limitBytes) return cut;
  // Still too long (thousands of failures): whole lines up to the limit, so no code span is cut open.
  const kept = Buffer.from(cut)
    .subarray(0, Math.max(0, limitBytes - 64))
    .toString("utf8");
  return `${kept.slice(0, Math.max(0, kept.lastIndexOf("\n")))}\n\n… more failures in the JSON report\n`;
}

/** The summary of a step that stopped before a verdict (a bad input or config): what went wrong, as written. */
export function errorMarkdown(message: string, command: string | null): string {
  return [
    `## deploy-gate${command ? ` ${command}` : ""}: ❗ error`,
    "",
    "The gate stopped before a verdict:",
    "",
    fence(message.split(/\r?\n/)),
    "",
  ].join("\n");
}
