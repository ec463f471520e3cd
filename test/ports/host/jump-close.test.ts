// A connect through a jump host that fails at the target (its key is not the pin, or it refuses the SSH
// key) closes the jump connection too: one left open keeps the CLI and the Action from ever exiting.
import { spawn } from "node:child_process";
import { Server as SshServer, utils } from "ssh2";
import { afterEach, describe, expect, it } from "vitest";
import { fingerprint } from "../../../src/ports/host/hostkey.js";
import { HostError, SshHost } from "../../../src/ports/host/ssh.js";
import { ed25519Pair } from "../../helpers/ssh-keys.js";
import { until } from "../../helpers/until.js";
import { forwardTcpip } from "../../helpers/ssh-forward.js";

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

const pinOf = (pub: string) => {
  const k = utils.parseKey(pub);
  if (k instanceof Error) throw k;
  return fingerprint(k.getPublicSSH());
};

async function listen(srv: SshServer): Promise<number> {
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  closers.push(() => srv.close());
  return (srv.address() as { port: number }).port;
}

/** A jump host that forwards tcpip channels, counting its clients that are still connected. */
async function forwardingJump(): Promise<{ port: number; hostKey: string; open: () => number }> {
  const key = ed25519Pair();
  let open = 0;
  const srv = new SshServer({ hostKeys: [key.private] }, (client) => {
    open++;
    client.on("close", () => open--);
    client.on("error", () => {});
    client.on("authentication", (ctx) => ctx.accept());
    forwardTcpip(client);
  });
  return { port: await listen(srv), hostKey: pinOf(key.public), open: () => open };
}

/** An SSH server at the target: it accepts any key, or refuses every one. */
async function target(auth: "accept" | "refuse"): Promise<{ port: number; hostKey: string }> {
  const key = ed25519Pair();
  const srv = new SshServer({ hostKeys: [key.private] }, (client) => {
    client.on("error", () => {});
    client.on("authentication", (ctx) => (auth === "accept" ? ctx.accept() : ctx.reject()));
    client.on("ready", () => client.end());
  });
  return { port: await listen(srv), hostKey: pinOf(key.public) };
}

describe("a jump host whose target fails", () => {
  it.each([
    ["its host key is not the pin", "accept", "host-key-mismatch"],
    ["it refuses the SSH key", "refuse", "auth"],
  ] as const)("closes the jump connection when the target fails: %s", async (_why, auth, kind) => {
    const jump = await forwardingJump();
    const t = await target(auth);
    const key = ed25519Pair().private;
    // the target's pin: another key for the mismatch case, its own for the refused key
    const pin = auth === "accept" ? pinOf(ed25519Pair().public) : t.hostKey;
    const e = await SshHost.connect(
      { address: "127.0.0.1", port: t.port, user: "t", hostKey: pin },
      {
        privateKey: key,
        timeoutMs: 15_000,
        jump: { privateKey: key, target: { address: "127.0.0.1", port: jump.port, user: "j", hostKey: jump.hostKey } },
      },
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(HostError);
    expect((e as HostError).kind).toBe(kind);
    expect(await until(() => jump.open() === 0), "the jump connection is still open").toBe(true);
  });
});

describe("a process whose connect failed behind a jump host", () => {
  it("exits on its own once the failure is reported", async () => {
    const jump = await forwardingJump();
    const t = await target("refuse");
    const key = ed25519Pair().private;
    const ssh = new URL("../../../src/ports/host/ssh.ts", import.meta.url).href;
    const opts = {
      target: { address: "127.0.0.1", port: t.port, user: "t", hostKey: t.hostKey },
      jump: { privateKey: key, target: { address: "127.0.0.1", port: jump.port, user: "j", hostKey: jump.hostKey } },
    };
    // the child prints its verdict and returns: nothing may keep its event loop alive after that
    const code = `const { SshHost } = await import(${JSON.stringify(ssh)}); const o = JSON.parse(process.env.O);
      await SshHost.connect(o.target, { privateKey: o.jump.privateKey, timeoutMs: 15000, jump: o.jump })
        .then(() => console.log("connected"), (e) => console.log("failed: " + e.kind));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      env: { ...process.env, O: JSON.stringify(opts) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    const deadline = new Promise<"held">((r) => setTimeout(() => r("held"), 40_000).unref());
    const result = await Promise.race([exited, deadline]);
    if (result === "held") child.kill("SIGKILL");
    expect(out).toContain("failed: auth");
    expect(result, "the process was still running 40 s after its connect failed").toBe(0);
  }, 60_000);
});
