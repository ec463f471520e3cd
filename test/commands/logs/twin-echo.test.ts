// logs --follow: a podman twin that arrives after the pause flush is an echo of the printed copy.
import { describe, expect, it } from "vitest";
import type { LogRecord } from "../../../src/domain/journal/record.js";
import { TwinEcho } from "../../../src/commands/logs/twin-echo.js";

const rec = (text: string, container: string | null): LogRecord => ({
  ts: 1,
  text,
  priority: 6,
  container,
  unit: "e.service",
  identifier: container ?? "podman",
});

describe("TwinEcho", () => {
  it("drops the other copy of a printed line once, in either order", () => {
    const e = new TwinEcho();
    expect(e.isEcho(rec("Started server process [1]", "ctr"))).toBe(false);
    expect(e.isEcho(rec("Started server process [1]", null))).toBe(true);
    expect(e.isEcho(rec("Waiting for application startup.", null))).toBe(false);
    expect(e.isEcho(rec("Waiting for application startup.", "ctr"))).toBe(true);
  });

  it("keeps a line the engine really prints again (from the same copy, or after its twin came)", () => {
    const e = new TwinEcho();
    expect(e.isEcho(rec("GET /health 200 OK", "ctr"))).toBe(false);
    expect(e.isEcho(rec("GET /health 200 OK", "ctr"))).toBe(false);
    expect(e.isEcho(rec("GET /health 200 OK", null))).toBe(true);
    expect(e.isEcho(rec("GET /health 200 OK", null))).toBe(false);
  });
});
