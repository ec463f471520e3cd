// The local-process port: runs a program on the machine running the gate (bash -n, shellcheck).
// Never through a shell: argv goes straight to execve, so nothing in a path is interpreted.
import { spawn } from "node:child_process";
import { trace, tracing } from "../trace.js";

export interface LocalResult {
  code: number | null;
  stdout: string;
  /** stdout as bytes, for byte-counted protocols such as git cat-file --batch */
  stdoutBytes: Buffer;
  stderr: string;
  timedOut: boolean;
  /** set when the program could not be started at all (ENOENT: not installed) */
  spawnError: NodeJS.ErrnoException | null;
}

export function runLocal(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<LocalResult> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      ...(opts.env ? { env: opts.env } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let spawnError: NodeJS.ErrnoException | null = null;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, opts.timeoutMs ?? 30_000);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => (spawnError = e as NodeJS.ErrnoException));
    child.stdin.on("error", () => {}); // the program may exit before reading its input
    child.stdin.end(opts.input ?? "");
    child.on("close", (code) => {
      clearTimeout(timer);
      if (tracing()) trace(t0, `${cmd} ${args.join(" ").slice(0, 120)}`); // where preflight spends its time
      const bytes = Buffer.concat(out);
      resolve({
        code,
        stdout: bytes.toString("utf8"),
        stdoutBytes: bytes,
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
        spawnError,
      });
    });
  });
}
