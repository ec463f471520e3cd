#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  cell,
  codeSpan,
  commitLink,
  fence,
  fixCommands,
  fleetMarkdown,
  knownShas,
  prose
} from "./chunk-5RGKNVFB.js";

// src/ports/local/write-file.ts
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
function writeNoFollow(file, text) {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  writeFileSync(tmp, text, { flag: "wx" });
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

// src/domain/report/json.ts
function renderJson(report) {
  return JSON.stringify(report, null, 2) + "\n";
}

// src/domain/report/markdown.ts
var ICON = { pass: "\u2705", fail: "\u274C", warn: "\u26A0\uFE0F", skip: "\u23ED\uFE0F" };
var SUMMARY_LIMIT_BYTES = 1024 * 1024;
var SHRINK = [
  ...[200, 40, 10, 3, 0].map((maxEvidenceLines) => ({ maxEvidenceLines, passes: true, warnings: true })),
  { maxEvidenceLines: 0, passes: false, warnings: true },
  { maxEvidenceLines: 0, passes: false, warnings: false }
];
var LEFT_OUT = "left out to stay under GitHub's summary limit: see the JSON report";
function planTable(plan, ctx) {
  const rows = Object.entries(plan).filter(([, v]) => v !== null && v !== void 0);
  if (!rows.length) return [];
  return [
    "| plan value | |",
    "|---|---|",
    ...rows.map(
      ([k, v]) => `| ${cell(prose(k, ctx))} | ${cell(typeof v === "number" ? v.toLocaleString("en-US") : prose(JSON.stringify(v), ctx))} |`
    ),
    ""
  ];
}
function depthTable(rows, ctx) {
  return [
    "| depth | prompt tokens | TTFT s | decode tok/s | floor | validity |",
    "|---|---|---|---|---|---|",
    ...rows.map(
      (r) => `| ${r.depth} | ${r.promptTokens ?? "?"} | ${r.ttftS ?? "?"} | ${r.decodeTokPerS ?? "\u2014"} | ${r.floor} | ${r.valid ? "valid" : cell(prose(`invalid: ${r.problems.join("; ")}`, ctx))} |`
    ),
    ""
  ];
}
var depthRows = (f) => {
  const rows = f.data?.rows;
  return Array.isArray(rows) && rows.length > 0 && typeof rows[0].depth === "number" ? rows : null;
};
function findingBlock(f, ctx) {
  const out = [
    `${f.host ? `${codeSpan(f.host)}: ` : ""}**${cell(prose(f.summary, ctx))}**${f.line ? ` (line ${f.line})` : ""}`,
    ""
  ];
  const decisive = f.data?.decisive;
  if (typeof decisive === "string") out.push("decisive line:", "", fence([decisive]), "");
  const ev = f.evidence ?? [];
  if (ev.length && ctx.maxEvidenceLines > 0) {
    const shown = ev.slice(0, ctx.maxEvidenceLines);
    if (ev.length > shown.length) shown.push(`\u2026 ${ev.length - shown.length} more lines in the JSON report`);
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
  if (plan && typeof plan === "object") out.push(...planTable(plan, ctx));
  const drift = f.data?.drift;
  if (Array.isArray(drift) && drift.length)
    out.push("Drift (repo vs host):", "", fence(drift.map(String).slice(0, ctx.maxEvidenceLines || 3)), "");
  return out;
}
function countsByCheck(fs) {
  const n = /* @__PURE__ */ new Map();
  for (const f of fs) n.set(f.check, (n.get(f.check) ?? 0) + 1);
  return [...n].map(([check, k]) => `\`${check}\` (${k.toLocaleString("en-US")})`).join(", ");
}
function grouped(findings, status, title, ctx) {
  const mine = findings.filter((f) => f.status === status);
  if (!mine.length) return [];
  if (status === "warn" && !ctx.warnings)
    return [`### ${ICON[status]} ${title} (${mine.length})`, "", `${countsByCheck(mine)}: details ${LEFT_OUT}.`, ""];
  const groups = /* @__PURE__ */ new Map();
  for (const f of mine) {
    const key = `${f.check}\0${f.file ?? ""}`;
    groups.set(key, [...groups.get(key) ?? [], f]);
  }
  const out = [`### ${ICON[status]} ${title} (${mine.length})`, ""];
  for (const fs of groups.values()) {
    const { check, file } = fs[0];
    out.push(`#### \`${check}\`${file ? ` \xB7 ${codeSpan(file)}` : ""}`, "");
    for (const f of fs) out.push(...findingBlock(f, ctx));
  }
  return out;
}
function head(report, ctx) {
  const verdict = report.verdict === "fail" ? "\u274C FAIL" : report.verdict === "warn" ? "\u26A0\uFE0F PASS with warnings" : "\u2705 PASS";
  const n = (s) => report.findings.filter((f) => f.status === s).length;
  const sha = report.ref.sha ? ` (${commitLink(report.ref.sha, ctx)})` : "";
  const failed = [...new Set(report.findings.filter((f) => f.status === "fail").map((f) => `\`${f.check}\``))];
  return [
    `## deploy-gate ${report.command}: ${verdict}`,
    "",
    `${report.endpoint ? `endpoint ${codeSpan(report.endpoint)} \xB7 ` : ""}ref ${codeSpan(report.ref.name)}${sha} \xB7 ${(report.durationMs / 1e3).toFixed(1)} s \xB7 ${n("fail")} failed, ${n("warn")} warnings, ${n("pass")} passed, ${n("skip")} skipped`,
    "",
    ...failed.length ? [`**Failed:** ${failed.join(", ")}`, ""] : []
  ];
}
function measured(report, ctx) {
  const fs = report.findings.filter((f) => f.status === "pass" && depthRows(f));
  return fs.length ? [
    "### \u{1F4CF} Measured",
    "",
    ...fs.flatMap((f) => [
      `#### \`${f.check}\``,
      "",
      `**${cell(prose(f.summary, ctx))}**`,
      "",
      ...depthTable(depthRows(f), ctx)
    ])
  ] : [];
}
function passes(report, ctx) {
  const fs = report.findings.filter((f) => f.status === "pass" || f.status === "skip");
  if (!fs.length) return [];
  const n = (s) => fs.filter((f) => f.status === s).length;
  if (!ctx.passes) return [`_${n("pass")} passed, ${n("skip")} skipped: ${LEFT_OUT}._`, ""];
  return [
    `<details><summary>${n("pass")} passed, ${n("skip")} skipped</summary>`,
    "",
    "| | check | summary |",
    "|---|---|---|",
    ...fs.map(
      (f) => `| ${ICON[f.status]} | \`${f.check}\` | ${f.host ? `${cell(codeSpan(f.host))} ` : ""}${cell(prose(f.summary, ctx))}${f.status === "skip" && f.fix ? ` (${cell(prose(f.fix, ctx))})` : ""} |`
    ),
    "",
    "</details>",
    ""
  ];
}
var SECTIONS = [
  head,
  (r) => fleetMarkdown(r),
  (r, ctx) => grouped(r.findings, "fail", "Failures", ctx),
  (r, ctx) => grouped(r.findings, "warn", "Warnings", ctx),
  measured,
  passes
];
var oneLine = (s) => s.replace(/\r?\n/g, " ");
function brief(report, ctx) {
  const fails = report.findings.filter((f) => f.status === "fail");
  const warns = report.findings.filter((f) => f.status === "warn");
  const where = (f) => `${f.host ? ` ${codeSpan(f.host)}` : ""}${f.file ? ` \xB7 ${codeSpan(f.file)}${f.line ? ` line ${f.line}` : ""}` : ""}`;
  return [
    ...head(report, ctx),
    ...fails.length ? [`### ${ICON.fail} Failures (${fails.length})`, ""] : [],
    ...fails.map(
      (f) => `- \`${f.check}\`${where(f)}: **${oneLine(prose(f.summary, ctx))}**${f.fix ? ` **Fix:** ${oneLine(prose(f.fix, ctx))}` : ""}`
    ),
    "",
    ...warns.length ? [`${warns.length} warning${warns.length === 1 ? "" : "s"}: ${LEFT_OUT}.`, ""] : [],
    `_Evidence, tables and passes ${LEFT_OUT}._`,
    ""
  ];
}
function renderMarkdown(report, limitBytes = SUMMARY_LIMIT_BYTES, context = {}) {
  const shas = [...knownShas(report.findings.map((f) => f.data)), ...report.ref.sha ? [report.ref.sha] : []];
  for (const detail of SHRINK) {
    const ctx = { ...context, shas, ...detail };
    const text = SECTIONS.flatMap((s) => s(report, ctx)).join("\n");
    if (Buffer.byteLength(text) <= limitBytes) return text;
  }
  const cut = brief(report, { ...context, shas, ...SHRINK.at(-1) }).join("\n");
  if (Buffer.byteLength(cut) <= limitBytes) return cut;
  const kept = Buffer.from(cut).subarray(0, Math.max(0, limitBytes - 64)).toString("utf8");
  return `${kept.slice(0, Math.max(0, kept.lastIndexOf("\n")))}

\u2026 more failures in the JSON report
`;
}
function errorMarkdown(message, command) {
  return [
    `## deploy-gate${command ? ` ${command}` : ""}: \u2757 error`,
    "",
    "The gate stopped before a verdict:",
    "",
    fence(message.split(/\r?\n/)),
    ""
  ].join("\n");
}

export {
  writeNoFollow,
  renderJson,
  SUMMARY_LIMIT_BYTES,
  renderMarkdown,
  errorMarkdown
};
