// A Host that runs argv on this machine (the real curl, the real bash), as a peer would over SSH.
import type { Host, RunOptions, RunResult } from "../../src/ports/host/host.js";
import { runLocal } from "../../src/ports/local/run-local.js";

export const argvHost: Host = {
  name: "local",
  async run(argv: readonly string[], opts?: RunOptions): Promise<RunResult> {
    const r = await runLocal(argv[0]!, argv.slice(1), {
      input: opts?.stdin?.toString(),
      timeoutMs: opts?.timeoutMs ?? 10_000,
    });
    return {
      code: r.code,
      signal: null,
      stdout: r.stdout,
      stderr: r.stderr,
      timedOut: r.timedOut,
      truncated: false,
      durationMs: 0,
    };
  },
  runShell: () => Promise.reject(new Error("unused")),
  writeFile: () => Promise.reject(new Error("unused")),
  stream: () => Promise.reject(new Error("unused")),
  close: async () => {},
};
