// On a dead link ssh2's channel-open request is never answered (until keepalive gives up): execOnce
// bounds it by the command's timeout. A scripted client stands in for ssh2: a link that swallows one
// request cannot be produced on demand against a real sshd without dropping the whole network.
import type { Client } from "ssh2";
import { describe, expect, it } from "vitest";
import { execOnce } from "../../../src/ports/host/exec.js";

describe("execOnce on a connection that never answers", () => {
  it("rejects with a timeout that says the connection may be dead, and closes a channel that opens late", async () => {
    let late: (() => void) | null = null;
    let closed = false;
    const client = {
      exec(_cmd: string, cb: (err: Error | undefined, ch: unknown) => void) {
        late = () =>
          cb(undefined, {
            on: () => {},
            stderr: { on: () => {} },
            close: () => {
              closed = true;
            },
          });
      },
    } as unknown as Client;
    await expect(execOnce(client, "true", { timeoutMs: 200 })).rejects.toThrow(
      /did not open a channel within 0.2s.*keepalive/,
    );
    late!();
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);
  });
});
