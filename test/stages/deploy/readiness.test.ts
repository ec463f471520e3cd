// The readiness decision: every fast-failure rule, the "new container only" rule, ready, timeout, progress.
import { describe, expect, it } from "vitest";
import {
  decide,
  initialState,
  progressLine,
  type Observation,
  type WaitState,
} from "../../../src/stages/deploy/readiness.js";
import type { ContainerState, UnitState } from "../../../src/stages/deploy/poll-parse.js";

const T0 = 1_795_992_000_000;
const running: UnitState = {
  activeState: "active",
  subState: "running",
  nRestarts: 0,
  result: "success",
  execMainStatus: 0,
  execMainCode: "0",
};
const box = (over: Partial<ContainerState> = {}): ContainerState => ({
  id: "3f2a1b".padEnd(64, "0"),
  state: "running",
  exitCode: 0,
  createdAtMs: T0 + 2000,
  ...over,
});
const obs = (over: Partial<Observation> = {}): Observation => ({
  hostNowMs: T0 + 5000,
  unit: running,
  container: box(),
  messages: [],
  models: null,
  ...over,
});
const ok200 = { status: 200, listsModel: true, error: null };
const start = () => initialState(T0, 60_000);

function after(...steps: Partial<Observation>[]): ReturnType<typeof decide> {
  let s: WaitState = start();
  let d = decide(s, obs(steps[0]));
  for (const o of steps.slice(1)) {
    s = d.state;
    d = decide(s, obs(o));
  }
  return d;
}

describe("decide: fast failure", () => {
  it.each([
    [
      "unit failed",
      { unit: { ...running, activeState: "failed", subState: "failed", result: "start-limit-hit" } },
      "unit-failed",
      /Result=start-limit-hit/,
    ],
    [
      "unit in auto-restart",
      { unit: { ...running, activeState: "activating", subState: "auto-restart" } },
      "restarting",
      /restarting/,
    ],
    ["NRestarts rising", { unit: { ...running, nRestarts: 1 } }, "restarting", /NRestarts rose from 0 to 1/],
    ["unit stopped", { unit: { ...running, activeState: "inactive", subState: "dead" } }, "unit-stopped", /inactive/],
    [
      "unit going down",
      { unit: { ...running, activeState: "deactivating", subState: "stop-post" } },
      "unit-stopped",
      /deactivating \(stop-post\)/,
    ],
    [
      "new container exited",
      { container: box({ state: "exited", exitCode: 1 }) },
      "container-exited",
      /exited \(exit code 1\)/,
    ],
  ] as const)("%s stops the wait at once", (_, o, failure, reason) => {
    const d = decide(start(), obs(o as Partial<Observation>));
    expect(d.kind).toBe("fail");
    if (d.kind === "fail") {
      expect(d.failure).toBe(failure);
      expect(d.reason).toMatch(reason);
    }
  });

  it("a new container that vanishes is gone; one replaced by a newer one means a restart", () => {
    const gone = after({}, { container: null });
    expect(gone).toMatchObject({ kind: "fail", failure: "container-gone" });
    const replaced = after({}, { container: box({ id: "9".repeat(64), createdAtMs: T0 + 9000 }) });
    expect(replaced).toMatchObject({ kind: "fail", failure: "restarting" });
  });

  it("no container yet (ExecStartPre still running) is not a failure", () => {
    expect(
      decide(start(), obs({ container: null, unit: { ...running, activeState: "activating", subState: "start-pre" } }))
        .kind,
    ).toBe("wait");
  });

  it("a baseline of restarts from before the deploy is not a rise", () => {
    expect(decide(initialState(T0, 60_000, 3), obs({ unit: { ...running, nRestarts: 3 } })).kind).toBe("wait");
  });
});

describe("decide: ready", () => {
  const marker = ["(APIServer pid=1) INFO:     Application startup complete."];
  it("needs the marker, a 200 listing the model and the new container", () => {
    expect(decide(start(), obs({ messages: marker, models: ok200 })).kind).toBe("ready");
    expect(
      decide(start(), obs({ messages: marker, models: { status: 200, listsModel: false, error: null } })).kind,
    ).toBe("wait");
    expect(
      decide(
        start(),
        obs({ messages: marker, models: { status: null, listsModel: false, error: "connection refused" } }),
      ).kind,
    ).toBe("wait");
    expect(decide(start(), obs({ messages: [], models: ok200 })).kind).toBe("wait");
  });

  it("llama-server: ready at its `server is listening on http://…` line, not at the early `HTTP server is listening` one", () => {
    const early = after({
      messages: [
        "main: HTTP server is listening, hostname: 0.0.0.0, port: 8080, http threads: 31",
        "srv    load_model: loading model '/models/a.gguf'",
      ],
      models: ok200,
    });
    expect(early.kind).toBe("wait");
    expect(early.state.phase).toBe("loading-weights");
    const d = after(
      { messages: ["main: HTTP server is listening, hostname: 0.0.0.0, port: 8080, http threads: 31"] },
      { messages: ["main: server is listening on http://0.0.0.0:8080 - starting the main loop"], models: ok200 },
    );
    expect(d.kind).toBe("ready");
    // the report quotes the line that counted
    expect(d.state.markerLine).toBe("main: server is listening on http://0.0.0.0:8080 - starting the main loop");
  });

  it("an old container answering (created before the deploy began) is never ready", () => {
    const d = decide(start(), obs({ container: box({ createdAtMs: T0 - 1 }), messages: marker, models: ok200 }));
    expect(d.kind).toBe("wait");
    expect(d.state.fresh).toBeNull();
  });

  it("remembers the marker and the phase across polls", () => {
    const d = after(
      {
        messages: [
          "(EngineCore_DP0 pid=75) INFO 11-29 22:41:52 [backends.py:41] Compiling a graph for dynamic shape takes 12.1 s",
        ],
      },
      { messages: marker },
      { models: ok200 },
    );
    expect(d.kind).toBe("ready");
    expect(d.state.phase).toBe("ready");
  });
});

describe("decide: timeout and progress", () => {
  it("times out on the host clock with the last phase", () => {
    const d = after(
      { messages: ["(EngineCore_DP0 pid=75) INFO Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%"] },
      { hostNowMs: T0 + 60_001 },
    );
    expect(d).toMatchObject({ kind: "fail", failure: "timeout" });
    if (d.kind === "fail")
      expect(d.reason).toBe("not ready within boot.timeout (1m00s); last phase: capturing CUDA graphs");
  });

  it("progress: elapsed, phase and the container's age", () => {
    const o = obs({
      hostNowMs: T0 + 95_000,
      container: box({ createdAtMs: T0 + 2000 }),
      messages: ["(EngineCore_DP0 pid=75) INFO Dynamo bytecode transform time: 9.1 s"],
    });
    const d = decide(start(), o);
    expect(progressLine("archon", d.state, o)).toBe(
      "[ 1m35s] archon: compiling (torch.compile) · container 3f2a1b created 1m33s ago",
    );
    const old = obs({ container: box({ createdAtMs: T0 - 50_000 }) });
    expect(progressLine("archon", decide(start(), old).state, old)).toMatch(/old container 3f2a1b still present/);
  });
});

describe("decide: the engine is up but the gate cannot see it", () => {
  const MARKER = "(APIServer pid=1) INFO:     Application startup complete.";
  const refused = { status: null, listsModel: false, error: "connection refused (nothing listens on that port yet)" };
  const at = (s: number) => T0 + 5000 + s * 1000;
  const run = (steps: Partial<Observation>[], container = "engine") => {
    let s: WaitState = start();
    let d = decide(s, obs(steps[0]), container);
    for (const o of steps.slice(1)) {
      s = d.state;
      d = decide(s, obs(o), container);
    }
    return d;
  };

  it("a URL that never answers after startup complete fails after 3 polls and 15 s, naming the wait", () => {
    const steps = [
      { hostNowMs: at(0), messages: [MARKER], models: refused },
      { hostNowMs: at(5), models: refused },
      { hostNowMs: at(10), models: refused },
    ];
    expect(run(steps).kind).toBe("wait"); // 10 s: too early
    const d = run([...steps, { hostNowMs: at(15), models: refused }]);
    expect(d).toMatchObject({ kind: "fail", failure: "url-unreachable" });
    expect(d.kind === "fail" && d.reason).toMatch(
      /startup complete 15s ago, but \/v1\/models has not answered since \(connection refused/,
    );
  });

  it("an answer in between starts the count again; a 200 is ready", () => {
    const d = run([
      { hostNowMs: at(0), messages: [MARKER], models: refused },
      { hostNowMs: at(5), models: refused },
      { hostNowMs: at(10), models: { status: 503, listsModel: false, error: null } },
      { hostNowMs: at(15), models: refused },
      { hostNowMs: at(20), models: refused },
    ]);
    expect(d.kind).toBe("wait");
    expect(
      run([
        { hostNowMs: at(0), messages: [MARKER], models: refused },
        { hostNowMs: at(5), models: ok200 },
      ]).kind,
    ).toBe("ready");
  });

  it("startup complete in a container of another name, none of the config's: container-mismatch naming both", () => {
    const other = { container: null, containerNames: ["engine-2"] };
    expect(
      run([
        { hostNowMs: at(0), messages: [MARKER], ...other },
        { hostNowMs: at(10), container: null },
      ]).kind,
    ).toBe("wait");
    const d = run([
      { hostNowMs: at(0), messages: [MARKER], ...other },
      { hostNowMs: at(10), container: null },
      { hostNowMs: at(16), container: null },
    ]);
    expect(d).toMatchObject({ kind: "fail", failure: "container-mismatch" });
    expect(d.kind === "fail" && d.reason).toMatch(/readiness in container engine-2, but container: says engine/);
  });

  it("startup complete in the config's container created before the deploy (restarted, not made anew): container-reused", () => {
    // podman-compose 1.0.3 up with no down first: `podman create` fails on the name, `podman start` runs the old one
    const old = { container: box({ createdAtMs: T0 - 60_000 }), containerNames: ["engine"] };
    expect(
      run([
        { hostNowMs: at(0), messages: [MARKER], ...old },
        { hostNowMs: at(10), ...old },
      ]).kind,
    ).toBe("wait");
    const d = run([
      { hostNowMs: at(0), messages: [MARKER], ...old },
      { hostNowMs: at(10), ...old },
      { hostNowMs: at(16), ...old },
    ]);
    expect(d).toMatchObject({ kind: "fail", failure: "container-reused" });
    expect(d.kind === "fail" && d.reason).toBe(
      "the engine reached readiness in container 3f2a1b000000, created 1m00s before this deploy began: the restart started the old container again instead of a new one",
    );
    // an old container that is not running (the new one not made yet) is no verdict
    const stopped = { container: box({ createdAtMs: T0 - 60_000, state: "exited" }) };
    expect(
      run([
        { hostNowMs: at(0), messages: [MARKER], ...stopped },
        { hostNowMs: at(10), ...stopped },
        { hostNowMs: at(16), ...stopped },
      ]).kind,
    ).toBe("wait");
  });

  it("the config's own container among the records is no mismatch", () => {
    const d = run([
      { hostNowMs: at(0), messages: [MARKER], containerNames: ["engine"], container: null },
      { hostNowMs: at(20), container: null },
    ]);
    expect(d.kind).toBe("wait");
  });
});
