// SshHost connection failures against real sockets on loopback: plain-words errors, no raw ssh2 text.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HostError, SshHost } from "../../../src/ports/host/ssh.js";
import { ed25519Pair } from "../../helpers/ssh-keys.js";

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(onConn: (s: Socket) => void): Promise<number> {
  const srv = createServer((s) => {
    sockets.push(s);
    onConn(s);
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return (srv.address() as { port: number }).port;
}

const key = ed25519Pair().private;
const tgt = (port: number) => ({ address: "127.0.0.1", port, user: "root", hostKey: `SHA256:${"A".repeat(43)}` });

async function failure(p: Promise<unknown>): Promise<HostError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HostError);
  return e as HostError;
}

describe("SshHost.connect failures", () => {
  it("says timed out when the server accepts but never speaks SSH", async () => {
    const port = await listen(() => {});
    const e = await failure(SshHost.connect(tgt(port), { privateKey: key, timeoutMs: 400 }));
    expect(e.kind).toBe("timeout");
    expect(e.message).toMatch(/timed out after 0.4s: check the address and port/);
  });

  it("says unreachable when nothing listens", async () => {
    const port = await listen(() => {});
    await new Promise((r) => servers.pop()!.close(r));
    const e = await failure(SshHost.connect(tgt(port), { privateKey: key, timeoutMs: 2000 }));
    expect(e.kind).toBe("unreachable");
    expect(e.message).toContain(`root@127.0.0.1:${port}`);
  });

  it("says the connection closed when the server hangs up during the handshake", async () => {
    const port = await listen((s) => s.end("SSH-2.0-Fake\r\n"));
    const e = await failure(SshHost.connect(tgt(port), { privateKey: key, timeoutMs: 2000 }));
    expect(["closed", "unreachable"]).toContain(e.kind);
    expect(e.message).not.toMatch(/^Error:/);
  });

  it("says the port does not speak SSH when an HTTP server answers there (host.port set to the engine's)", async () => {
    const port = await listen((s) =>
      s.once("data", () => s.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")),
    );
    const e = await failure(SshHost.connect(tgt(port), { privateKey: key, timeoutMs: 5000 }));
    expect(e.message, e.message).toMatch(/answered, but not as an SSH server .*host\.port must be sshd's port/);
  });

  it("asks for the passphrase of an encrypted key, and uses DEPLOY_GATE_SSH_PASSPHRASE", async () => {
    const encrypted = ed25519Pair({
      passphrase: "open sesame",
      cipher: "aes256-cbc",
    } as never).private;
    const none = await failure(SshHost.connect(tgt(22), { privateKey: encrypted, env: {} }));
    expect(none.kind).toBe("auth");
    expect(none.message).toMatch(/encrypted and no passphrase was given; set DEPLOY_GATE_SSH_PASSPHRASE/);
    // With the passphrase the key is read and the connection gets as far as the (silent) server.
    const port = await listen(() => {});
    const ok = await failure(
      SshHost.connect(tgt(port), {
        privateKey: encrypted,
        timeoutMs: 400,
        env: { DEPLOY_GATE_SSH_PASSPHRASE: "open sesame" },
      }),
    );
    expect(ok.kind).toBe("timeout");
  });

  it("asks for a key when neither identityFile nor DEPLOY_GATE_SSH_KEY is set", async () => {
    const e = await failure(SshHost.connect(tgt(22), { env: {} }));
    expect(e.kind).toBe("auth");
    expect(e.message).toMatch(/set identityFile in deploy-gate.yml or the env secret DEPLOY_GATE_SSH_KEY/);
  });

  it("names an unreadable identityFile", async () => {
    const e = await failure(SshHost.connect({ ...tgt(22), identityFile: "/nonexistent/key" }, { env: {} }));
    expect(e.message).toMatch(/cannot read identityFile \/nonexistent\/key/);
  });
});
