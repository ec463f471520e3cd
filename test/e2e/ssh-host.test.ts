// SshHost against the sandbox host's real OpenSSH server.
import { effectiveTarget, pinOverride } from "../../src/ports/host/target.js";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { HostError, SshHost } from "../../src/ports/host/ssh.js";
import type { Options } from "../../src/commands/options.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { connect } from "../../src/commands/shared/connect.js";
import { ed25519Pair } from "../helpers/ssh-keys.js";

async function refusal(p: Promise<unknown>): Promise<HostError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HostError);
  return e as HostError;
}

describe("SshHost on the sandbox host", () => {
  let host: SshHost;
  const s = inject("sandbox");
  beforeAll(async () => {
    if (s) host = await SshHost.connect(target(s));
  });
  afterAll(async () => {
    await host?.close();
  });

  it("keeps exit codes and separates stdout from stderr", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = await host.run(["sh", "-c", "echo out; echo err >&2; exit 7"]);
    expect(r).toMatchObject({
      code: 7,
      signal: null,
      stdout: "out\n",
      stderr: "err\n",
      timedOut: false,
      truncated: false,
    });
  });

  it("passes every argument through the remote shell unchanged", async (ctx) => {
    sandboxOrSkip(ctx);
    const args = ["a b", "it's", "$(touch /tmp/pwned)", "`id`", "*", "x\ny", "\\", '"q"', "", "-n", "é ü 🙂"];
    const r = await host.run(["printf", "%s\\0", ...args]);
    expect(r.stdout.split("\0").slice(0, -1)).toEqual(args);
    expect((await host.run(["test", "-e", "/tmp/pwned"])).code).toBe(1);
  });

  it("captures 4 MB of output whole, and caps it when asked", async (ctx) => {
    sandboxOrSkip(ctx);
    const big = await host.run(["sh", "-c", "yes abcdefg | head -c 4194304"]);
    expect(big.stdout.length).toBe(4 * 1024 * 1024);
    expect(big.truncated).toBe(false);
    const capped = await host.run(["sh", "-c", "yes abcdefg | head -c 4194304"], { maxOutputBytes: 1000 });
    expect(capped.stdout.length).toBe(1000);
    expect(capped.truncated).toBe(true);
    expect(capped.code).toBe(0);
  });

  it("kills the remote command when the timeout passes", async (ctx) => {
    sandboxOrSkip(ctx);
    const mark = fresh("/tmp/late");
    const r = await host.run(["sh", "-c", `sleep 4.321; touch ${mark}`], { timeoutMs: 800 });
    expect(r.timedOut).toBe(true);
    expect(r.code).toBeNull();
    expect(r.durationMs).toBeLessThan(3000);
    await new Promise((res) => setTimeout(res, 4500));
    expect((await host.run(["test", "-e", mark])).code).toBe(1);
  });

  it("writes a file atomically with its mode, and passes stdin", async (ctx) => {
    sandboxOrSkip(ctx);
    const path = `/tmp/${fresh("written")}.sh`;
    await host.writeFile(path, "#!/bin/sh\necho hi\n", 0o750);
    const r = await host.run(["stat", "-c", "%a %s", path]);
    expect(r.stdout.trim()).toBe("750 18");
    expect((await host.run(["ls", "/tmp"])).stdout).not.toMatch(/dg-tmp-/);
    expect((await host.run(["cat"], { stdin: "from stdin" })).stdout).toBe("from stdin");
    await expect(host.writeFile("/nonexistent-dir/x", "y", 0o644)).rejects.toThrow(
      /writing \/nonexistent-dir\/x .*failed \(exit \d+\).*nonexistent/,
    );
  });

  it("refuses to write onto a directory, says so, and leaves nothing inside it; binary bytes arrive whole", async (ctx) => {
    sandboxOrSkip(ctx);
    const dir = `/tmp/${fresh("dirtarget")}`;
    await host.run(["mkdir", "-p", dir]);
    try {
      await expect(host.writeFile(dir, "x", 0o644)).rejects.toThrow(/is a directory on the host/);
      expect((await host.run(["ls", "-A", dir])).stdout).toBe("");
      const bytes = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 13 + 1) % 256));
      await host.writeFile(`${dir}/blob.bin`, bytes, 0o644);
      const sum = await host.run(["sha256sum", `${dir}/blob.bin`]);
      expect(sum.stdout.split(" ")[0]).toBe(createHash("sha256").update(bytes).digest("hex"));
    } finally {
      await host.run(["rm", "-rf", dir]);
    }
  });

  it("streams a long-running command line by line", async (ctx) => {
    sandboxOrSkip(ctx);
    const seen: string[] = [];
    const r = await host.stream(
      ["sh", "-c", "for i in 1 2 3; do echo line$i; echo warn$i >&2; sleep 0.1; done; printf tail"],
      (l, st) => seen.push(`${st}:${l}`),
    );
    expect(seen.filter((l) => l.startsWith("stdout:"))).toEqual([
      "stdout:line1",
      "stdout:line2",
      "stdout:line3",
      "stdout:tail",
    ]);
    expect(seen.filter((l) => l.startsWith("stderr:"))).toEqual(["stderr:warn1", "stderr:warn2", "stderr:warn3"]);
    expect(r.code).toBe(0);
  });

  it("runs many commands at once over one connection", async (ctx) => {
    sandboxOrSkip(ctx);
    const before = host.roundTrips;
    const rs = await Promise.all(Array.from({ length: 24 }, (_, i) => host.run(["sh", "-c", `sleep 0.2; echo ${i}`])));
    expect(rs.map((r) => r.stdout.trim())).toEqual(Array.from({ length: 24 }, (_, i) => String(i)));
    expect(host.connections).toBe(1);
    expect(host.roundTrips - before).toBe(24);
  });

  it("reconnects when the connection drops between commands", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const h = await SshHost.connect(target(sb));
    try {
      expect((await h.run(["true"])).code).toBe(0);
      h.dropConnectionForTest();
      await new Promise((res) => setTimeout(res, 200));
      // Several commands at once after the drop share one new connection.
      const rs = await Promise.all([1, 2, 3, 4, 5].map((i) => h.run(["echo", `back${i}`])));
      expect(rs.map((r) => r.stdout)).toEqual(["back1\n", "back2\n", "back3\n", "back4\n", "back5\n"]);
      expect(h.connections).toBe(2);
    } finally {
      await h.close();
    }
  });

  it("refuses a host key that does not match the pin, naming both fingerprints", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const wrong = "SHA256:" + "A".repeat(43);
    const e = await refusal(SshHost.connect(target(sb, { knownHosts: undefined, hostKey: wrong })));
    expect(e.kind).toBe("host-key-mismatch");
    expect(e.message).toContain(wrong);
    expect(e.message).toContain(sb.hostKeyFingerprint);
  });

  it("refuses a key marked @revoked even when another line trusts it, from the config and from the Action's known-hosts input", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const line = sb.knownHosts.trim().split("\n")[0]!;
    const revoked = `${line}\n@revoked ${line}`;
    const e = await refusal(SshHost.connect(target(sb, { knownHosts: revoked })));
    expect(e.kind).toBe("host-key-mismatch");
    expect(e.message).toMatch(/@revoked/);
    // the Action's known-hosts input overrides the config's pin and goes through the same check
    const ep = { host: effectiveTarget(target(sb), pinOverride(revoked), "/") } as Parameters<typeof connect>[0];
    const viaAction = await connect(ep, { connectTimeoutMs: null } as Options, "/");
    expect(viaAction.host).toBeNull();
    expect(viaAction.finding).toMatchObject({ status: "fail", summary: expect.stringMatching(/@revoked/) });
  });

  it("refuses to connect with no pin and prints the exact line to add", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const e = await refusal(SshHost.connect(target(sb, { knownHosts: undefined })));
    expect(e.kind).toBe("no-pin");
    expect(e.message).toContain(sb.knownHosts);
    expect(e.message).toContain(sb.hostKeyFingerprint);
  });

  it("a knownHosts that holds no key for this host says so, not just 'no host key pinned'", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const e = await refusal(SshHost.connect(target(sb, { knownHosts: "junk\n# a comment" })));
    expect(e.kind).toBe("no-pin");
    expect(e.message).toContain(
      `knownHosts has 1 line(s), none a key for [${sb.address}]:${sb.sshPort}: each line is \`HOST KEYTYPE BASE64\``,
    );
  });

  it("accepts the pin as a SHA256 fingerprint and the key from DEPLOY_GATE_SSH_KEY", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const key = await readFile(sb.identityFile, "utf8");
    const h = await SshHost.connect(
      target(sb, { knownHosts: undefined, identityFile: undefined, hostKey: sb.hostKeyFingerprint }),
      { env: { DEPLOY_GATE_SSH_KEY: key } },
    );
    expect((await h.run(["id", "-u"])).stdout).toBe("0\n");
    expect(h.name).toBe(`root@${sb.address}:${sb.sshPort}`);
    await h.close();
  });

  it("names a refused key as an auth failure", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const other = ed25519Pair();
    const e = await refusal(SshHost.connect(target(sb, { identityFile: undefined }), { privateKey: other.private }));
    expect(e.kind).toBe("auth");
    expect(e.message).toMatch(/authorized_keys/);
  });

  it("names a closed port as unreachable", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    const e = await refusal(SshHost.connect(target(sb, { port: sb.sshPort + 1 })));
    expect(e.kind).toBe("unreachable");
  });

  it("reaches a host through a jump host", async (ctx) => {
    const sb = sandboxOrSkip(ctx);
    // Through the sandbox's sshd to its own loopback: the inner hop is pinned separately.
    const inner = target(sb, {
      address: "127.0.0.1",
      knownHosts: sb.knownHosts.replace(/^\S+/, `[127.0.0.1]:${sb.sshPort}`),
    });
    const h = await SshHost.connect(inner, { jump: { target: target(sb) } });
    expect((await h.run(["hostname"])).stdout.trim()).toBe("sandbox");
    await h.close();
  });
});
