// Launch shapes held-out round AC found, each written here in our own words, on real git repositories: a script that
// starts the repository's own unit with systemctl; a script that runs the team's Python program through an
// interpreter variable, the program able to start two engines and told which on its command line; a console script
// the repository's pyproject.toml declares.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(files: Record<string, string>): Promise<Finding[]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("launch files", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return (JSON.parse(out) as Report).findings;
}

// each launcher with the file it starts (a second launcher's own finding names it: "X: starts Y, checked with it")
const launchers = (found: Finding[]) =>
  [
    ...new Set(
      found
        .filter((f) => f.data?.launcher)
        .map((f) => `${f.data?.launcher} -> ${/: starts (\S+), checked with it/.exec(f.summary)?.[1] ?? f.file}`),
    ),
  ].sort();

const UNIT = "[Unit]\nDescription=llama\n[Service]\nExecStart=/opt/llama.cpp/llama-server -m /m.gguf --port 8080\n";

describe("a script that starts the repository's unit with systemctl", () => {
  it("is that unit's launcher (start, restart, enable --now); `enable` alone or another unit is not", async () => {
    const found = await preflight({
      "llama-server.service": UNIT,
      "deploy.sh":
        "#!/bin/bash\ncp llama-server.service /etc/systemd/system/\nsystemctl daemon-reload\nsystemctl restart llama-server\n",
      "install.sh": "#!/bin/bash\nsystemctl enable --now llama-server.service\n",
      "boot.sh": "#!/bin/bash\nsystemctl enable llama-server.service\nsystemctl restart nginx\n",
    });
    expect(launchers(found)).toEqual(["deploy.sh -> llama-server.service", "install.sh -> llama-server.service"]);
  });
});

describe("a team's Python program run through an interpreter variable", () => {
  const PROGRAM = [
    "import os, sys",
    "def vllm_cmd(cfg):",
    '    return ["vllm", "serve", cfg["model"], "--port", str(cfg["port"])]',
    "def sglang_cmd(cfg):",
    '    return [sys.executable, "-m", "sglang.launch_server", "--model-path", cfg["model"]]',
    "cmd = vllm_cmd({}) if sys.argv[2] == 'vllm' else sglang_cmd({})",
    "os.execvp(cmd[0], cmd)",
    "",
  ].join("\n");
  const serve = (engine: string) =>
    [
      "#!/usr/bin/env bash",
      'ROOT="$(cd "$(dirname "$0")/.." && pwd)"',
      'PYTHON="${BUILDER_PYTHON:-$ROOT/.venv/bin/python}"',
      `exec "$PYTHON" "$ROOT/scripts/build_serve_cmd.py" --exec ${engine} "$ROOT/configs/${engine}.yaml"`,
      "",
    ].join("\n");

  it("starts the engine the program's command line names", async () => {
    const found = await preflight({
      "scripts/build_serve_cmd.py": PROGRAM,
      "scripts/serve_vllm.sh": serve("vllm"),
      "scripts/serve_sglang.sh": serve("sglang"),
      "scripts/run_one.sh":
        "#!/bin/bash\nnohup bash scripts/serve_vllm.sh > v.log 2>&1 &\nbash scripts/serve_sglang.sh\n",
    });
    const served = [...new Set(found.filter((f) => f.data?.endpoint).map((f) => f.file))].sort();
    expect(served).toEqual(["scripts/serve_sglang.sh", "scripts/serve_vllm.sh"]);
    expect(launchers(found)).toEqual([
      "scripts/run_one.sh -> scripts/serve_sglang.sh",
      "scripts/run_one.sh -> scripts/serve_vllm.sh",
    ]);
  });
});

describe("a script that runs the repository's console script", () => {
  it("starts the engine the script's module starts (`uv run inference-lab serve`)", async () => {
    const cli =
      'import subprocess, sys\ndef serve(cfg):\n    subprocess.run([sys.executable, "-m", "sglang.launch_server", *cfg])\n';
    const files = {
      "pyproject.toml":
        '[project]\nname = "inference-lab"\n[project.scripts]\ninference-lab = "inference_lab.cli:main"\n',
      "src/inference_lab/cli.py": cli,
      "scripts/serve.sh":
        '#!/usr/bin/env bash\nexec uv run --extra cuda inference-lab serve --model "${MODEL:-m}" "$@"\n',
    };
    const found = await preflight(files);
    expect([...new Set(found.filter((f) => f.data?.endpoint).map((f) => f.file))]).toEqual(["scripts/serve.sh"]);
    // the entry point may hand the work to a sibling module it imports
    const handed = await preflight({
      ...files,
      "src/inference_lab/cli.py": "from .runner import serve\n",
      "src/inference_lab/runner.py": cli,
    });
    expect([...new Set(handed.filter((f) => f.data?.endpoint).map((f) => f.file))]).toEqual(["scripts/serve.sh"]);
    // the same script with no such console script declared starts nothing
    const none = await preflight({ ...files, "pyproject.toml": '[project]\nname = "inference-lab"\n' });
    expect(none.filter((f) => f.data?.endpoint)).toEqual([]);
  });
});

describe("one engine launch removed from a file that keeps another", () => {
  it("reports the flags only the removed launch passed, at their base lines", async () => {
    const r = tempRepo();
    repos.push(r);
    const service = (name: string, extra: string[]) =>
      [
        `  ${name}:`,
        "    image: ghcr.io/ggml-org/llama.cpp:server-cuda",
        "    command:",
        "      - --port",
        "      - '8080'",
        "      - --jinja",
        ...extra.map((x) => `      - ${x}`),
      ].join("\n");
    const gemma = service("gemma", ["-m", "/models/gemma.gguf"]);
    const qwen = service("qwen", ["-m", "/models/qwen.gguf", "--spec-type", "draft-mtp", "--cache-type-k", "q8_0"]);
    r.commit("two models", { "compose.yaml": `services:\n${gemma}\n${qwen}\n` });
    r.commit("only deploy gemma", { "compose.yaml": `services:\n${gemma}\n` });
    let out = "";
    await main(["preflight", "--json", "--base", "HEAD~1"], {
      out: (s) => (out += s),
      err: () => {},
      isTTY: false,
      env: {},
      cwd: r.dir,
    });
    const dropped = (JSON.parse(out) as Report).findings.filter(
      (f) => f.check === "preflight.dropped-flags" && f.status !== "pass" && f.status !== "skip",
    );
    expect(dropped.map((f) => [f.data?.part, f.data?.flag, f.data?.baseLine])).toEqual([
      ["qwen", "--spec-type", 18],
      ["qwen", "--cache-type-k", 20],
    ]);
  });
});

describe("a launch gone whole from a manifest a plain kustomize directory lists", () => {
  it("is compared with the base like any manifest (the directory is no overlay)", async () => {
    const r = tempRepo();
    repos.push(r);
    const dep = (container: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: vllm-server}\nspec:\n  template:\n    spec:\n      containers:\n${container}`;
    r.commit("vllm", {
      "k8s/vllm/kustomization.yaml": "resources:\n  - deployment.yaml\n",
      "k8s/vllm/deployment.yaml": dep(
        '        - name: vllm-server\n          image: vllm/vllm-openai:v0.11.0\n          command: ["/bin/sh", "-c"]\n          args: ["vllm serve m --max-model-len 26000 --trust-remote-code"]\n',
      ),
    });
    r.commit("our own server", {
      "k8s/vllm/deployment.yaml": dep("        - name: vllm-server\n          image: team/gearhawk:latest\n"),
    });
    let out = "";
    await main(["preflight", "--json", "--base", "HEAD~1"], {
      out: (s) => (out += s),
      err: () => {},
      isTTY: false,
      env: {},
      cwd: r.dir,
    });
    const gone = (JSON.parse(out) as Report).findings.filter((f) => f.data?.launchGone);
    expect(gone.map((f) => [f.file, f.data?.flag, f.data?.baseLine])).toEqual([
      ["k8s/vllm/deployment.yaml", "--max-model-len", 11],
      ["k8s/vllm/deployment.yaml", "--trust-remote-code", 11],
    ]);
  });
});

describe("starters that run the repository's serve script beside other services (round AD)", () => {
  const SERVE = "#!/bin/bash\nexec vllm serve /models/m --port 8000\n";

  it("a tmux window whose command string runs it through conda; a starter that also brings up a compose stack", async () => {
    const found = await preflight({
      "scripts/vllm_service_startup.sh": SERVE,
      "start_all.sh": [
        "#!/bin/bash",
        'SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)"',
        'CMD_VLLM="conda run -n base --no-capture-output bash ${SCRIPT_DIR}/scripts/vllm_service_startup.sh; exec bash"',
        "tmux new-session -d -s services -n shell",
        'tmux new-window -t services -n vllm "$CMD_VLLM"',
        "",
      ].join("\n"),
      "up.sh": "#!/bin/bash\ndocker-compose up -d weaviate\nscripts/vllm_service_startup.sh > /tmp/llm.log 2>&1 &\n",
    });
    expect(launchers(found)).toEqual([
      "start_all.sh -> scripts/vllm_service_startup.sh",
      "up.sh -> scripts/vllm_service_startup.sh",
    ]);
  });
});
