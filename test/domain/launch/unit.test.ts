import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  execCommands,
  parseTimeSpan,
  parseUnit,
  timeoutStartSec,
  timeoutStopSec,
  unitEntries,
  unitValue,
} from "../../../src/domain/launch/unit.js";

const archon = readFileSync(join(import.meta.dirname, "../../fixtures/launch/units/frank-archon.service"), "utf8");

describe("parseUnit", () => {
  it("reads sections and keys with their lines", () => {
    const u = parseUnit(archon);
    expect(u.sections.map((s) => s.name)).toEqual(["Unit", "Service", "Install"]);
    const burst = unitValue(u, "Unit", "StartLimitBurst")!;
    expect(burst.value).toBe("5");
    expect(archon.split("\n")[burst.line - 1]).toBe("StartLimitBurst=5");
    expect(unitValue(u, "Service", "StartLimitBurst")).toBeNull();
  });

  it("keeps repeated keys in order and joins backslash continuations, skipping comment lines", () => {
    const u = parseUnit(`[Service]
Environment=A=1
Environment=B=2
# a comment
ExecStart=/usr/bin/podman run --rm \\
  --name eng \\
# the device line
  --device /dev/dri img
`);
    expect(unitEntries(u, "Service", "Environment").map((e) => [e.value, e.line])).toEqual([
      ["A=1", 2],
      ["B=2", 3],
    ]);
    const exec = unitValue(u, "Service", "ExecStart")!;
    expect(exec).toMatchObject({
      value: "/usr/bin/podman run --rm --name eng --device /dev/dri img",
      line: 5,
      endLine: 8,
    });
  });

  it("strips Exec prefixes and honours an empty assignment resetting the list", () => {
    const u = parseUnit(
      "[Service]\nExecStartPre=-/usr/bin/podman rm -f eng\nExecStartPre=\nExecStartPre=@/bin/true x\n",
    );
    expect(execCommands(u, "ExecStartPre").map((e) => e.value)).toEqual(["/bin/true x"]);
  });
});

describe("systemd time spans", () => {
  it.each([
    ["90", 90],
    ["90s", 90],
    ["5min", 300],
    ["2min 30s", 150],
    ["1h30m", 5400],
    ["1h 2min 3s", 3723],
    ["500ms", 0.5],
    ["infinity", Infinity],
    ["2 min", 120],
    ["1d", 86400],
  ])("%s is %d seconds", (text, seconds) => {
    expect(parseTimeSpan(text)).toBe(seconds);
  });

  it.each(["", "fast", "5 parsecs", "min"])("rejects %j", (text) => {
    expect(parseTimeSpan(text)).toBeNull();
  });

  it("reads TimeoutStopSec/TimeoutStartSec, with TimeoutSec= for both and the 90 s default", () => {
    expect(timeoutStopSec(parseUnit(archon)).seconds).toBe(150);
    expect(timeoutStartSec(parseUnit(archon)).seconds).toBe(25 * 60);
    const none = parseUnit("[Service]\nExecStart=/x\n");
    expect(timeoutStopSec(none)).toEqual({ seconds: 90, entry: null });
    const both = parseUnit("[Service]\nTimeoutStopSec=30\nTimeoutSec=10min\n");
    expect(timeoutStopSec(both).seconds).toBe(600);
    expect(timeoutStartSec(both).seconds).toBe(600);
    expect(timeoutStartSec(parseUnit("[Service]\nTimeoutStartSec=0\n")).seconds).toBe(Infinity);
  });
});
