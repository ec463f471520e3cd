// preflight on endpoints whose engine is started by a unit or a quadlet, honest contract messages,
// spelling-blind drops and refused paths, on real temporary git repositories through the CLI.
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { droppedFlags } from "../../../src/stages/preflight/dropped-flags.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

function repo(files: Record<string, string>): TempRepo {
  const r = tempRepo();
  repos.push(r);
  r.commit("initial", files);
  return r;
}

async function preflight(cwd: string): Promise<Report> {
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd });
  return JSON.parse(out) as Report;
}

const config = (endpoint: string) =>
  `version: 1\nendpoints:\n  llm:\n    ${endpoint}\n    contracts:\n      flags: ["--reasoning-parser qwen3", "--max-model-len 32768"]\n`;
const of = (r: Report, check: string) => r.findings.filter((f: Finding) => f.check === check);

const UNIT =
  "[Unit]\nDescription=vLLM\n\n[Service]\nExecStart=/opt/vllm/bin/vllm serve /m \\\n    --max_model_len 32768 \\\n    --reasoning-parser qwen3\nRestart=on-failure\n";
const QUADLET =
  "[Container]\nImage=docker.io/vllm/vllm-openai:v0.9.2\nExec=--model /m --max-model-len 32768 --reasoning-parser qwen3\n\n[Service]\nRestart=always\n";

describe("preflight: unit-only and quadlet-only endpoints", () => {
  it("reads a unit named alone as the launch file: no bash -n, contracts against its ExecStart=, unit rules", async () => {
    const r = repo({ "deploy/vllm.service": UNIT, "deploy-gate.yml": config("unit: deploy/vllm.service") });
    const report = await preflight(r.dir);
    expect(of(report, "preflight.bash-syntax")).toEqual([]);
    expect(of(report, "preflight.contracts").map((f) => f.status)).toEqual(["pass"]);
    expect(of(report, "preflight.traps").map((f) => [f.data?.rule, f.file, f.line])).toEqual([
      ["restart-on-failure", "deploy/vllm.service", 8],
    ]);
  });

  it("reads a quadlet named with quadlet:, and traces a contract dropped from its Exec=", async () => {
    const r = repo({ "deploy/vllm.container": QUADLET, "deploy-gate.yml": config("quadlet: deploy/vllm.container") });
    const drop = r.commit("tune", { "deploy/vllm.container": QUADLET.replace(" --reasoning-parser qwen3", "") });
    const report = await preflight(r.dir);
    expect(of(report, "preflight.bash-syntax")).toEqual([]);
    const broken = of(report, "preflight.contracts").filter((f) => f.status === "fail");
    expect(broken.map((f) => f.data?.droppedIn)).toEqual([drop]);
    expect(
      of(report, "preflight.dropped-flags")
        .filter((f) => f.status === "fail")
        .map((f) => f.data?.flag),
    ).toEqual(["--reasoning-parser"]);
  });

  it("discovers units and quadlets that start an engine, and not a web app's unit", async () => {
    const r = repo({
      "deploy/vllm.service": UNIT,
      "deploy/vllm.container": QUADLET,
      "deploy/web.service": "[Service]\nExecStart=/srv/env/bin/gunicorn app:app\n",
    });
    const files = new Set(repoFiles(await preflight(r.dir)));
    expect([...files].sort()).toEqual(["deploy/vllm.container", "deploy/vllm.service"]);
  });
});

const repoFiles = (r: Report) => r.findings.filter((f) => f.data?.endpoint !== undefined && f.file).map((f) => f.file!);

describe("preflight: honest contract messages", () => {
  it("says the engine command was not found and checks the contracts as text", async () => {
    const script = "#!/bin/bash\nexec my-launcher --reasoning-parser qwen3 --max-model-len 32768\n";
    const r = repo({ "serve.sh": script, "deploy-gate.yml": config("script: serve.sh") });
    const [f] = of(await preflight(r.dir), "preflight.contracts");
    expect(f!.status).toBe("warn");
    expect(f!.summary).toContain("could not find the engine command");
    expect(f!.summary).toContain("checked as text");
  });

  it("names the line of a flag that is in the file but cut off from the engine command, never 'never in history'", async () => {
    const script =
      "#!/bin/bash\nvllm serve /m \\\n  --max-model-len 32768 \\\n  # a comment ends the command here\n  --reasoning-parser qwen3\n";
    const r = repo({ "serve.sh": script, "deploy-gate.yml": config("script: serve.sh") });
    const broken = of(await preflight(r.dir), "preflight.contracts").filter((f) => f.status === "fail");
    expect(broken).toHaveLength(1);
    expect(broken[0]!.line).toBe(5);
    expect(broken[0]!.summary).toContain("is on line 5 but not in the engine command");
    expect(broken[0]!.summary).not.toContain("never");
  });

  it("treats --max_model_len and --max-model-len as one flag: a rename drops nothing", () => {
    const base = parseServeScript("vllm serve /m --max_model_len 8192 --port 1\n").engine!.flags;
    const now = parseServeScript("vllm serve /m --max-model-len 8192 --port 1\n").engine!.flags;
    expect(droppedFlags(base, now, "s.sh", "base").map((f) => f.status)).toEqual(["pass"]);
    expect(
      droppedFlags(
        base,
        now.filter((f) => f.name !== "--max-model-len"),
        "s.sh",
        "base",
      ).map((f) => [f.status, f.data?.flag]),
    ).toEqual([["fail", "--max_model_len"]]);
  });

  it("reads each engine's client flags: SGLang's --context-length and llama.cpp's -c/--jinja fail, their spellings are one flag", () => {
    const sgl = (s: string) => parseServeScript(`python -m sglang.launch_server --model-path /m ${s}\n`).engine!;
    const b = sgl("--context-length 32768 --tp 2 --port 30000");
    const n = sgl("--tp-size 2 --port 30000");
    expect(
      droppedFlags(b.flags, n.flags, "s.sh", "base", new Set(), "base", "s.sh", b.kind).map((f) => [
        f.status,
        f.data?.flag,
      ]),
    ).toEqual([["fail", "--context-length"]]);
    const llama = (s: string) => parseServeScript(`llama-server -m /m.gguf ${s}\n`).engine!;
    const lb = llama("-c 16384 --jinja -ngl 99 --port 8080");
    // -c spelt --ctx-size, -ngl spelt --n-gpu-layers: nothing dropped; --jinja gone: tools and templates are
    expect(
      droppedFlags(
        lb.flags,
        llama("--ctx-size 16384 --jinja --n-gpu-layers 99 --port 8080").flags,
        "s.sh",
        "base",
        new Set(),
        "base",
        "s.sh",
        "llama.cpp",
      ).map((f) => f.status),
    ).toEqual(["pass"]);
    expect(
      droppedFlags(
        lb.flags,
        llama("--ctx-size 16384 --n-gpu-layers 99 --port 8080").flags,
        "s.sh",
        "base",
        new Set(),
        "base",
        "s.sh",
        "llama.cpp",
      ).map((f) => [f.status, f.data?.flag]),
    ).toEqual([["fail", "--jinja"]]);
    expect(
      droppedFlags(
        lb.flags,
        llama("--jinja --port 8080").flags,
        "s.sh",
        "base",
        new Set(),
        "base",
        "s.sh",
        "llama.cpp",
      ).map((f) => [f.status, f.data?.flag]),
    ).toEqual([
      ["fail", "-c"],
      ["warn", "-ngl"],
    ]);
  });

  it("reads llama.cpp's draft-model spellings as one flag, and the same value moved to a longer name as a respelling", () => {
    const llama = (s: string) => parseServeScript(`llama-server -m /m.gguf ${s} --port 8080\n`).engine!.flags;
    const drops = (b: string, n: string) =>
      droppedFlags(llama(b), llama(n), "s.sh", "base", new Set(), "base", "s.sh", "llama.cpp").map((f) => [
        f.status,
        f.data?.flag ?? null,
      ]);
    // arg.cpp: {"--spec-draft-model", "-md", "--model-draft"} is one option
    expect(drops("-md /d.gguf", "--spec-draft-model /d.gguf")).toEqual([["pass", null]]);
    expect(drops("--model-draft /d.gguf", "--spec-draft-model /d.gguf")).toEqual([["pass", null]]);
    // no spelling llama.cpp knows, fixed to one it does: the value stays, under the name that holds its words
    expect(drops('--draft-model "$DRAFT"', '--spec-draft-model "$DRAFT"')).toEqual([["pass", null]]);
    // arg.cpp: {"-t", "--threads"}, {"-b", "--batch-size"} are one option each
    expect(drops('--threads "$T" --batch-size 512', '-t "$T" -b 512')).toEqual([["pass", null]]);
    // a name abbreviated (or an abbreviation written out) with the same value: one setting respelt
    expect(drops("--context-size $CTX", "--ctx-size $CTX")).toEqual([["pass", null]]);
    expect(drops("--n-gpu-layers $NGL", "--ngl $NGL")).toEqual([["pass", null]]);
    expect(drops("--n-gpu-layers 0", "--ngl 0")).toEqual([["pass", null]]);
    // respelt in one place, respelt wherever the name stood
    expect(drops("--ngl $NGL --ngl 0", "-ngl $NGL -ngl 0")).toEqual([["pass", null]]);
    expect(drops("--ngl $NGL --n-gpu-layers 0", "--ngl $NGL --ngl 0")).toEqual([["pass", null]]);
    // the same setting in another engine's words, same value: a command ported between engines
    expect(drops("--max-model-len 32768", "--context-length 32768")).toEqual([["pass", null]]);
    expect(drops("--max-model-len 32768", "--context-length 8192")).toEqual([["warn", "--max-model-len"]]);
    // a fork's name for an option and upstream's (round AD's ik_llama.cpp to llama.cpp switch), a new value too
    expect(drops("--ctx-checkpoints-interval 512", "--checkpoint-min-step 256")).toEqual([["pass", null]]);
    // a bare number under a merely related name is no evidence of a move
    expect(drops("--threads-batch 8", "--batch-size 8")).toEqual([["warn", "--threads-batch"]]);
    // a value that moves to an unrelated flag is still a drop
    expect(drops("--alias qwen", "--tags qwen")).toEqual([["fail", "--alias"]]);
    expect(drops("--ctx-size $CTX", "--cache-reuse $CTX")).toEqual([["fail", "--ctx-size"]]);
    expect(drops("-md /d.gguf", "")).toEqual([["warn", "-md"]]);
    // arg.cpp: {"-v", "--verbose", "--log-verbose"} is one option
    expect(drops("--verbose", "--log-verbose")).toEqual([["pass", null]]);
    // vLLM's --worker-use-ray set distributed_executor_backend = "ray": the same setting, not another
    const vllm = (x: string) => parseServeScript(`vllm serve /m ${x} --port 8000\n`).engine!.flags;
    const vdrops = (b: string, n: string) =>
      droppedFlags(vllm(b), vllm(n), "s.sh", "base", new Set(), "base", "s.sh", "vllm").map((f) => f.status);
    expect(vdrops('--distributed-executor-backend "ray"', "--worker-use-ray")).toEqual(["pass"]);
    // vLLM 0.10.2+: --disable-log-requests is the deprecated spelling of --no-enable-log-requests (P2's HaoWen46)
    expect(vdrops("--disable-log-requests", "--no-enable-log-requests")).toEqual(["pass"]);
    expect(vdrops("--disable-log-requests", "--enable-log-requests")).toEqual(["warn"]);
    expect(vdrops("--distributed-executor-backend mp", "--worker-use-ray")).toEqual(["warn"]);
  });
});

describe("preflight: paths", () => {
  it("refuses a script that is a symlink, and one outside the repository, without reading it", async () => {
    const r = repo({ "real.sh": "#!/bin/bash\nvllm serve /m --max-model-len 32768 --reasoning-parser qwen3\n" });
    symlinkSync(join(r.dir, "real.sh"), join(r.dir, "serve.sh"));
    r.commit("link and config", {
      "deploy-gate.yml": config("script: serve.sh").replace("  llm:", "  llm:\n    unit: ../etc/passwd"),
    });
    const report = await preflight(r.dir);
    const refused = report.findings.filter(
      (f) => f.status === "fail" && /symbolic link|outside the repository/.test(f.summary),
    );
    expect(refused.map((f) => f.file).sort()).toEqual(["../etc/passwd", "serve.sh"]);
    expect(of(report, "preflight.contracts")).toEqual([]);
  });
});
