// The GitHub Action entry: inputs -> the same Options the CLI builds -> pipeline -> outputs.
import * as core from "@actions/core";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config/errors.js";
import { COMMANDS, UsageError, type Command, type Options } from "./options.js";
import { runCommand } from "./pipeline.js";
import { exitCodeOf } from "./report/finding.js";
import { renderJson } from "./report/json.js";
import { renderTerminal } from "./report/terminal.js";

export function actionOptions(): Options {
  const command = core.getInput("command") || "preflight";
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`input command: "${command}" is not one of ${COMMANDS.join(", ")}`);
  return {
    command: command as Command,
    cwd: process.env.GITHUB_WORKSPACE ?? process.cwd(),
    config: core.getInput("config") || null,
    endpoint: core.getInput("endpoint") || null,
    ref: core.getInput("ref") || null,
    base: core.getInput("base") || null,
    json: false,
    report: join(process.env.RUNNER_TEMP ?? process.cwd(), "deploy-gate-report.json"),
    noColor: true,
    failOnWarn: core.getBooleanInput("fail-on-warn", { required: false }),
    file: null,
  };
}

export async function runAction(): Promise<void> {
  try {
    const opts = actionOptions();
    const report = await runCommand(opts);
    writeFileSync(opts.report!, renderJson(report));
    core.info(renderTerminal(report, false));
    core.setOutput("verdict", report.verdict);
    core.setOutput("report", opts.report);
    core.setOutput("failed-checks", [...new Set(report.findings.filter((f) => f.status === "fail").map((f) => f.check))].join(","));
    if (exitCodeOf(report.verdict, opts.failOnWarn)) core.setFailed(`deploy-gate ${opts.command}: ${report.verdict}`);
  } catch (e) {
    core.setFailed(e instanceof ConfigError || e instanceof UsageError ? e.message : `deploy-gate internal error: ${(e as Error).stack}`);
  }
}

if (process.env.GITHUB_ACTIONS === "true" && !process.env.VITEST) void runAction();
