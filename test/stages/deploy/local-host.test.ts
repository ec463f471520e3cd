// The test Host must survive a command that exits without reading its input: the pipe then breaks (EPIPE),
// which once surfaced as an uncaught error in whichever test file was running.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalHost } from "./local-host.js";

describe("LocalHost", () => {
  it("returns the exit code of a command that never reads a large stdin", async () => {
    const host = new LocalHost(mkdtempSync(join(tmpdir(), "dg-localhost-")));
    const big = Buffer.alloc(8 * 1024 * 1024, 0x61);
    for (let i = 0; i < 5; i++) {
      const r = await host.runShell("exit 3", { stdin: big });
      expect(r.code).toBe(3);
    }
  });
});
