// The GitHub Action entry: inputs -> the same Options the CLI builds -> pipeline -> job summary,
// annotations, outputs. Reads and validates every input once, here; the pipeline never reads inputs.
import * as core from "@actions/core";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseHostList } from "./cli-args.js";
import { parseDuration } from "./config/duration.js";
import { ConfigError } from "./config/errors.js";
import { runAbort } from "./abort.js";
import { pullRequestBase } from "./action-base.js";
import { releaseAllLocks } from "./deploy/index.js";
import { UsageError, type Command, type Options } from "./options.js";
import { runCommand } from "./pipeline.js";
import { annotationsOf } from "./report/annotations.js";
import { exitCodeOf, type Report } from "./report/finding.js";
import { renderJson } from "./report/json.js";
import { renderMarkdown } from "./report/markdown.js";
import { sanitizeValue } from "./report/sanitize.js";
import { renderTerminal } from "./report/terminal.js";

const ACTION_COMMANDS = ["preflight", "run", "verify", "rollback"] as const;

export function actionOptions(env: NodeJS.ProcessEnv = process.env): Options {
  const command = core.getInput("command") || "preflight";
  if (!(ACTION_COMMANDS as readonly string[]).includes(command)) throw new UsageError(`input command: "${command}" is not one of ${ACTION_COMMANDS.join(", ")}`);
  const lockWait = core.getInput("lock-wait");
  const lockWaitMs = lockWait ? parseDuration(lockWait) : 0;
  if (lockWaitMs === null) throw new UsageError(`input lock-wait: "${lockWait}" is not a duration such as 90s or 10m`);
  const sshKey = core.getInput("ssh-key");
  if (sshKey) {
    // Mask every line: GitHub masks line by line, and a key printed by a failing tool would leak otherwise.
    for (const line of sshKey.split(/\r?\n/)) if (line.trim()) core.setSecret(line.trim());
    env.DEPLOY_GATE_SSH_KEY = sshKey.endsWith("\n") ? sshKey : `${sshKey}\n`;
  }
  const hostKey = core.getInput("host-key") || null;
  if (hostKey && !/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(hostKey)) throw new UsageError('input host-key: expected an OpenSSH fingerprint "SHA256:..." (ssh-keygen -lf KEY)');
  return {
    command: command as Command,
    cwd: env.GITHUB_WORKSPACE ?? process.cwd(),
    config: core.getInput("config") || null,
    endpoint: core.getInput("endpoint") || null,
    ref: core.getInput("ref") || null,
    // on a pull request the PR's base commit, so a flag dropped in any of its commits is found
    base: core.getInput("base") || pullRequestBase(env),
    json: false,
    report: join(env.RUNNER_TEMP ?? process.cwd(), `deploy-gate-${command}-report.json`),
    summary: null,
    noColor: true,
    failOnWarn: (core.getInput("fail-on-warn") || "false") === "true",
    file: null,
    dryRun: (core.getInput("dry-run") || "false") === "true",
    lockWaitMs,
    skipPreflight: false,
    hostKey,
    knownHosts: core.getInput("known-hosts") || null,
    hosts: parseHostList(core.getInput("hosts") || undefined),
  };
}

export async function publish(report: Report, opts: Options): Promise<void> {
  writeFileSync(opts.report!, renderJson(report));
  core.info(renderTerminal(report, false));
  for (const a of annotationsOf(report)) {
    const props = { title: a.title, file: a.file, ...(a.startLine ? { startLine: a.startLine } : {}) };
    if (a.level === "error") core.error(a.message, props);
    else core.warning(a.message, props);
  }
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(renderMarkdown(report), true).write();
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
    core.setFailed(sanitizeValue(e instanceof ConfigError || e instanceof UsageError ? e.message : `deploy-gate internal error: ${(e as Error).stack}`));
  }
}

if (process.env.GITHUB_ACTIONS === "true" && !process.env.VITEST) {
  // A cancelled job sends SIGINT/SIGTERM: release the host lock before going.
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => (runAbort.abort(), releaseAllLocks()).finally(() => process.exit(1)));
  void runAction();
}
