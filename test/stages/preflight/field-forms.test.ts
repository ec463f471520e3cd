// preflight through the CLI on shapes the field run found: a unit that runs a serve script of the repository,
// memlock judged by form (compose yes, at the pinning flag; Kubernetes no), a quadlet podman would reject.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflightIn(dir: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: dir,
  });
  return JSON.parse(out) as Report;
}

/** A repository whose first commit holds `files`, then one commit per change; preflight --base the first. */
async function preflight(files: Record<string, string>, ...changes: Record<string, string>[]): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  const base = r.commit("add", files);
  changes.forEach((c, i) => r.commit(`change ${i}`, c));
  return preflightIn(r.dir, ...(changes.length ? ["--base", base] : []));
}
const rules = (r: Report) =>
  r.findings
    .filter((f: Finding) => f.check === "preflight.traps" && f.status !== "pass")
    .map((f) => [f.data?.rule ?? null, f.file, f.line]);

describe("discovery pairs a unit with the script it runs", () => {
  it("checks the unit's rules with the script's engine (restart-on-failure for vLLM)", async () => {
    const report = await preflight({
      "start-vllm.sh": "#!/bin/bash\nexec vllm serve /m --port 8000\n",
      "vllm.service": "[Unit]\nDescription=v\n\n[Service]\nExecStart=/home/u/llm/start-vllm.sh\nRestart=on-failure\n",
    });
    expect(rules(report)).toEqual([["restart-on-failure", "vllm.service", 6]]);
    expect(report.findings.find((f) => f.check === "preflight.traps")?.data?.unit).toBe("vllm.service");
  });
});

describe("discovery pairs a unit with a script installed under another name", () => {
  it("pairs ExecStart=/usr/local/bin/serve-llm with the repository's serve-llm.sh", async () => {
    const report = await preflight({
      "serve-llm.sh": "#!/bin/bash\nexec vllm serve /m --port 8000\n",
      "systemd/llm.service": "[Service]\nExecStart=/usr/local/bin/serve-llm\nRestart=on-failure\n",
    });
    expect(rules(report)).toEqual([["restart-on-failure", "systemd/llm.service", 3]]);
  });

  it("does not pair a unit whose program only shares a prefix with a script", async () => {
    const report = await preflight({
      "serve-llm-old.sh": "#!/bin/bash\nexec vllm serve /m --port 8000\n",
      "systemd/llm.service": "[Service]\nExecStart=/usr/local/bin/serve-llm\nRestart=on-failure\n",
    });
    expect(rules(report)).toEqual([]);
  });
});

describe("memlock by form", () => {
  const svc = (extra: string) =>
    `services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n${extra}    command: >\n      --model m\n      --swap-space 16\n`;
  it("warns on a compose service that pins host memory, at the pinning flag, and not once ulimits lift it", async () => {
    expect(rules(await preflight({ "compose.yaml": svc("") }))).toEqual([["memlock", "compose.yaml", 6]]);
    expect(rules(await preflight({ "compose.yaml": svc("    ulimits:\n      memlock: -1\n") }))).toEqual([]);
  });

  it("stays silent on --swap-space for a vLLM image from 0.11 on (V1 only: it allocates no CPU swap blocks)", async () => {
    const run = (tag: string) =>
      `#!/bin/bash\ndocker run -d --device /dev/kfd --device /dev/dri vllm/vllm-openai-rocm:${tag} \\\n  --model m \\\n  --swap-space 16\n`;
    expect(rules(await preflight({ "serve.sh": run("v0.14.1") }))).toEqual([]);
    expect(rules(await preflight({ "serve.sh": run("v0.10.1") }))).toEqual([["memlock", "serve.sh", 2]]);
  });

  it("stays silent on a Kubernetes container (node runtimes run with an unlimited memlock)", async () => {
    const k = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: v\n      image: vllm/vllm-openai:v0.10.1\n      args: ["--model", "m", "--swap-space", "16"]\n`;
    expect(rules(await preflight({ "pod.yaml": k }))).toEqual([]);
  });
});

describe("a quadlet podman's generator rejects", () => {
  it("is found and reported once as unread, with the key to fix", async () => {
    const report = await preflight({
      "llama.container": "[Container]\nImage=ghcr.io/ggml-org/llama.cpp:server\nEeec=-m /models/q.gguf\n",
    });
    const traps = report.findings.filter((f) => f.check === "preflight.traps");
    expect(traps.map((f) => [f.status, f.file, f.data?.endpoint])).toEqual([["fail", "llama.container", "llama"]]);
    expect(traps[0]!.summary).toMatch(/Eeec= \(line 3\)/);
    expect(traps[0]!.fix).toMatch(/rename Eeec= to Exec=/);
  });
});

describe("vLLM --config FILE.yaml", () => {
  const CFG =
    "# engine args\nmax_model_len: 32768\nreasoning_parser: qwen3\nenable_prefix_caching: true\nenforce_eager: false\n";
  const SCRIPT = "#!/bin/bash\nexec vllm serve Qwen/Qwen3-8B --config configs/qwen.yaml --port 8000\n";
  const CONFIG =
    'version: 1\nendpoints:\n  llm:\n    script: serve.sh\n    contracts:\n      flags: ["--max-model-len 32768", "--reasoning-parser qwen3"]\n';

  it("holds the file's keys as engine flags: contracts pass from the file", async () => {
    const report = await preflight({ "serve.sh": SCRIPT, "configs/qwen.yaml": CFG, "deploy-gate.yml": CONFIG });
    const c = report.findings.filter((f) => f.check === "preflight.contracts");
    expect(c.map((f) => [f.status, f.summary])).toEqual([["pass", "serve.sh: 2 of 2 contract flags present"]]);
  });

  it("reports a key dropped from the file at the file's own line", async () => {
    const report = await preflight(
      { "serve.sh": SCRIPT, "configs/qwen.yaml": CFG },
      { "configs/qwen.yaml": CFG.replace("reasoning_parser: qwen3\n", "") },
    );
    const drops = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(drops.map((f) => [f.data?.flag, f.data?.baseLine])).toEqual([["--reasoning_parser", 3]]);
    expect(drops[0]!.evidence).toContainEqual(
      expect.stringMatching(/^[0-9a-f]{10}:configs\/qwen.yaml:3: --reasoning_parser qwen3$/),
    );
  });
});

describe("restart policy and boot budget by form", () => {
  const pod = (extra: string, restart = "") =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n${restart}  containers:\n    - name: v\n      image: vllm/vllm-openai:v0.10.1\n      args: ["--model", "m"]\n${extra}`;

  it("warns on compose restart: on-failure for vLLM, not for llama.cpp, not on unless-stopped", async () => {
    const c = (image: string, restart: string) => `services:\n  s:\n    image: ${image}\n    restart: ${restart}\n`;
    expect(rules(await preflight({ "compose.yaml": c("vllm/vllm-openai:v0.10.1", "on-failure:3") }))).toEqual([
      ["restart-on-failure", "compose.yaml", 4],
    ]);
    expect(rules(await preflight({ "compose.yaml": c("ghcr.io/ggml-org/llama.cpp:server", "on-failure") }))).toEqual(
      [],
    );
    expect(rules(await preflight({ "compose.yaml": c("vllm/vllm-openai:v0.10.1", "unless-stopped") }))).toEqual([]);
  });

  it("warns on a pod's restartPolicy: OnFailure for vLLM", async () => {
    expect(rules(await preflight({ "pod.yaml": pod("", "  restartPolicy: OnFailure\n") }))).toEqual([
      ["restart-on-failure", "pod.yaml", 5],
    ]);
  });

  it("warns on a liveness probe that restarts the engine before a load can finish, not on a long startupProbe", async () => {
    const live =
      "      livenessProbe:\n        httpGet: {path: /health, port: 8000}\n        initialDelaySeconds: 60\n";
    expect(rules(await preflight({ "pod.yaml": pod(live) }))).toEqual([["start-timeout", "pod.yaml", 9]]);
    const startup =
      "      startupProbe:\n        httpGet: {path: /health, port: 8000}\n        failureThreshold: 24\n        periodSeconds: 30\n";
    expect(rules(await preflight({ "pod.yaml": pod(startup + live) }))).toEqual([]);
  });
});

describe("two engines in one script", () => {
  const TWO =
    "#!/bin/bash\nnohup vllm serve /a --port 8000 --max-model-len 8192 > a.log 2>&1 &\nnohup python3 -m sglang.launch_server --model-path /b --port 30000 --context-length 4096 > b.log 2>&1 &\nwait\n";

  it("are two targets, each with its own drops; the file's checks run once", async () => {
    const report = await preflight({ "serve.sh": TWO }, { "serve.sh": TWO.replace(" --context-length 4096", "") });
    const drops = report.findings.filter((f) => f.check === "preflight.dropped-flags");
    expect(drops.map((f) => [f.status, f.data?.part ?? null, f.data?.flag ?? null])).toEqual([
      ["pass", "vllm #1", null],
      ["fail", "sglang #1", "--context-length"],
    ]);
    expect(report.findings.filter((f) => f.check === "preflight.bash-syntax")).toHaveLength(1);
  });

  it("each engine is judged by its own engine's trap rules, a rule's hit said once", async () => {
    // llama-server first: the vLLM-only rules still judge the vLLM started after it
    const mixed =
      "#!/bin/bash\nllama-server -m /a.gguf --port 8080 &\nvllm serve /b --port 8000 \\\n  --enable-auto-tool-choice &\nwait\n";
    expect(rules(await preflight({ "serve.sh": mixed }))).toEqual([["auto-tool-choice", "serve.sh", 4]]);
    // two vLLMs: each one's own flags, and the unit's Restart= said once, not per engine
    const two =
      "#!/bin/bash\nvllm serve /a --port 8000 --enable-auto-tool-choice &\nvllm serve /b --port 8001 --enable-auto-tool-choice --tool-call-parser hermes &\nwait\n";
    const unit = "[Unit]\nDescription=v\n\n[Service]\nExecStart=/opt/llm/serve.sh\nRestart=on-failure\n";
    expect(rules(await preflight({ "serve.sh": two, "llm.service": unit }))).toEqual([
      ["auto-tool-choice", "serve.sh", 2],
      ["restart-on-failure", "llm.service", 6],
    ]);
  });

  it("two units (profiles) that run one script: each unit is checked with it, bash -n runs once", async () => {
    const serve = "#!/bin/bash\nexec llama-server -m /m.gguf --port 8080\n";
    const unit = (extra: string) =>
      `[Unit]\nDescription=llm\n\n[Service]\nExecStart=%h/llm/serve.sh ${extra}\n${extra === "--small" ? "StartLimitIntervalSec=300\n" : ""}`;
    const report = await preflight({
      "serve.sh": serve,
      "big.service": unit("--big"),
      "small.service": unit("--small"),
    });
    expect(rules(report)).toEqual([["start-limit-section", "small.service", 6]]);
    const units = report.findings.filter((f) => typeof f.data?.unit === "string").map((f) => f.data!.unit);
    expect([...new Set(units)].sort()).toEqual(["big.service", "small.service"]);
    expect(report.findings.filter((f) => f.check === "preflight.bash-syntax")).toHaveLength(1);
    // a unit with nothing to say is still checked, and says so
    const quiet = await preflight({ "serve.sh": serve, "big.service": unit("--big"), "small.service": unit("--a") });
    const passes = quiet.findings.filter((f) => f.check === "preflight.traps" && f.status === "pass");
    expect(passes.map((f) => f.data?.unit).sort()).toEqual(["big.service", "small.service"]);
  });

  it("in two branches of an if are one target, not two", async () => {
    const alt =
      '#!/bin/bash\nif [ "$HW" = hpu ]; then\n  vllm serve /a --port 8000 --block-size 128\nelse\n  vllm serve /a --port 8000\nfi\n';
    const report = await preflight({ "serve.sh": alt });
    expect(report.findings.filter((f) => f.check === "preflight.traps").map((f) => f.data?.endpoint)).toEqual([
      "serve",
    ]);
  });
});

describe("YAML launch files preflight cannot read", () => {
  it("says once what the file is, where the YAML breaks and what to do", async () => {
    const report = await preflight({
      "compose.yaml": "services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n   command: --model m\n",
      "k8s/vllm.yaml":
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n",
    });
    const traps = report.findings.filter((f) => f.check === "preflight.traps");
    expect(traps.map((f) => [f.status, f.file])).toEqual([
      ["fail", "compose.yaml"],
      ["fail", "k8s/vllm.yaml"],
    ]);
    expect(traps[0]!.summary).toMatch(/a compose file that is not valid YAML at line 4/);
    expect(traps[1]!.fix).toMatch(/Helm chart/);
    expect(report.findings.filter((f) => f.check === "preflight.bash-syntax")).toEqual([]);
  });
});

describe("small-shm by form", () => {
  const svc = (extra: string) =>
    `services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n${extra}    command: ["--model", "m", "--tensor-parallel-size", "2"]\n`;
  const pod = (mount: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: v\n      image: lmsysorg/sglang:latest\n      command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--tp", "4"]\n${mount}`;
  const dshm =
    "      volumeMounts: [{name: dshm, mountPath: /dev/shm}]\n  volumes:\n    - name: dshm\n      emptyDir: {medium: Memory}\n";

  it("warns on a compose service split over GPUs with the default /dev/shm, not with ipc: host or shm_size", async () => {
    expect(rules(await preflight({ "compose.yaml": svc("") }))).toEqual([["small-shm", "compose.yaml", 4]]);
    expect(rules(await preflight({ "compose.yaml": svc("    ipc: host\n") }))).toEqual([]);
    expect(rules(await preflight({ "compose.yaml": svc("    shm_size: 16g\n") }))).toEqual([]);
  });

  it("warns on a pod whose engine runs tensor parallel with no /dev/shm emptyDir, not with one", async () => {
    expect(rules(await preflight({ "pod.yaml": pod("") }))).toEqual([["small-shm", "pod.yaml", 8]]);
    expect(rules(await preflight({ "pod.yaml": pod(dshm) }))).toEqual([]);
  });
});
