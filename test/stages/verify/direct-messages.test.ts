// An engine the unit runs itself (no container): what verify and deploy say must fit that launch. An
// unreadable /proc/PID/environ is "not read" (never every knob missing), and no fix sends the user to a
// podman flag, `journalctl CONTAINER_NAME=<unit>` or a container that does not exist.
import { describe, expect, it } from "vitest";
import { decide, initialState, progressLine, type Observation } from "../../../src/stages/deploy/readiness.js";
import { readBootPlan } from "../../../src/stages/verify/plan.js";
import { checkArgv } from "../../../src/stages/verify/argv.js";
import { checkCompileCache } from "../../../src/stages/verify/compile-cache.js";
import { checkEnv } from "../../../src/stages/verify/env.js";
import { noAnswer } from "../../../src/stages/verify/models.js";
import { checkPlan } from "../../../src/stages/verify/plan.js";
import { checkPlanLines } from "../../../src/stages/verify/plan-lines.js";
import { parseFacts } from "../../../src/stages/verify/facts-parse.js";

const INV = "5f0c2d9e8b7a41c3a2e1f0d9c8b7a6e5";
const M = "@@dg-test";
const CONTAINERISH = /podman|docker| -e |CONTAINER_NAME|--log-driver|the container/;

/** the facts command's answer for a unit's run whose engine environ the SSH user may not read */
function unitRunAnswer(environB64: string): string {
  const argv = Buffer.from(
    ["/opt/venv/bin/python3", "/opt/venv/bin/vllm", "serve", "/m", "--port", "8000", ""].join("\0"),
  ).toString("base64");
  return [
    `${M}:now`,
    "1796126815000",
    `${M}:inspect`,
    `InvocationID=${INV}`,
    "MainPID=4242",
    "ExecMainStartTimestamp=Tue 2026-12-01 11:37:00.123456 UTC",
    "ActiveState=active",
    "SubState=running",
    `${M}:cmdline`,
    argv,
    `${M}:environ`,
    environB64,
    `${M}:journal`,
    "",
  ].join("\n");
}

describe("verify without a container: an unreadable engine environment", () => {
  it("is not read (null), not an empty environment; verify.env says so instead of listing every knob as missing", () => {
    const f = parseFacts(unitRunAnswer(""), M);
    expect(f.container).toMatchObject({ id: INV, running: true });
    expect(f.argv).not.toBeNull();
    expect(f.env).toBeNull();
    const e = checkEnv(f.env, ["VLLM_X"], null, "deploy/engine.service", true);
    expect(e).toMatchObject({ status: "fail", summary: "could not read the engine process's environment" });
    expect(e.fix).not.toMatch(CONTAINERISH);
    // a readable one is read as before
    const ok = parseFacts(unitRunAnswer(Buffer.from("VLLM_X=1\0").toString("base64")), M);
    expect(ok.env?.get("VLLM_X")).toBe("1");
  });
});

describe("verify's fixes for an engine the unit runs itself", () => {
  it("verify.env: a missing knob is set in the unit (Environment=/EnvironmentFile=), not with podman -e", () => {
    const f = checkEnv(new Map([["VLLM_X", "1"]]), ["VLLM_X", "VLLM_MISSING"], null, "deploy/engine.service", true);
    expect(f.status).toBe("fail");
    expect(f.summary).toBe("env knob missing in the engine's environment: VLLM_MISSING");
    expect(f.fix).toMatch(/Environment=/);
    expect(`${f.fix} ${f.evidence?.join(" ")}`).not.toMatch(CONTAINERISH);
    // the container's wording stays for a container
    expect(checkEnv(new Map(), ["K"], null, "s.sh").fix).toMatch(/-e K=\.\.\. to the podman run/);
  });

  it("verify.plan and verify.plan-lines: read the unit's journal (-u), not CONTAINER_NAME=<unit>", () => {
    const p = checkPlan(["(APIServer pid=1) INFO 01-01 00:00:00 [x.py:1] hello"], "dg.service", true);
    expect(p.status).toBe("fail");
    expect(p.fix).toMatch(/journalctl -u dg\.service -b/);
    expect(p.fix).not.toMatch(CONTAINERISH);
    expect(checkPlan([], "ctr").fix).toMatch(/CONTAINER_NAME=ctr/);
    const l = checkPlanLines([], [{ name: "slots", pattern: "slots ([0-9]+)", min: 1 }], "dg.service", true);
    expect(l.status).toBe("fail");
    expect(l.fix).toMatch(/journalctl -u dg\.service -b/);
    expect(l.fix).not.toMatch(/CONTAINER_NAME/);
  });

  it("verify.argv: an unreadable command line names the engine process, not podman exec", () => {
    const f = checkArgv({
      argv: null,
      contracts: [],
      script: null,
      scriptPath: "deploy/engine.service",
      ref: "main",
      journal: [],
      direct: true,
    });
    expect(f.status).toBe("fail");
    expect(f.fix).not.toMatch(CONTAINERISH);
  });

  it("verify.models: no answer does not tell a containerless endpoint to publish a port with podman run -p only", () => {
    const f = noAnswer(
      "verify.models",
      "/v1/models",
      { status: null, body: "", headers: {}, error: "connection refused", durationMs: 3 } as never,
      "http://h:8000",
      "runner",
    );
    expect(f.fix).toMatch(/--host/);
  });

  it("verify.compile-cache: a cold compile is not blamed on a container recreate or a missing podman mount", () => {
    const cold = readBootPlan([
      "(EngineCore_DP0 pid=75) INFO 10-05 10:01:02 [backends.py:215] Compiling a graph for compile range (1, 8192) takes 173.04 s",
      "(EngineCore_DP0 pid=75) INFO 10-05 10:01:09 [monitor.py:34] torch.compile took 181.20 s in total",
    ]);
    const f = checkCompileCache({
      ...cold,
      earlierBoots: 0,
      script: null,
      scriptPath: "deploy/engine.service",
      env: new Map(),
      direct: true,
    });
    expect(f.status).toBe("pass");
    expect(`${f.summary} ${f.fix ?? ""}`).not.toMatch(/container recreate|podman/);
  });
});

describe("deploy's progress line", () => {
  it("a run of this deploy that died at once (auto-restart) is this deploy's, not one from before it", () => {
    const t0 = 1_000_000;
    const obs: Observation = {
      hostNowMs: t0 + 500,
      unit: {
        activeState: "activating",
        subState: "auto-restart",
        nRestarts: 0,
        result: "exit-code",
        execMainStatus: 2,
        execMainCode: "exited",
      },
      container: { id: INV, process: true, state: "exited", exitCode: 2, createdAtMs: t0 + 100 },
      messages: [],
      models: null,
    };
    const d = decide(initialState(t0, 60_000), obs);
    expect(d.kind).toBe("fail");
    const line = progressLine("dg", d.state, obs);
    expect(line).not.toMatch(/from before this deploy/);
    expect(line).toMatch(/unit run 5f0c2d started 0s ago \(exited\)/);
  });
});
