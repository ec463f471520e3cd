// The `npm run sandbox` harness as a person uses it: status --json, the printed ssh command, a second up.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { up } from "../sandbox/machine.js";
import { sandboxOrSkip } from "./support/sandbox.js";

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ["--import", "tsx", "test/sandbox/cli.ts", ...args], { timeout: 60_000 });

describe("sandbox harness", () => {
  it("status --json prints the documented keys, matching the running machine", async (ctx) => {
    const s = sandboxOrSkip(ctx);
    const { hosts, ...out } = JSON.parse((await cli("status", "--json")).stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual([
      "address",
      "engineUrl",
      "hostKeyFingerprint",
      "identityFile",
      "image",
      "knownHosts",
      "sshPort",
      "user",
    ]);
    expect(out).toEqual(s);
    expect((hosts as unknown[])[0]).toEqual(s); // `hosts` lists every machine of `up --hosts N`, host 0 first
  });

  it("`ssh` reaches the machine with OpenSSH and the pinned key", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = await cli("ssh", "cat /etc/hostname; systemctl is-active ssh.service");
    expect(r.stdout).toBe("sandbox\nactive\n");
  });

  it("a second up reuses the running machine", async (ctx) => {
    const s = sandboxOrSkip(ctx);
    const t0 = Date.now();
    expect(await up()).toEqual(s);
    expect(Date.now() - t0).toBeLessThan(2000);
  });
});
