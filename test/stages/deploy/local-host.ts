// A Host that runs real `sh -c` on this machine in a directory standing in for the SSH user's home.
import { spawn } from "node:child_process";
import type { Host, RunOptions, RunResult } from "../../../src/ports/host/host.js";
import { shellJoin, shellQuote } from "../../../src/lib/shell-quote.js";

export class LocalHost implements Host {
  readonly name = "tester@localhost:2222";
  constructor(readonly home: string) {}

  run(argv: readonly string[], opts?: RunOptions): Promise<RunResult> {
    return this.runShell(shellJoin(argv), opts);
  }

  runShell(script: string, opts: RunOptions = {}): Promise<RunResult> {
    const started = Date.now();
    return new Promise((resolve) => {
      const child = spawn("sh", ["-c", script], { cwd: this.home, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "",
        stderr = "",
        timedOut = false;
      const t = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, opts.timeoutMs ?? 60_000);
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
      child.on("close", (code, signal) => {
        clearTimeout(t);
        resolve({ code, signal, stdout, stderr, timedOut, truncated: false, durationMs: Date.now() - started });
      });
      child.stdin.on("error", () => {}); // a command that never reads its input may exit first: EPIPE is not a failure
      child.stdin.end(opts.stdin ?? "");
    });
  }

  async writeFile(path: string, content: string | Buffer, mode: number): Promise<void> {
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(16).slice(2)}`;
    const r = await this.runShell(
      `cat > ${shellQuote(tmp)} && chmod ${mode.toString(8)} ${shellQuote(tmp)} && mv -f ${shellQuote(tmp)} ${shellQuote(path)}`,
      { stdin: content },
    );
    if (r.code !== 0) throw new Error(`writing ${path} failed: ${r.stderr}`);
  }

  stream(): Promise<RunResult> {
    throw new Error("not used by the deploy stage");
  }

  async close(): Promise<void> {}
}
