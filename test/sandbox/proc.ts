// Runs outer-machine commands for the harness with a timeout; output is captured, never inherited.
import { execFile } from "node:child_process";

export interface ProcResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function sh(
  file: string,
  args: readonly string[],
  opts: { timeoutMs?: number; input?: string; allowFail?: boolean } = {},
): Promise<ProcResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024, killSignal: "SIGKILL" },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        if (code !== 0 && !opts.allowFail) {
          reject(
            new Error(
              `${file} ${args.join(" ")} failed (${err?.killed ? "timed out" : `exit ${code}`}): ${String(stderr).trim().slice(-2000)}`,
            ),
          );
          return;
        }
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    child.stdin?.on("error", () => {}); // the program may exit before reading its input (EPIPE)
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

export async function exists(file: string): Promise<boolean> {
  const { access } = await import("node:fs/promises");
  return access(file).then(
    () => true,
    () => false,
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
