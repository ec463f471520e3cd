import { describe, expect, it } from "vitest";
import { deployChanged, lockLost, rollbackBlocked } from "../../../src/stages/deploy/rollback-guard.js";
import { fail, pass } from "../../../src/domain/report/finding.js";

describe("rollbackBlocked", () => {
  it("refuses a rollback when the deploy stopped at another run's lock: it changed nothing", () => {
    const held = [pass("deploy.connect", "ok"), fail("deploy.lock", "another deploy holds the lock")];
    expect(deployChanged(held)).toBe(false);
    expect(rollbackBlocked(held)).toMatch(/did not change the host/);
  });
  it("refuses a rollback when another run took the lock mid-deploy", () => {
    const lost = [
      pass("deploy.lock", "ok"),
      pass("deploy.install", "written"),
      fail("deploy.lock", "no longer holds the lock", { data: { lost: true } }),
    ];
    expect(lockLost(lost)).toBe(true);
    expect(rollbackBlocked(lost)).toMatch(/another run took the deploy lock/);
  });
  it("allows it once the deploy wrote files or restarted the unit", () => {
    expect(
      rollbackBlocked([pass("deploy.lock", "ok"), pass("deploy.install", "written"), fail("deploy.ready", "oom")]),
    ).toBeNull();
    expect(rollbackBlocked([pass("deploy.lock", "ok"), fail("deploy.install", "write failed")])).toBeNull();
  });
});
