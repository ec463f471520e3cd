// The restart's commands and the count read after it (the shell itself runs for real in test/e2e/deploy.test.ts).
import { describe, expect, it } from "vitest";
import { parseRestartCount, restartCommands, restartScript } from "../../../src/stages/deploy/restart.js";

describe("the restart", () => {
  it("resets the failed state (and the count) before the restart, after a daemon-reload", () => {
    expect(restartCommands("e.service", true).map((c) => c.join(" "))).toEqual([
      "systemctl daemon-reload",
      "systemctl reset-failed -- e.service",
      "systemctl restart -- e.service",
    ]);
    expect(restartCommands("e.service", false).map((c) => c.join(" "))).toEqual([
      "systemctl reset-failed -- e.service",
      "systemctl restart -- e.service",
    ]);
  });

  it("reads NRestarts in the same shell right after the restart, and exits with the restart's code", () => {
    expect(restartScript(["systemctl", "restart", "--", "e.service"], "e.service")).toBe(
      "systemctl restart -- e.service; rc=$?; printf '%s' @@dg-nrestarts=; systemctl show -p NRestarts --value -- e.service; exit $rc",
    );
  });

  it("takes the count after the marker, or none", () => {
    expect(parseRestartCount("@@dg-nrestarts=2\n")).toBe(2);
    expect(parseRestartCount("@@dg-nrestarts=\n")).toBeNull();
    expect(parseRestartCount("")).toBeNull();
  });
});
