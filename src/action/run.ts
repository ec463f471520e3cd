// The GitHub Action: inputs -> the same Options the CLI builds -> the command -> job summary, annotations,
// outputs. Reads and validates every input once, here; nothing below reads inputs. index.ts runs it.
import * as core from "@actions/core";
import { appendFileSync } from "node:fs";
import { writeNoFollow } from "../ports/local/write-file.js";
import { EOL } from "node:os";
import { relative } from "node:path";
import { actionOptions } from "./inputs.js";
import { ConfigError } from "../domain/config/errors.js";
import { UsageError, type Options } from "../commands/options.js";
import { runCommand } from "../commands/index.js";
import { ANNOTATIONS_PER_KIND, annotationsOf, stepFailure } from "../domain/report/annotations.js";
import { exitCodeOf, type Report } from "../domain/report/finding.js";
import { renderJson } from "../domain/report/json.js";
import { errorMarkdown, renderMarkdown, repoUrlOf, SUMMARY_LIMIT_BYTES } from "../domain/report/markdown.js";
import { sanitizeValue } from "../domain/report/sanitize.js";
import { renderTerminal } from "../domain/report/terminal.js";
import { inActionTerms } from "./action-terms.js";

export { actionOptions };

// The summary ends with an EOL: the text is budgeted for it, so the file stays within GitHub's 1 MiB.
const SUMMARY_BUDGET = SUMMARY_LIMIT_BYTES - Buffer.byteLength(EOL);

/**
 * Appends to the step's summary file. Not core.summary: it keeps the first file path it saw for the life of the
 * process.
 */
function writeSummary(markdown: string): void {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown}${EOL}`);
}

export async function publish(raw: Report, opts: Options): Promise<void> {
  // Fixes written for the command line name the action's inputs instead of flags.
  const report = { ...raw, findings: raw.findings.map((f) => (f.fix ? { ...f, fix: inActionTerms(f.fix) } : f)) };
  writeNoFollow(opts.report!, renderJson(report));
  core.info(renderTerminal(report, false));
  for (const a of annotationsOf(report)) {
    const props = {
      title: a.title,
      ...(a.file ? { file: a.file } : {}),
      ...(a.startLine ? { startLine: a.startLine } : {}),
    };
    if (a.level === "error") core.error(a.message, props);
    else core.warning(a.message, props);
  }
  writeSummary(renderMarkdown(report, SUMMARY_BUDGET, { repoUrl: repoUrlOf(process.env) }));
  core.setOutput("verdict", report.verdict);
  core.setOutput("report", opts.report);
  core.setOutput(
    "failed-checks",
    [...new Set(report.findings.filter((f) => f.status === "fail").map((f) => f.check))].join(","),
  );
}

/** Each config problem at its file and line, the file named from the workspace as the annotation needs it. */
function annotateConfig(e: ConfigError): void {
  const file = relative(process.env.GITHUB_WORKSPACE || process.cwd(), e.file);
  for (const p of e.problems.slice(0, ANNOTATIONS_PER_KIND - 1))
    core.error(sanitizeValue(inActionTerms(`${p.path ? `${p.path}: ` : ""}${p.message}`)), {
      title: "deploy-gate: invalid config",
      file,
      ...(p.line ? { startLine: p.line } : {}),
    });
}

/** A step that stopped before a verdict still says so where a reader looks: the verdict output and the summary. */
function publishError(message: string, command: string | null): void {
  core.setOutput("verdict", "error");
  try {
    writeSummary(errorMarkdown(message, command));
  } catch {
    // a summary that cannot be written must not hide the error itself (already the step's error)
  }
}

export async function runAction(): Promise<void> {
  let command: string | null = null;
  try {
    const opts = actionOptions();
    command = opts.command;
    // the group opens with the first progress line: preflight prints none, and an empty group is noise
    let grouped = false;
    const progress = (line: string) => {
      if (!grouped) core.startGroup(`deploy-gate ${opts.command}`);
      grouped = true;
      core.info(line);
    };
    const report = await runCommand(opts, progress, process.env).finally(() => grouped && core.endGroup());
    await publish(report, opts);
    if (exitCodeOf(report.verdict, opts.failOnWarn)) core.setFailed(stepFailure(report));
  } catch (e) {
    const message = sanitizeValue(
      e instanceof ConfigError || e instanceof UsageError
        ? inActionTerms(e.message)
        : `deploy-gate internal error: ${(e as Error).stack}`,
    );
    if (e instanceof ConfigError) annotateConfig(e);
    core.setFailed(message);
    publishError(message, command);
  }
}
