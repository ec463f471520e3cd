// An engine the unit runs without a container: the unit's current run (InvocationID, start, main process)
// stands for the container in deploy's poll and verify's facts. Real sh against stand-ins printing
// systemctl's own output forms; the engine process is a real one whose /proc this test reads.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shWith, stubBins } from "../../helpers/stub-bin.js";
import { pollScript } from "../../../src/stages/deploy/poll-command.js";
import { parseInstance, parsePoll } from "../../../src/stages/deploy/poll-parse.js";
import { runsDirect } from "../../../src/domain/launch/container-cli.js";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { checkContainer } from "../../../src/stages/verify/container.js";
import { buildFactsScript } from "../../../src/stages/verify/facts-script.js";
import { liveFlags } from "../../../src/stages/verify/live-argv.js";
import { parseFacts } from "../../../src/stages/verify/facts-parse.js";

const INV = "5f0c2d9e8b7a41c3a2e1f0d9c8b7a6e5";
const STARTED = "Tue 2026-12-01 11:37:00.123456 UTC";
const STARTED_MS = Date.UTC(2026, 11, 1, 11, 37, 0, 123) + 0.456; // systemd gives microseconds
const bin = stubBins("dg-unitrun-");
const sh = shWith;
let kids: ChildProcess[] = [];
let dirs: string[] = [];
afterEach(() => {
  for (const k of kids) if (k.pid && k.exitCode === null) process.kill(k.pid, "SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  kids = [];
  dirs = [];
});

/** systemctl show as systemd 252 answers it: -p props (any order), --value, --timestamp=us+utc */
function systemctl(pid: number): string {
  return [
    `case "$*" in`,
    `  *InvocationID*"--value"*) echo ${INV} ;;`,
    `  *MainPID*"--value"*) echo ${pid} ;;`,
    `  *ControlGroup*"--value"*) echo /system.slice/dg-none-here.service ;;`,
    `  *NRestarts*"--value"*) echo 0 ;;`,
    `  *ActiveState*"--value"*) echo active ;;`,
    `  *"--timestamp=us+utc"*) echo MainPID=${pid}; echo ExecMainStartTimestamp="${STARTED}"; echo ExecMainStatus=0; echo InvocationID=${INV}; echo ActiveState=active; echo SubState=running ;;`,
    `  *) echo ActiveState=active; echo SubState=running; echo NRestarts=0; echo Result=success ;;`,
    `esac`,
  ].join("\n");
}

describe("which endpoints run their engine without a container", () => {
  it("a unit whose ExecStart= runs the engine, a script that runs it: yes; podman, docker, a quadlet: no", () => {
    expect(runsDirect(parseLaunch("unit", "[Service]\nExecStart=/opt/venv/bin/vllm serve /m --port 8000\n"))).toBe(
      true,
    );
    expect(
      runsDirect(parseLaunch("script", "#!/bin/bash\nexec python3 -m vllm.entrypoints.openai.api_server --model /m\n")),
    ).toBe(true);
    expect(runsDirect(parseLaunch("script", "podman run --rm --name x vllm/vllm-openai --model /m\n"))).toBe(false);
    expect(runsDirect(parseLaunch("script", "docker run --rm --name x vllm/vllm-openai --model /m\n"))).toBe(false);
    expect(runsDirect(parseLaunch("quadlet", "[Container]\nImage=vllm/vllm-openai\nExec=--model /m\n"))).toBe(false);
    expect(runsDirect(null)).toBe(false);
  });
});

describe("deploy's poll without a container", () => {
  it("asks systemctl for the unit's run, reads the unit's own lines only, and parses the run as running since its exact start", () => {
    const b = bin({ systemctl: systemctl(4242), journalctl: `for a in "$@"; do echo "arg:$a"; done; exit 1` });
    const out = sh(pollScript({ service: "dg-direct.service", container: null, cursor: null, sinceHostS: 1 }), b);
    expect(out).not.toContain("CONTAINER_NAME=");
    const p = parsePoll(out);
    expect(p.errors).toEqual([]);
    expect(p.container).toEqual({ id: INV, process: true, state: "running", exitCode: 0, createdAtMs: STARTED_MS });
  });

  it("on systemd before 248 (no --timestamp) it asks again in UTC, and whole seconds read as the end of that second", () => {
    const old = [
      `case "$*" in`,
      `  *--timestamp*) echo "systemctl: unrecognized option '--timestamp=us+utc'" >&2; exit 1 ;;`,
      `  *ExecMainStartTimestamp*) [ "$TZ" = UTC ] || exit 3; echo InvocationID=${INV}; echo MainPID=77; echo "ExecMainStartTimestamp=Tue 2026-12-01 11:37:00 UTC"; echo ExecMainStatus=0 ;;`,
      `  *) echo ActiveState=activating; echo SubState=start; echo NRestarts=0 ;;`,
      `esac`,
    ].join("\n");
    const out = sh(
      pollScript({ service: "dg-old.service", container: null, cursor: null, sinceHostS: 1 }),
      bin({ systemctl: old, journalctl: "exit 1" }),
    );
    expect(parsePoll(out).container).toEqual({
      id: INV,
      process: true,
      state: "running",
      exitCode: 0,
      createdAtMs: Date.UTC(2026, 11, 1, 11, 37, 0, 999),
    });
  });

  it("no main process is an exited run; no InvocationID (never started) or an unreadable start is none", () => {
    expect(
      parseInstance(["InvocationID=" + INV, "MainPID=0", `ExecMainStartTimestamp=${STARTED}`, "ExecMainStatus=1"]),
    ).toMatchObject({ state: "exited", exitCode: 1 });
    expect(parseInstance(["InvocationID=", "MainPID=0", "ExecMainStartTimestamp=", "ExecMainStatus=0"])).toBeNull();
    // systemd before 248 prints no microseconds and local time: never read as a run that started now
    expect(
      parseInstance(["InvocationID=" + INV, "MainPID=7", "ExecMainStartTimestamp=Tue 2026-12-01 12:37:00 CET"]),
    ).toBeNull();
  });
});

describe("verify's facts without a container", () => {
  it("read the unit's run and the engine process's own argv and environment from /proc", async () => {
    // a real process whose command line is `vllm serve …` (a shell running a file named vllm, not exec'ing)
    const dir = mkdtempSync(join(tmpdir(), "dg-engine-"));
    dirs.push(dir);
    writeFileSync(join(dir, "vllm"), "#!/bin/sh\nsleep 60\n");
    chmodSync(join(dir, "vllm"), 0o755);
    const kid = spawn(
      "/bin/sh",
      [join(dir, "vllm"), "serve", "/models/qwen", "--port", "8000", "--max-model-len", "8192"],
      { env: { PATH: "/usr/bin:/bin", VLLM_USE_V1: "1" }, stdio: "ignore" },
    );
    kids.push(kid);
    await new Promise((r) => kid.once("spawn", r));
    const b = bin({ systemctl: systemctl(kid.pid!), journalctl: "exit 0", "nvidia-smi": "exit 1" });
    const { script, marker } = buildFactsScript({ endpoint: "e", service: "dg-direct.service", container: null });
    expect(script).toContain(`_SYSTEMD_INVOCATION_ID="$id"`);
    const f = parseFacts(sh(script, b), marker);
    // as deploy reads it
    expect(f.container).toMatchObject({ id: INV, running: true, pid: kid.pid, createdMs: STARTED_MS });
    expect(liveFlags(f.argv!).map((x) => `${x.name}=${x.value}`)).toEqual(["--port=8000", "--max-model-len=8192"]);
    expect(f.env?.get("VLLM_USE_V1")).toBe("1");
  });
});

describe("verify.container for the unit's run", () => {
  const facts = (createdMs: number, running = true) => ({
    container: {
      id: INV,
      name: "",
      createdText: STARTED,
      createdMs,
      startedMs: createdMs,
      status: "active (running)",
      running,
      pid: 7,
      configEnv: [],
    },
    inspectError: null,
    hostNowMs: STARTED_MS + 60_000,
    state: null,
    stateError: null,
  });
  const deployment = (startedAtHostMs: number, containerId: string | null = INV) => ({
    endpoint: "e",
    ref: "main",
    sha: "a".repeat(40),
    startedAtHostMs,
    journalCursor: null,
    containerId,
    containerCreatedAtHostMs: null,
  });
  it("passes a run started after the deploy began; fails an older run, another run, or a stopped engine", () => {
    expect(
      checkContainer(facts(STARTED_MS), "dg.service", deployment(STARTED_MS - 5000), "dg.service", "unit"),
    ).toMatchObject({
      status: "pass",
      summary: `dg.service's run ${INV.slice(0, 12)} started after the deploy began, running`,
    });
    expect(
      checkContainer(facts(STARTED_MS), "dg.service", deployment(STARTED_MS + 60_000, null), "dg.service", "unit"),
    ).toMatchObject({ status: "fail", summary: expect.stringMatching(/predates the deploy by 60 s/) });
    expect(
      checkContainer(
        facts(STARTED_MS),
        "dg.service",
        deployment(STARTED_MS - 5000, "0".repeat(32)),
        "dg.service",
        "unit",
      ),
    ).toMatchObject({ status: "fail", summary: expect.stringMatching(/^another run of dg\.service answers/) });
    expect(
      checkContainer(facts(STARTED_MS, false), "dg.service", deployment(STARTED_MS - 5000), "dg.service", "unit"),
    ).toMatchObject({ status: "fail", summary: "dg.service is active (running): its engine is not running" });
  });
});
