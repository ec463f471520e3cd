// The GitHub Action entry: inputs -> the same Options the CLI builds -> pipeline -> job summary,
// annotations, outputs. Reads and validates every input once, here; the pipeline never reads inputs.
import * as core from "@actions/core";
import { writeFileSync } from "node:fs";
import { actionOptions, inActionTerms } from "./action-inputs.js";
import { ConfigError } from "./config/errors.js";
import { runAbort } from "./abort.js";
import { releaseAllLocks } from "./deploy/index.js";
import { UsageError, type Options } from "./options.js";
import { runCommand } from "./pipeline.js";
import { annotationsOf } from "./report/annotations.js";
import { exitCodeOf, type Report } from "./report/finding.js";
import { renderJson } from "./report/json.js";
import { renderMarkdown, repoUrlOf } from "./report/markdown.js";
import { sanitizeValue } from "./report/sanitize.js";
import { renderTerminal } from "./report/terminal.js";

export { actionOptions };

export async function publish(raw: Report, opts: Options): Promise<void> {
  // Fixes written for the command line name the action's inputs instead of flags.
  const report = { ...raw, findings: raw.findings.map((f) => (f.fix ? { ...f, fix: inActionTerms(f.fix) } : f)) };
  writeFileSync(opts.report!, renderJson(report));
  core.info(renderTerminal(report, false));
  for (const a of annotationsOf(report)) {
    const props = { title: a.title, file: a.file, ...(a.startLine ? { startLine: a.startLine } : {}) };
    if (a.level === "error") core.error(a.message, props);
    else core.warning(a.message, props);
  }
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(renderMarkdown(report, undefined, { repoUrl: repoUrlOf(process.env) }), true).write();
  core.setOutput("verdict", report.verdict);
  core.setOutput("report", opts.report);
  core.setOutput("failed-checks", [...new Set(report.findings.filter((f) => f.status === "fail").map((f) => f.check))].join(","));
}

export async function runAction(): Promise<void> {
  try {
    const opts = actionOptions();
    const report = await core.group(`deploy-gate ${opts.command}`, () => runCommand(opts, (line) => core.info(line)));
    await publish(report, opts);
    if (exitCodeOf(report.verdict, opts.failOnWarn)) core.setFailed(`deploy-gate ${opts.command}: ${report.verdict} (see the job summary)`);
  } catch (e) {
    core.setFailed(sanitizeValue(e instanceof ConfigError || e instanceof UsageError ? inActionTerms(e.message) : `deploy-gate internal error: ${(e as Error).stack}`));
  }
}

if (process.env.GITHUB_ACTIONS === "true" && !process.env.VITEST) {
  // A cancelled job sends SIGINT/SIGTERM: release the host lock before going.
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => (runAbort.abort(), releaseAllLocks()).finally(() => process.exit(1)));
  void runAction();
}
