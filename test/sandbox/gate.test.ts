import { describe, expect, it } from "vitest";
import { e2eDecision, hostProblem } from "./gate.js";

describe("e2e gate", () => {
  it("names why a machine cannot host the sandbox", () => {
    expect(hostProblem("darwin", 0, null)).toMatch(/needs Linux \(this is darwin\)/);
    expect(hostProblem("linux", 1000, null)).toMatch(/needs root/);
    expect(hostProblem("linux", 0, "debootstrap")).toMatch(
      /debootstrap is not installed \(apt-get install -y debootstrap systemd-container openssh-client\)/,
    );
    expect(hostProblem("linux", 0, null)).toBeNull();
  });

  it("skips with the reason, and fails instead when DEPLOY_GATE_E2E=required", () => {
    expect(e2eDecision(null, "required")).toEqual({ run: true });
    expect(e2eDecision("needs root", undefined)).toEqual({ run: false, skip: "sandbox host unavailable: needs root" });
    expect(e2eDecision("needs root", "required")).toEqual({
      run: false,
      fail: "DEPLOY_GATE_E2E=required, but the sandbox host cannot run here: needs root",
    });
  });
});
