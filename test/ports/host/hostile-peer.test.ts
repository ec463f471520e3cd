// What the other end of an SSH connection says before any host key is checked (a DISCONNECT reason) and
// what a host prints (journalctl's stderr, a journal field) is host text: `logs` and `lock` print it
// sanitized, as every report does. And a jump host that never answers a channel open cannot hold a
// connect past its timeout.
import { createServer, type Server, type Socket } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { Server as SshServer, utils } from "ssh2";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { fingerprint } from "../../../src/ports/host/hostkey.js";
import { HostError, SshHost } from "../../../src/ports/host/ssh.js";
import { logsRequest, printBoot } from "../../../src/commands/logs/logs.js";
import type { Host } from "../../../src/ports/host/host.js";
import { ed25519Pair } from "../../helpers/ssh-keys.js";

const ESCAPES = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[1;31mhost key verified\x1b[0m\n::add-mask::x";
const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

/**
 * An SSH "server" (or a man in the middle) that sends its banner, then SSH_MSG_DISCONNECT with `desc`: no key exchange.
 */
async function disconnecting(desc: string): Promise<number> {
  const str = (b: Buffer) => {
    const l = Buffer.alloc(4);
    l.writeUInt32BE(b.length);
    return Buffer.concat([l, b]);
  };
  const reason = Buffer.alloc(4);
  reason.writeUInt32BE(2);
  const payload = Buffer.concat([Buffer.from([1]), reason, str(Buffer.from(desc)), str(Buffer.alloc(0))]);
  let pad = 8 - ((5 + payload.length) % 8);
  if (pad < 4) pad += 8;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(1 + payload.length + pad);
  const packet = Buffer.concat([len, Buffer.from([pad]), payload, Buffer.alloc(pad)]);
  const sockets: Socket[] = [];
  const srv: Server = createServer((s) => {
    sockets.push(s);
    s.on("error", () => {});
    s.write("SSH-2.0-OpenSSH_9.2\r\n");
    s.once("data", () => s.write(packet));
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  closers.push(() => {
    sockets.forEach((s) => s.destroy());
    srv.close();
  });
  return (srv.address() as { port: number }).port;
}

function repoWithHostAt(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), "dg-hostile-"));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir });
  writeFileSync(join(dir, "serve.sh"), "#!/bin/bash\nvllm serve qwen\n");
  writeFileSync(
    join(dir, "deploy-gate.yml"),
    `version: 1\nendpoints:\n  a:\n    script: serve.sh\n    service: llm.service\n    container: llm\n    host: { address: 127.0.0.1, port: ${port}, user: root, hostKey: "SHA256:${"A".repeat(43)}" }\n`,
  );
  return dir;
}

describe("host text in logs and lock", () => {
  it("an SSH disconnect reason cannot drive the terminal or start a line with :: (logs, lock status)", async () => {
    const cwd = repoWithHostAt(await disconnecting(`bye${ESCAPES}`));
    const saved = process.env.DEPLOY_GATE_SSH_KEY;
    process.env.DEPLOY_GATE_SSH_KEY = ed25519Pair().private;
    try {
      for (const argv of [
        ["logs", "--connect-timeout", "5s"],
        ["lock", "status", "--connect-timeout", "5s"],
      ]) {
        let err = "";
        const code = await main(argv, { out: (s) => (err += s), err: (s) => (err += s), isTTY: false, env: {}, cwd });
        expect(code, err).toBe(1);
        expect(err).toContain("host key verified");
        expect(err).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
        expect(err).not.toMatch(/^\s*::/m);
      }
    } finally {
      if (saved === undefined) delete process.env.DEPLOY_GATE_SSH_KEY;
      else process.env.DEPLOY_GATE_SSH_KEY = saved;
    }
  });

  it("journalctl's stderr and a journal record's CONTAINER_NAME are printed sanitized", async () => {
    const recs = [
      {
        __REALTIME_TIMESTAMP: "1764500000000000",
        _SYSTEMD_UNIT: "llm.service",
        UNIT: "llm.service",
        SYSLOG_IDENTIFIER: "systemd",
        MESSAGE: "Starting llm.service...",
      },
      {
        __REALTIME_TIMESTAMP: "1764500001000000",
        _SYSTEMD_UNIT: "llm.service",
        CONTAINER_NAME: `llm${ESCAPES}`,
        CONTAINER_ID_FULL: "a".repeat(64),
        SYSLOG_IDENTIFIER: "conmon",
        PRIORITY: "6",
        MESSAGE: "INFO hello",
      },
    ];
    const host = {
      name: "h",
      async stream(_argv: readonly string[], onLine: (l: string, s: "stdout" | "stderr") => void) {
        for (const r of recs) onLine(JSON.stringify(r), "stdout");
        return {
          code: 1,
          signal: null,
          stdout: "",
          stderr: `Failed to parse${ESCAPES}\n`,
          timedOut: false,
          truncated: false,
          durationMs: 1,
        };
      },
    } as unknown as Host;
    let out = "";
    const code = await printBoot(
      host,
      logsRequest({ boot: "current", since: null, follow: false, json: false }, "a", "llm.service", "llm"),
      { out: (s) => (out += s), err: (s) => (out += s), colour: false },
    );
    expect(code).toBe(0);
    expect(out).toContain("container llm");
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(out).not.toMatch(/^\s*::/m);
  });
});

describe("channel opens that are never answered", () => {
  /** A pinned SSH server that authenticates anyone and never answers a direct-tcpip request. */
  async function silentJump(): Promise<{ port: number; hostKey: string }> {
    const key = ed25519Pair();
    const srv = new SshServer({ hostKeys: [key.private] }, (client) => {
      client.on("authentication", (ctx) => ctx.accept());
      client.on("tcpip", () => {
        /* neither accept nor reject */
      });
      client.on("error", () => {});
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    closers.push(() => srv.close());
    const pub = utils.parseKey(key.public);
    if (pub instanceof Error) throw pub;
    return { port: (srv.address() as { port: number }).port, hostKey: fingerprint(pub.getPublicSSH()) };
  }

  it("a jump host that never opens the tunnel fails the connect within its timeout", async () => {
    const jump = await silentJump();
    const key = ed25519Pair().private;
    const t0 = Date.now();
    const e = await SshHost.connect(
      { address: "10.9.9.9", port: 22, user: "root", hostKey: `SHA256:${"A".repeat(43)}` },
      {
        privateKey: key,
        timeoutMs: 800,
        jump: { privateKey: key, target: { address: "127.0.0.1", port: jump.port, user: "j", hostKey: jump.hostKey } },
      },
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(HostError);
    expect((e as HostError).kind).toBe("timeout");
    expect((e as HostError).message).toMatch(/jump host did not open a connection to root@10\.9\.9\.9:22 within 0\.8s/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("forwardOut (verify's tunnel) gives up within its timeout", async () => {
    const jump = await silentJump();
    const host = await SshHost.connect(
      { address: "127.0.0.1", port: jump.port, user: "j", hostKey: jump.hostKey },
      { privateKey: ed25519Pair().private, timeoutMs: 5000 },
    );
    closers.push(() => void host.close());
    const e = await host.forwardOut("10.9.9.9", 8000, 500).then(
      () => null,
      (err: unknown) => err,
    );
    expect((e as HostError).kind).toBe("timeout");
  });
});

describe("a host with keys of several types", () => {
  async function server(keys: string[]): Promise<number> {
    const srv = new SshServer({ hostKeys: keys }, (client) => {
      client.on("authentication", (ctx) => ctx.accept());
      client.on("ready", () => client.end());
      client.on("error", () => {});
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    closers.push(() => srv.close());
    return (srv.address() as { port: number }).port;
  }
  const ed = ed25519Pair();
  const rsa = utils.generateKeyPairSync("rsa", { bits: 2048 });
  const blob = (pub: string) => {
    const k = utils.parseKey(pub);
    if (k instanceof Error) throw k;
    return k.getPublicSSH();
  };
  const client = ed25519Pair().private;

  it("connects when knownHosts pins its RSA key (the type asked for is the pinned one, as OpenSSH does)", async () => {
    const port = await server([rsa.private, ed.private]);
    const host = await SshHost.connect(
      {
        address: "127.0.0.1",
        port,
        user: "u",
        knownHosts: `[127.0.0.1]:${port} ssh-rsa ${blob(rsa.public).toString("base64")}`,
      },
      { privateKey: client, timeoutMs: 5000 },
    );
    await host.close();
  });

  it("refuses, as a mismatch naming the type, a host that has no key of the pinned type", async () => {
    const port = await server([ed.private]);
    const e = await SshHost.connect(
      {
        address: "127.0.0.1",
        port,
        user: "u",
        knownHosts: `[127.0.0.1]:${port} ssh-rsa ${blob(rsa.public).toString("base64")}`,
      },
      { privateKey: client, timeoutMs: 5000 },
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect((e as HostError).kind).toBe("host-key-mismatch");
    expect((e as HostError).message).toMatch(/offers no ssh-rsa key/);
  });

  it("a fingerprint pin of the RSA key is refused with the offered key's type named", async () => {
    const port = await server([rsa.private, ed.private]);
    const e = await SshHost.connect(
      { address: "127.0.0.1", port, user: "u", hostKey: fingerprint(blob(rsa.public)) },
      { privateKey: client, timeoutMs: 5000 },
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect((e as HostError).kind).toBe("host-key-mismatch");
    expect((e as HostError).message).toMatch(/it offered its ssh-ed25519 key SHA256:/);
  });
});
