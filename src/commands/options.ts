// The one options object both entry points (CLI and action) build and the pipeline reads.
import type { Command } from "./spec.js";
import type { HostOverride } from "../ports/host/target.js";
import { useColour } from "../domain/report/terminal.js";

export { COMMANDS, type Command } from "./spec.js";

export interface Options {
  command: Command;
  cwd: string;
  /** explicit --config; null = deploy-gate.yml in the repository root if present, else discovery */
  config: string | null;
  endpoint: string | null;
  ref: string | null;
  base: string | null;
  json: boolean;
  report: string | null;
  /** also write the markdown job summary (what the action puts on the job page) to this file */
  summary: string | null;
  noColor: boolean;
  failOnWarn: boolean;
  /** explain: the file to diagnose, "-" for stdin; completion: the shell */
  file: string | null;
  /** run/rollback: connect, take and release the lock, show what would change; change nothing */
  dryRun: boolean;
  /** how long to wait for a held host lock (0: fail at once, naming the holder) */
  lockWaitMs: number;
  /** run: deploy without preflight (to see what the host says about a change preflight refuses) */
  skipPreflight: boolean;
  /** overrides of the endpoint's host from outside the config (the action's host, port, user, host-key,
   *  known-hosts and jump-host inputs), so hosts and pins can live in secrets */
  hostOverride: HostOverride | null;
  /** SSH handshake deadline; null: 20 s */
  connectTimeoutMs: number | null;
  /** the terminal report shows only the verdict and the failures */
  quiet: boolean;
  /** verify over HTTP alone at this URL (no SSH), and the model it must serve */
  url?: string | null;
  model?: string | null;
  /** verify: the kubernetes: endpoint's pods, instead of its selector; when the rollout began (epoch ms) */
  selector?: string | null;
  rolloutStartMs?: number | null;
  /** webhook: where it listens, and its deadline per call */
  listen?: string | null;
  deadlineMs?: number | null;
  /** webhook: the namespaces whose canaries it judges; null: any (refused when the config fills {namespace}) */
  namespaces?: string[] | null;
  /** -v: every command run, timed, on stderr (the trace) */
  verbose?: boolean;
  /** fleet endpoints: run on these hosts only (names from hosts:); absent or null = every host */
  hosts?: string[] | null;
  /** logs: which boot (current, previous, -N, N), the window (--since), stream (--follow) */
  boot?: string | null;
  since?: string | null;
  follow?: boolean;
  /** logs: the last N lines shown (-n), only lines matching (--grep) */
  lines?: string | null;
  grep?: string | null;
  /** lock: status, release, or acquire (a hold by hand, -m why); --force releases a lock another run holds */
  lockAction?: "status" | "release" | "acquire";
  message?: string;
  force?: boolean;
  /** init: commit the config it wrote */
  commit?: boolean;
}

import { UsageError } from "../lib/usage-error.js";

export { UsageError };

/** --hosts a,b -> ["a", "b"]; absent -> null. */
export function parseHostList(v: string | undefined): string[] | null {
  if (v === undefined) return null;
  const names = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!names.length || names.some((n) => !/^[A-Za-z0-9*?[\]][A-Za-z0-9_.:*?[\]-]*$/.test(n)))
    throw new UsageError(
      `--hosts "${v}": expected host names from the endpoint's hosts: or globs, comma-separated (e.g. --hosts gpu-a,gpu-b or --hosts 'gpu*')`,
    );
  return [...new Set(names)];
}

/** What the entry hands a verb that prints its own output: its streams, terminal, environment and cwd. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Colour on a terminal unless --no-color or NO_COLOR says otherwise. */
export const colourOf = (opts: Options, io: Io): boolean =>
  useColour({ noColor: opts.noColor, isTTY: io.isTTY, env: io.env });

/** --url: an http(s) URL with no user or password in it (argv is visible to every user of the machine). */
export function parseUrl(v: string | undefined): string | null {
  if (v === undefined) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`--url: expected http(s)://HOST:PORT, the endpoint as clients reach it`);
  }
  if (u.username || u.password)
    throw new UsageError("--url must not carry a user or password: put the endpoint's API key in DEPLOY_GATE_API_KEY");
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new UsageError(`--url: expected an http:// or https:// URL, got ${u.protocol}//`);
  return u.toString().replace(/\/+$/, "");
}

/** --rollout-start: ISO 8601, @EPOCH seconds, or a duration before now (15m). */
export function parseInstant(
  v: string | undefined,
  now: number,
  duration: (s: string) => number | null,
): number | null {
  if (v === undefined) return null;
  const t = v.trim();
  const ago = /^\d/.test(t) && !/^\d{4}-/.test(t) ? duration(t) : null;
  if (ago !== null) return now - ago;
  if (/^@\d{1,12}$/.test(t)) return Number(t.slice(1)) * 1000;
  const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t) ? Date.parse(t) : NaN;
  if (Number.isFinite(at)) return at;
  throw new UsageError(
    `--rollout-start "${t.slice(0, 40)}": expected an ISO 8601 time with its zone (2026-12-03T02:40:00Z), @EPOCH, or a duration ago (15m)`,
  );
}
