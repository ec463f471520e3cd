// A fast command's exit status must not be lost. ssh2 parses a whole TCP read at once, so the exec
// reply, exit-status and close of a fast command can all be emitted in one tick, before code that
// awaits the channel runs. A scripted client stands in for ssh2: the ordering cannot be forced on a real sshd.
import { EventEmitter } from "node:events";
import type { Client, ClientChannel } from "ssh2";
import { describe, expect, it } from "vitest";
import { execOnce } from "../../../src/ports/host/exec.js";

function channel(): ClientChannel {
  const ch = new EventEmitter() as EventEmitter & Record<string, unknown>;
  ch.stderr = new EventEmitter();
  ch.end = () => undefined;
  return ch as unknown as ClientChannel;
}

/** The exec reply, then (in the same tick) what the host sent right after it. */
function fastClient(after: (ch: ClientChannel) => void): Client {
  return {
    exec(_cmd: string, cb: (err: Error | undefined, ch: ClientChannel) => void) {
      const ch = channel();
      setImmediate(() => {
        cb(undefined, ch);
        after(ch);
      });
    },
  } as unknown as Client;
}

describe("execOnce exit status", () => {
  it("keeps an exit status sent in the same tick as the exec reply", async () => {
    const client = fastClient((ch) => {
      ch.stderr.emit("data", Buffer.from("deploy-gate-pid=42\n"));
      ch.emit("data", Buffer.from("TAKEN\n"));
      ch.emit("exit", 3);
      setImmediate(() => ch.emit("close"));
    });
    const r = await execOnce(client, "true", { timeoutMs: 10_000 });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("TAKEN\n");
  });

  it("falls back to the status the channel's close carries when no exit event was seen", async () => {
    const client = fastClient((ch) => setImmediate(() => ch.emit("close", 0)));
    const r = await execOnce(client, "true", { timeoutMs: 10_000 });
    expect(r.code).toBe(0);
    const sig = await execOnce(
      fastClient((ch) => setImmediate(() => ch.emit("close", null, "SIGTERM"))),
      "true",
      { timeoutMs: 10_000 },
    );
    expect(sig).toMatchObject({ code: null, signal: "SIGTERM" });
  });

  it("a close in the same tick as the exec reply still ends the command", async () => {
    const client = fastClient((ch) => {
      ch.emit("exit", 0);
      ch.emit("close", 0);
    });
    const r = await execOnce(client, "true", { timeoutMs: 5_000 });
    expect(r).toMatchObject({ code: 0, timedOut: false });
  });
});
