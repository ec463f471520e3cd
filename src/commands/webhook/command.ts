// `deploy-gate webhook --listen ADDR`: the Flagger webhook server until SIGINT/SIGTERM (the entry's
// shutdown aborts the run). The config gives the endpoints and their contracts; no repository, no SSH.
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { DEFAULT_CONFIG, loadConfig } from "../../domain/config/load.js";
import { runAbort } from "../shared/lifecycle.js";
import { UsageError, type Io, type Options } from "../options.js";
import { startWebhook } from "./server.js";

/** verifies at once: each holds a few connections to an engine; more would load the canary it judges */
export const WEBHOOK_LIMIT = 4;
export const WEBHOOK_DEADLINE_MS = 120_000;

export async function webhookCommand(opts: Options, io: Io, signal: AbortSignal = runAbort.signal): Promise<number> {
  if (!opts.listen) throw new UsageError("webhook needs --listen HOST:PORT (e.g. --listen :8080)");
  const file = opts.config
    ? isAbsolute(opts.config)
      ? opts.config
      : join(opts.cwd, opts.config)
    : join(opts.cwd, DEFAULT_CONFIG);
  if (!existsSync(file))
    throw new UsageError(`webhook needs the endpoints' config: ${file} does not exist (pass --config FILE)`);
  const config = loadConfig(file);
  const namespaces = opts.namespaces ?? null;
  const bad = namespaces?.find((n) => !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(n));
  if (bad !== undefined) throw new UsageError(`--namespaces: "${bad}" is not a Kubernetes namespace name`);
  let hook;
  try {
    hook = await startWebhook({
      config,
      listen: opts.listen,
      env: io.env,
      limit: WEBHOOK_LIMIT,
      deadlineMs: opts.deadlineMs ?? WEBHOOK_DEADLINE_MS,
      namespaces,
      log: (line) => io.err(`${line}\n`),
    });
  } catch (e) {
    const m = (e as Error).message;
    throw new UsageError(
      m.includes("--namespaces") ? `webhook: ${m}` : `webhook: cannot listen on ${opts.listen}: ${m}`,
    );
  }
  io.err(`deploy-gate webhook: listening on ${hook.url} (${Object.keys(config.endpoints).join(", ")})\n`);
  if (!signal.aborted) await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
  await hook.close();
  return 0;
}
