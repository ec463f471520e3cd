// SSH the way the user already has it: a Host alias in ~/.ssh/config, a hashed known_hosts line as the pin,
// keys from ssh-agent (IdentitiesOnly respected), ProxyJump. Real ssh-keygen, ssh-keyscan and ssh-agent
// against in-process SSH peers on loopback; HOME is a temporary directory, never the real ~/.ssh.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server as SshServer, utils } from "ssh2";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { HostError, SshHost } from "../../../src/ports/host/ssh.js";
import { until } from "../../helpers/until.js";
import { forwardTcpip } from "../../helpers/ssh-forward.js";

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), "dg-home-"));
const ssh = join(home, ".ssh");
mkdirSync(ssh, { mode: 0o700 });
const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A key pair made by the real ssh-keygen (OpenSSH format, as users have them). */
function keygen(name: string, passphrase = ""): { file: string; pub: Buffer } {
  const file = join(ssh, name);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", file]);
  const k = utils.parseKey(readFileSync(`${file}.pub`, "utf8"));
  if (k instanceof Error) throw k;
  return { file, pub: (Array.isArray(k) ? k[0] : k).getPublicSSH() };
}

interface Peer {
  port: number;
  users: string[];
  offered: Buffer[];
}

/** An SSH server on loopback that accepts only `allowed` (signature checked), recording who and what was offered. */
async function peer(allowed: Buffer, hostKeyPem?: string): Promise<Peer & { hostKey: string }> {
  const hostKey = hostKeyPem ?? readFileSync(keygen(`host-${Math.random().toString(36).slice(2)}`).file, "utf8");
  const p: Peer = { port: 0, users: [], offered: [] };
  const srv = new SshServer({ hostKeys: [hostKey] }, (client) => {
    client.on("error", () => {});
    client.on("authentication", (ctx) => {
      p.users.push(ctx.username);
      if (ctx.method !== "publickey") return ctx.reject(["publickey"]);
      p.offered.push(ctx.key.data);
      if (!ctx.key.data.equals(allowed)) return ctx.reject(["publickey"]);
      if (!ctx.signature) return ctx.accept();
      const k = utils.parseKey(
        Buffer.concat([Buffer.from(`${ctx.key.algo} `), Buffer.from(allowed.toString("base64"))]),
      );
      if (k instanceof Error) return ctx.reject();
      return (Array.isArray(k) ? k[0] : k).verify(ctx.blob!, ctx.signature, ctx.hashAlgo) ? ctx.accept() : ctx.reject();
    });
    forwardTcpip(client);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  closers.push(() => srv.close());
  p.port = (srv.address() as { port: number }).port;
  return Object.assign(p, { hostKey });
}

/** known_hosts lines as the real ssh-keyscan reads them from the peer (async: the peer runs in this process). */
async function scan(port: number): Promise<string> {
  return (await run("ssh-keyscan", ["-p", String(port), "-t", "ed25519", "127.0.0.1"], { timeout: 30_000 })).stdout;
}

/** ... hashed by the real ssh-keygen -H. */
async function scanHashed(port: number): Promise<string> {
  const lines = await scan(port);
  const f = join(home, `kh-${port}`);
  writeFileSync(f, lines);
  execFileSync("ssh-keygen", ["-H", "-f", f], { stdio: "ignore" });
  return readFileSync(f, "utf8");
}

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HOME: home, ...extra });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as HostError,
  );

describe("~/.ssh/config and known_hosts", () => {
  it("connects to a Host alias: HostName, Port, User and IdentityFile from the config, pinned by a hashed known_hosts line", async () => {
    const k = keygen("alias_key");
    const s = await peer(k.pub);
    writeFileSync(
      join(ssh, "config"),
      `Host gpu-a\n  HostName 127.0.0.1\n  Port ${s.port}\n  User dank\n  IdentityFile ~/.ssh/alias_key\nHost *\n  User nobody\n`,
    );
    const hashed = await scanHashed(s.port);
    expect(hashed).toMatch(/^\|1\|/);
    writeFileSync(join(ssh, "known_hosts"), hashed);
    const h = await SshHost.connect({ address: "gpu-a", port: 22 } as never, { env: env(), timeoutMs: 15_000 });
    await h.close();
    expect(s.users.at(-1)).toBe("dank");
    expect(h.name).toBe(`dank@127.0.0.1:${s.port}`);
    expect(h.origin).toBe("gpu-a in ~/.ssh/config; host key pinned by known_hosts");
  });

  it("an unknown key fails closed with the ssh-keyscan and fingerprint commands; a changed one with ssh-keygen -R", async () => {
    const k = keygen("alias_key2");
    const s = await peer(k.pub);
    writeFileSync(
      join(ssh, "config"),
      `Host gpu-b\n  HostName 127.0.0.1\n  Port ${s.port}\n  IdentityFile ~/.ssh/alias_key2\n`,
    );
    writeFileSync(join(ssh, "known_hosts"), "");
    const unknown = await failure(SshHost.connect({ address: "gpu-b", port: 22 } as never, { env: env() }));
    expect(unknown).toBeInstanceOf(HostError);
    expect(unknown!.kind).toBe("no-pin");
    const kh = join(ssh, "known_hosts");
    expect(unknown!.fix).toContain(`ssh-keyscan -p ${s.port} 127.0.0.1 | ssh-keygen -lf -`);
    expect(unknown!.fix).toContain(`ssh-keyscan -p ${s.port} 127.0.0.1 >> ${kh}`);
    // another machine's key under this name: refused, with how to replace it once verified
    const other = await peer(k.pub);
    const line = (await scan(other.port)).replace(`[127.0.0.1]:${other.port}`, `[127.0.0.1]:${s.port}`); // ...claimed for this one
    writeFileSync(kh, line);
    const changed = await failure(SshHost.connect({ address: "gpu-b", port: 22 } as never, { env: env() }));
    expect(changed!.kind).toBe("host-key-mismatch");
    expect(changed!.fix).toContain(`ssh-keygen -R '[127.0.0.1]:${s.port}' -f ${kh}`);
    // @revoked refuses the key even beside a line that trusts it
    const trusted = await scanHashed(s.port);
    writeFileSync(kh, trusted + trusted.replace(/^/, "@revoked "));
    const revoked = await failure(SshHost.connect({ address: "gpu-b", port: 22 } as never, { env: env() }));
    expect(revoked!.kind).toBe("host-key-mismatch");
    expect(revoked!.message).toMatch(/@revoked/);
  });

  it("follows ProxyJump to a jump host resolved through the same config and pinned by the same known_hosts", async () => {
    const k = keygen("jump_key");
    const target = await peer(k.pub);
    const jump = await peer(k.pub);
    writeFileSync(
      join(ssh, "config"),
      `Host gpu-c\n  HostName 127.0.0.1\n  Port ${target.port}\n  ProxyJump hopper@bastion\n  IdentityFile ~/.ssh/jump_key\nHost bastion\n  HostName 127.0.0.1\n  Port ${jump.port}\n  IdentityFile ~/.ssh/jump_key\n`,
    );
    writeFileSync(join(ssh, "known_hosts"), (await scanHashed(target.port)) + (await scanHashed(jump.port)));
    const h = await SshHost.connect({ address: "gpu-c", port: 22, user: "dank" }, { env: env(), timeoutMs: 15_000 });
    await h.close();
    expect(jump.users).toContain("hopper");
    expect(target.users).toContain("dank");
  });
});

describe("ssh-agent", () => {
  let agent: ChildProcess | null = null;
  afterAll(() => agent?.kill()); // the agent this test started, by its process

  async function startAgent(): Promise<string> {
    const sock = join(home, "agent.sock");
    agent = spawn("ssh-agent", ["-D", "-a", sock], { stdio: "ignore" });
    expect(
      await until(() => {
        try {
          execFileSync("ssh-add", ["-l"], { env: { SSH_AUTH_SOCK: sock }, stdio: "ignore" });
          return true;
        } catch (e) {
          return (e as { status?: number }).status === 1; // 1: no identities yet, the agent answers
        }
      }),
    ).toBe(true);
    return sock;
  }

  it("authenticates with the agent's key when no key file is named; IdentitiesOnly offers only the named key", async () => {
    const sock = await startAgent();
    writeFileSync(join(home, "askpass"), "#!/bin/sh\necho secret-pass\n", { mode: 0o700 });
    const a = keygen("agent_a");
    const b = keygen("agent_b", "secret-pass"); // encrypted: usable only through the agent
    chmodSync(a.file, 0o600);
    execFileSync("ssh-add", ["-q", a.file], { env: { SSH_AUTH_SOCK: sock }, stdio: "ignore" });
    execFileSync("ssh-add", ["-q", b.file], {
      env: { SSH_AUTH_SOCK: sock, SSH_ASKPASS: join(home, "askpass"), SSH_ASKPASS_REQUIRE: "force", DISPLAY: "x" },
      stdio: "ignore",
    });
    // only the agent holds a: no IdentityFile, no default key file
    const s1 = await peer(a.pub);
    writeFileSync(join(ssh, "config"), `Host agent-a\n  HostName 127.0.0.1\n  Port ${s1.port}\n  User dank\n`);
    writeFileSync(join(ssh, "known_hosts"), await scanHashed(s1.port));
    for (const f of ["id_ed25519", "id_ecdsa", "id_rsa"]) rmSync(join(ssh, f), { force: true });
    const moved = { a: `${a.file}.away` };
    execFileSync("mv", [a.file, moved.a]);
    const h = await SshHost.connect({ address: "agent-a", port: 22 } as never, { env: env({ SSH_AUTH_SOCK: sock }) });
    await h.close();
    // IdentitiesOnly: the server takes only b; a (first in the agent) is never offered
    const s2 = await peer(b.pub);
    writeFileSync(
      join(ssh, "config"),
      `Host agent-b\n  HostName 127.0.0.1\n  Port ${s2.port}\n  User dank\n  IdentitiesOnly yes\n  IdentityFile ~/.ssh/agent_b\n`,
    );
    writeFileSync(join(ssh, "known_hosts"), await scanHashed(s2.port));
    const h2 = await SshHost.connect({ address: "agent-b", port: 22 } as never, { env: env({ SSH_AUTH_SOCK: sock }) });
    await h2.close();
    expect(s2.offered.some((o) => o.equals(a.pub))).toBe(false);
    expect(s2.offered.some((o) => o.equals(b.pub))).toBe(true);
  });
});
