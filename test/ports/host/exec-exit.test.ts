// A fast command's exit status is never lost: an SSH server (ssh2's, on loopback) that answers each exec
// with its output, exit status, EOF and close in one burst, as sshd does for `cat` or `test -e` under load.
import type { AddressInfo } from "node:net";
import ssh2 from "ssh2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprint } from "../../../src/ports/host/hostkey.js";
import { SshHost } from "../../../src/ports/host/ssh.js";
import { ed25519Pair } from "../../helpers/ssh-keys.js";

const { Server, utils } = ssh2;
const hostKey = ed25519Pair();
const clientKey = ed25519Pair().private;
let server: InstanceType<typeof Server>;
let port = 0;

beforeAll(async () => {
  server = new Server({ hostKeys: [hostKey.private] }, (conn) => {
    conn.on("authentication", (ctx) => ctx.accept());
    conn.on("ready", () =>
      conn.on("session", (accept) => {
        accept().on("exec", (acceptExec, _reject, info) => {
          const ch = acceptExec();
          // Everything at once, in the same tick as the exec's success.
          const code = /exit (\d+)/.exec(info.command)?.[1];
          ch.write("out\n");
          ch.exit(Number(code ?? 0));
          ch.end();
        });
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("exec exit status", () => {
  it("is kept when it arrives together with the exec's success, one at a time and many at once", async () => {
    const pub = utils.parseKey(hostKey.public) as { getPublicSSH(): Buffer };
    const host = await SshHost.connect(
      { address: "127.0.0.1", port, user: "t", hostKey: fingerprint(pub.getPublicSSH()) },
      { privateKey: clientKey },
    );
    try {
      for (let i = 0; i < 20; i++) expect((await host.run(["sh", "-c", `exit ${i % 3}`])).code).toBe(i % 3);
      const many = await Promise.all(Array.from({ length: 30 }, (_, i) => host.run(["sh", "-c", `exit ${i % 4}`])));
      expect(many.map((r) => r.code)).toEqual(Array.from({ length: 30 }, (_, i) => i % 4));
      expect(many.every((r) => r.stdout === "out\n")).toBe(true);
    } finally {
      await host.close();
    }
  });
});
