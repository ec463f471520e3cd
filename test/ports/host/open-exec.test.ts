// sshd's transient "Channel open failure" (a session not yet counted as closed) is retried; other errors are not.
// A scripted client stands in for ssh2 here because the race cannot be produced on demand against a real sshd.
import { EventEmitter } from "node:events";
import type { Client, ClientChannel } from "ssh2";
import { describe, expect, it } from "vitest";
import { openExec } from "../../../src/ports/host/exec.js";

function scripted(errors: (string | null)[]): { client: Client; calls: () => number } {
  let n = 0;
  const client = {
    exec(_cmd: string, cb: (err: Error | undefined, ch: ClientChannel) => void) {
      const e = errors[n++] ?? null;
      setImmediate(() => cb(e ? new Error(e) : undefined, new EventEmitter() as unknown as ClientChannel));
    },
  } as unknown as Client;
  return { client, calls: () => n };
}

describe("openExec", () => {
  it("retries a refused channel open and then succeeds", async () => {
    const s = scripted(["(SSH) Channel open failure: open failed", "(SSH) Channel open failure: open failed", null]);
    await expect(openExec(s.client, "true")).resolves.toBeDefined();
    expect(s.calls()).toBe(3);
  });
  it("gives up after six refusals with a HostError that names the cause", async () => {
    const s = scripted(Array(10).fill("(SSH) Channel open failure: open failed"));
    await expect(openExec(s.client, "true")).rejects.toThrow(
      /cannot start a command on the host: \(SSH\) Channel open failure/,
    );
    expect(s.calls()).toBe(6);
  });
  it("does not retry a dead connection", async () => {
    const s = scripted(["Not connected"]);
    await expect(openExec(s.client, "true")).rejects.toThrow(/Not connected/);
    expect(s.calls()).toBe(1);
  });
});
