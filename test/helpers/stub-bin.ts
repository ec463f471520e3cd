// Stand-in host tools for tests that run real sh on a remote command: a temp bin dir of `#!/bin/sh`
// scripts (each printing a real tool's output form), and sh run with only that dir before the system's.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** A stub-bin factory whose dirs are removed after each test of the calling file. */
export function stubBins(prefix: string): (tools: Record<string, string>) => string {
  let dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    dirs = [];
  });
  return (tools) => {
    const home = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(home);
    const b = join(home, "bin");
    mkdirSync(b);
    for (const [name, body] of Object.entries(tools)) {
      writeFileSync(join(b, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(b, name), 0o755);
    }
    return b;
  };
}

/** Runs a script under sh with the stub dir first on PATH. */
export const shWith = (script: string, bin: string) =>
  execFileSync("sh", ["-c", script], { encoding: "utf8", env: { PATH: `${bin}:/usr/bin:/bin` } });
