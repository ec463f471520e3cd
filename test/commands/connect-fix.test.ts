// A refused connection's fix names what set the value: the Action's input when an input set it, the
// config's key otherwise. A real refused port on loopback.
import { describe, expect, it } from "vitest";
import type { Options } from "../../src/commands/options.js";
import { connect, type HostEndpoint } from "../../src/commands/shared/connect.js";
import { closedPort } from "../helpers/closed-port.js";
import { ed25519Pair } from "../helpers/ssh-keys.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "dg-connfix-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keyFile = join(dir, "key");
writeFileSync(keyFile, ed25519Pair().private, { mode: 0o600 });

const opts = (hostOverride: Options["hostOverride"]) =>
  ({ command: "run", connectTimeoutMs: 5000, hostOverride }) as unknown as Options;

async function refusedFix(override: Options["hostOverride"]): Promise<string> {
  const port = await closedPort();
  const ep = {
    host: { address: "127.0.0.1", port, user: "u", hostKey: `SHA256:${"A".repeat(43)}`, identityFile: keyFile },
  } as unknown as HostEndpoint;
  const { host, finding } = await connect(ep, opts(override), "/");
  expect(host).toBeNull();
  return finding.fix ?? "";
}

describe("connect's fix names what set the value", () => {
  it("the host and port inputs when the Action's inputs gave them", async () => {
    expect(await refusedFix({ address: "127.0.0.1", port: 1 })).toMatch(/the action's host and port inputs/);
  });
  it("the config's host.address and host.port otherwise", async () => {
    const fix = await refusedFix(null);
    expect(fix).toMatch(/host\.address and host\.port/);
    expect(fix).not.toMatch(/input/);
  });
});
