// The Host port: what the deploy and verify stages need from a machine, independent of transport.

export interface RunOptions {
  /** Infinity: no timeout (only `logs --follow`, which ends on `signal` or on connection loss) */
  timeoutMs?: number;
  maxOutputBytes?: number;
  stdin?: string | Buffer;
  /** aborting kills the remote command and closes the channel; the result comes back as usual */
  signal?: AbortSignal;
}

export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
}

export interface Host {
  readonly name: string; // for reports, e.g. "root@10.77.0.2:2222"
  /** where the address and the pin came from when not deploy-gate.yml ("gpu1 in ~/.ssh/config; ...") */
  readonly origin?: string;
  run(argv: readonly string[], opts?: RunOptions): Promise<RunResult>; // argv quoted by shellQuote
  runShell(script: string, opts?: RunOptions): Promise<RunResult>; // a trusted, already-built `sh -c` script
  /** temp file + rename */
  writeFile(path: string, content: string | Buffer, mode: number, opts?: { timeoutMs?: number }): Promise<void>;
  stream(
    argv: readonly string[],
    onLine: (line: string, stream: "stdout" | "stderr") => void,
    opts?: RunOptions,
  ): Promise<RunResult>;
  close(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
