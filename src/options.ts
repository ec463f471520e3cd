// The one options object both entry points (CLI and action) build and the pipeline reads.
export const COMMANDS = ["preflight", "run", "verify", "rollback", "explain", "schema"] as const;
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
  noColor: boolean;
  failOnWarn: boolean;
  /** explain: the file to diagnose, "-" for stdin */
  file: string | null;
}

export class UsageError extends Error {}
