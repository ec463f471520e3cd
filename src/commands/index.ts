// The one dispatch: which verb runs which command. Report verbs (preflight, run, verify, rollback) return
// a Report for the entry to print; the others write through io and return their exit code.
import type { Report } from "../domain/report/finding.js";
import { maskKnown } from "../domain/redact/known.js";
import { sanitizeLine } from "../domain/report/sanitize.js";
import { completionScript, type Shell } from "./completion.js";
import { explainCommand } from "./explain/explain.js";
import { runInit } from "./init/init.js";
import { lockCommand } from "./lock.js";
import { webhookCommand } from "./webhook/command.js";
import { logsHandler } from "./logs/logs.js";
import { UsageError, type Command, type Io, type Options } from "./options.js";
import { preflightFindings } from "./preflight.js";
import { runEndpoint } from "./run.js";
import { configJsonSchema } from "./schema.js";
import { resolveRef } from "./shared/refs.js";
import { buildReport } from "./shared/report.js";
import { openWorkspace } from "./shared/workspace.js";
import { httpTarget, verifyOverHttpReport } from "./verify-http.js";

export type Handler = (opts: Options, io: Io) => Promise<number>;

/** Verbs that print their own output; every other verb is a report verb (runCommand). */
export const HANDLERS: Partial<Record<Command, Handler>> = {
  explain: explainCommand,
  completion: async (opts, io) => (io.out(completionScript(opts.file as Shell)), 0),
  schema: async (_opts, io) => (io.out(JSON.stringify(configJsonSchema(), null, 2) + "\n"), 0),
  init: async (opts, io) => runInit(opts, io),
  logs: logsHandler,
  lock: async (opts, io) => lockCommand(opts, io),
  webhook: webhookCommand,
};

/**
 * preflight, run, verify, rollback: the stages in order, then the report. env is the entry's environment
 * (read once, in the workspace); host text reaches every output through here: progress lines now, the
 * report in one sanitize pass at the end.
 */
export async function runCommand(
  opts: Options,
  progress: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = {},
  now: () => number = Date.now,
): Promise<Report> {
  const started = now();
  // an endpoint that is a URL alone needs neither a repository nor SSH
  const overHttp = opts.command === "verify" ? httpTarget(opts) : null;
  if (overHttp) return verifyOverHttpReport(opts, overHttp, env, (line) => progress(sanitizeLine(line)), now);
  const ws = await openWorkspace(opts, env);
  const say = (line: string) => progress(sanitizeLine(maskKnown(line, ws.secrets)));
  const ref = { name: opts.ref ?? "HEAD", sha: opts.ref ? await resolveRef(ws, opts.ref, "--ref ") : ws.head };
  switch (opts.command) {
    case "preflight":
      return buildReport(ws, opts, {
        findings: await preflightFindings(ws, opts, null),
        ref,
        durationMs: now() - started,
      });
    case "run":
    case "rollback":
    case "verify": {
      const r = await runEndpoint(ws, opts, say);
      const shown = r.ref === null ? ref : { name: r.ref, sha: r.sha };
      return buildReport(ws, opts, {
        findings: r.findings,
        ref: shown,
        ...(r.fleet ? { fleet: r.fleet } : {}),
        durationMs: now() - started,
      });
    }
    default:
      throw new UsageError(`\`${opts.command}\` is not a report command: it prints its own output`);
  }
}
