// The one options object both entry points (CLI and action) build and the pipeline reads.
export const COMMANDS = ["preflight", "run", "verify", "rollback", "explain", "schema", "logs", "lock"] as const;
export type Command = (typeof COMMANDS)[number];

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
  /** explain: the file to diagnose, "-" for stdin */
  file: string | null;
  /** run/rollback: connect, take and release the lock, show what would change; change nothing */
  dryRun: boolean;
  /** how long to wait for a held host lock (0: fail at once, naming the holder) */
  lockWaitMs: number;
  /** run: deploy without preflight (to see what the host says about a change preflight refuses) */
  skipPreflight: boolean;
  /** overrides of the endpoint's host key pin (the action's host-key / known-hosts inputs) */
  hostKey: string | null;
  knownHosts: string | null;
  /** fleet endpoints: run on these hosts only (names from hosts:); absent or null = every host */
  hosts?: string[] | null;
  /** logs: which boot (current, previous, -N, N), the window (--since), stream (--follow) */
  boot?: string | null;
  since?: string | null;
  follow?: boolean;
  /** lock: status or release; --force releases a lock another run holds */
  lockAction?: "status" | "release";
  force?: boolean;
}

export class UsageError extends Error {}
