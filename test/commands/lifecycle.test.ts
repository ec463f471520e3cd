// Waits between polls must not leave an abort listener behind: a long boot polls hundreds of times.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { sleepUnlessAborted } from "../../src/lib/sleep.js";

describe("sleepUnlessAborted", () => {
  it("removes its abort listener after each wait, and wakes at once on abort", async () => {
    const ctl = new AbortController();
    for (let i = 0; i < 30; i++) await sleepUnlessAborted(1, ctl.signal);
    expect(getEventListeners(ctl.signal, "abort")).toHaveLength(0);
    const t0 = Date.now();
    const pending = sleepUnlessAborted(60_000, ctl.signal);
    ctl.abort();
    await pending;
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(getEventListeners(ctl.signal, "abort")).toHaveLength(0);
  });
});
