import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRAP_RULES } from "../../../../src/domain/config/schema.js";
import { checkTraps } from "../../../../src/stages/preflight/traps/check-traps.js";
import { parseServeScript } from "../../../../src/domain/launch/parse.js";

const FIX = join(import.meta.dirname, "../../../fixtures");
const read = (p: string) => readFileSync(join(FIX, p), "utf8");
const traps = (script: string, unit: string | null = null, levels = {}) =>
  checkTraps(
    {
      script: parseServeScript(script),
      scriptPath: "serve.sh",
      unit: unit === null ? null : { path: "engine.service", text: unit },
    },
    levels,
  );
const rules = (findings: ReturnType<typeof traps>) =>
  findings.filter((f) => f.status !== "pass").map((f) => f.data?.rule);

const ENGINE = `podman rm -f eng
podman run -d --name eng --ipc=host --ulimit memlock=-1:-1 --device /dev/dri img /models --port 7770 --cpu-offload-gb 8
`;

describe("checkTraps", () => {
  it("passes the production archon script and unit on every rule, listing the rules checked", () => {
    const findings = checkTraps(
      {
        script: parseServeScript(read("launch/scripts/serve-archon.sh")),
        scriptPath: "scripts/serve-archon.sh",
        unit: { path: "deploy/frank-archon.service", text: read("launch/units/frank-archon.service") },
      },
      {},
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: "preflight.traps", status: "pass" });
    expect([...(findings[0]!.data?.rules as string[])].sort()).toEqual([...TRAP_RULES].sort());
    expect(findings[0]!.summary).toContain(String(TRAP_RULES.length));
  });

  it("drops a rule set to off, from the findings and from the pass list", () => {
    const script = ENGINE.replace(" --ulimit memlock=-1:-1", "");
    expect(rules(traps(script))).toEqual(["memlock"]);
    const off = traps(script, null, { memlock: "off" });
    expect(off).toHaveLength(1);
    expect(off[0]!.status).toBe("pass");
    expect(off[0]!.data?.rules).not.toContain("memlock");
    expect(off[0]!.summary).toContain(String(TRAP_RULES.length - 1));
  });

  it("raises a warn rule to fail and lowers a fail rule to warn when the config says so", () => {
    const script = ENGINE.replace(" --ulimit memlock=-1:-1", "").replace(
      "--device /dev/dri",
      "--device /dev/dri/renderD128",
    );
    const byRule = (f: ReturnType<typeof traps>) => Object.fromEntries(f.map((x) => [x.data?.rule, x.status]));
    expect(byRule(traps(script))).toEqual({ "render-nodes": "fail", memlock: "warn" });
    expect(byRule(traps(script, null, { memlock: "fail", "render-nodes": "warn" }))).toEqual({
      "render-nodes": "warn",
      memlock: "fail",
    });
  });

  it("says why in each finding and points at the offending line", () => {
    const f = traps(
      `${ENGINE}podman run -d --name eng2 --replace --ipc=host --ulimit memlock=-1:-1 \\\n  --shm-size 8g img /m --port 1\n`,
    );
    const ipc = f.find((x) => x.data?.rule === "ipc-shm")!;
    expect(ipc.status).toBe("fail");
    expect(ipc.line).toBe(4);
    expect(ipc.evidence).toEqual([
      "podman run -d --name eng2 --replace --ipc=host --ulimit memlock=-1:-1 \\",
      "  --shm-size 8g img /m --port 1",
    ]);
    expect(ipc.summary).toMatch(/mutually exclusive|refuses/);
    expect(ipc.data?.why).toBeTruthy();
  });

  it("checks a podman run written directly in the unit's ExecStart, with unit line numbers", () => {
    const unit = `[Unit]\nDescription=x\n\n[Service]\nExecStartPre=-/usr/bin/podman rm -f eng\nExecStart=/usr/bin/podman run --rm --name eng \\\n  --device /dev/dri/renderD128 --ulimit memlock=-1:-1 img /m --port 7770\nRestart=always\n`;
    const f = traps("#!/bin/bash\necho nothing to do here\n", unit);
    // the node is on the continuation line, line 7 of the unit
    expect(f.map((x) => [x.data?.rule, x.file, x.line])).toEqual([["render-nodes", "engine.service", 7]]);
  });

  it("accepts the unit's ExecStartPre podman rm -f for a name the script reuses", () => {
    const script = "podman run --name eng --ipc=host --ulimit memlock=-1:-1 --device /dev/dri img /m --port 1\n";
    expect(rules(traps(script))).toEqual(["name-reuse"]);
    const unit = "[Service]\nExecStartPre=-/usr/bin/podman rm -f eng\nExecStart=/srv/serve.sh\nRestart=always\n";
    expect(rules(traps(script, unit))).toEqual([]);
  });

  it("compares podman stop -t in the script against systemd's 90 s default when no TimeoutStopSec is set", () => {
    expect(rules(traps(`${ENGINE}trap 'podman stop -t 100 eng' TERM\npodman stop -t 100 eng\n`))).toEqual([
      "stop-timeout",
    ]);
    expect(rules(traps(`${ENGINE}podman stop -t 60 eng\n`))).toEqual([]);
    const unit =
      "[Service]\nExecStart=/srv/serve.sh\nExecStop=/usr/bin/podman stop --time=200 eng\nTimeoutStopSec=3min 30s\nRestart=always\n";
    expect(rules(traps(ENGINE, unit))).toEqual([]);
    expect(rules(traps(ENGINE, unit.replace("3min 30s", "3min")))).toEqual(["stop-timeout"]);
  });

  it("never copies a literal secret from -e into the report", () => {
    const f = traps(
      ENGINE.replace(
        "--device /dev/dri",
        "--device /dev/dri -e HF_TOKEN=hf_EXAMPLExNOTxAxREALxTOKENx0000 -e HF_HOME=/root/.cache/hf",
      ),
    );
    expect(rules(f)).toEqual(["secret-in-argv"]);
    expect(JSON.stringify(f)).not.toContain("hf_EXAMPLExNOTxAxREALxTOKENx0000");
    expect(f[0]!.evidence![0]).toContain("HF_TOKEN=<redacted>");
  });

  it("accepts secrets that come from the environment or a file", () => {
    const script =
      `${ENGINE}curl -fsS -H "Authorization: Bearer $VLLM_API_KEY" http://127.0.0.1:7770/v1/models\n` +
      `vllm serve /models --api-key "$(cat /etc/vllm/key)" --port 7771\n`;
    expect(rules(traps(script))).toEqual([]);
    expect(rules(traps(`${ENGINE}vllm serve /models --api-key sekrit-literal --port 7771\n`))).toEqual([
      "secret-in-argv",
    ]);
  });

  it("treats 2>&1, &> and |& as merging the log before grep", () => {
    for (const merge of ["2>&1 |", "&> /dev/stdout |", "|&"]) {
      expect(rules(traps(`${ENGINE}podman logs eng ${merge} grep -q "startup complete"\n`))).toEqual([]);
    }
    expect(rules(traps(`${ENGINE}podman logs -f eng 2>/dev/null | grep -q "startup complete"\n`))).toEqual([
      "unmerged-log-grep",
    ]);
  });
});

describe("start-limit-section follows systemd's directive table (issue 22)", () => {
  const unit = (service: string) => ({
    path: "llm.service",
    text: `[Unit]\nDescription=x\n\n[Service]\nExecStart=/opt/v/bin/vllm serve /m\nRestart=always\n${service}\n`,
  });
  const rules = (service: string) =>
    checkTraps({ script: parseServeScript(""), scriptPath: "serve.sh", unit: unit(service) }, {})
      .filter((f) => f.data?.rule === "start-limit-section")
      .map((f) => f.line);

  it("trips on StartLimitIntervalSec= in [Service], which systemd does not know there", () => {
    expect(rules("StartLimitIntervalSec=600")).toEqual([7]);
  });

  it("stays silent on StartLimitBurst=, StartLimitInterval= and StartLimitAction= in [Service], which systemd reads", () => {
    expect(rules("StartLimitBurst=5\nStartLimitInterval=600\nStartLimitAction=none")).toEqual([]);
  });
});

describe("template-kwargs", () => {
  const serve = (args: string) => `vllm serve m --port 8000 ${args}\n`;
  it("never fires on the switch passed the way it asks, in either spelling of the value", () => {
    expect(rules(traps(serve(`--default-chat-template-kwargs '{"enable_thinking": false}'`)))).toEqual([]);
    // (set R1's chart renders the flag and its value as one word)
    expect(rules(traps(serve(`'--default-chat-template-kwargs={"enable_thinking": true}'`)))).toEqual([]);
    // (set AE1: vLLM's parser reads a dotted key as the dict's entry)
    expect(rules(traps(serve("--default-chat-template-kwargs.enable_thinking false")))).toEqual([]);
  });
  it("fires on the switch given as a flag or a bare word", () => {
    expect(rules(traps(serve("--enable-thinking")))).toEqual(["template-kwargs"]);
    expect(rules(traps(serve("--generation-config.enable_thinking false")))).toEqual(["template-kwargs"]);
    expect(rules(traps(serve(`'{"enable_thinking": true}'`)))).toEqual(["template-kwargs"]);
  });
});

describe("name-reuse after a loop removed the names (set AE3)", () => {
  const script = (names: string) =>
    [
      'RUNTIME=""',
      "if command -v docker >/dev/null; then RUNTIME=docker; else RUNTIME=podman; fi",
      'ENGINE_C="eng"',
      `for c in ${names}; do`,
      '  "$RUNTIME" rm -f "$c" >/dev/null 2>&1 || true',
      "done",
      '"$RUNTIME" run -d --name "${ENGINE_C}" vllm/vllm-openai:latest --model m --port 8000',
      "",
    ].join("\n");
  it("is silent when the loop lists the run's name, as a variable or as the value", () => {
    expect(rules(traps(script('"${UI_C}" "${ENGINE_C}"')))).not.toContain("name-reuse");
    expect(rules(traps(script("ui eng")))).not.toContain("name-reuse");
  });
  it("still fires when the loop lists other names", () => {
    expect(rules(traps(script('"${UI_C}" other')))).toContain("name-reuse");
  });
});

describe("name-reuse after a pod's removal", () => {
  const script = (rm: string) =>
    `podman pod rm -f ${rm} || true\npodman pod create --name app -p 8000:8000\npodman run -d --pod app --name engine vllm/vllm-openai:latest --port 8000\n`;
  it("is silent for a container run in the pod the script removed first (its containers go with it)", () => {
    expect(rules(traps(script("app")))).not.toContain("name-reuse");
  });
  it("still fires when another pod was removed", () => {
    expect(rules(traps(script("other")))).toContain("name-reuse");
  });
});

describe("a command in a function that several presets call with their flags", () => {
  it("is one finding at its line, not one per call", () => {
    const text = [
      "launch() {",
      '  pkill -9 -f "sglang.launch_server" || true',
      '  exec python -m sglang.launch_server "$@"',
      "}",
      "small() { launch --model-path s --port 30000; }",
      "big() { launch --model-path b --port 30001 --tp 2; }",
      'case "$1" in small) small ;; big) big ;; esac',
      "",
    ].join("\n");
    const kills = traps(text).filter((f) => f.data?.rule === "broad-kill" && f.status !== "pass");
    expect(kills.map((f) => f.line)).toEqual([2]);
    // any rule: a literal key in the launcher's own line
    const keyed = text.replace('"$@"', '--api-key Qz8Lp2Wv7Xr4Tn6Ky1Mb3Hc9 "$@"');
    const secrets = traps(keyed).filter((f) => f.data?.rule === "secret-in-argv" && f.status !== "pass");
    expect(secrets.map((f) => f.line)).toEqual([3]);
  });
});
