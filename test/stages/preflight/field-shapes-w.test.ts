// Discovery on shapes held-out round W found, each written here in our own words, on real files in a temporary
// directory: a unit the repository ships as a template its setup fills in (`llm.service.template`, `@@ROOT@@` in
// ExecStart=) pairs with the script it runs; a Slurm job that hands the launch to a serve script through `srun
// --container-image=...`; a root compose file that only `include:`s the file with the engine service; and set I2's
// wrapper naming the serve script by a path written from the directory above the checkout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), "dg-w-"));
  dirs.push(root);
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), t);
  }
  return discoverTargets(root, Object.keys(files)).map((t) => [t.scriptPath, t.unitPath, t.launcher ?? null]);
}

const SERVE =
  '#!/bin/bash\nBIN="$(find "$ROOT/vendor" -type f -name llama-server | head -1)"\nexec "$BIN" --port 8080 -c 4096\n';
const UNIT = "[Unit]\nDescription=llm\n[Service]\nExecStart=@@ROOT@@/scripts/run_llama_server.sh\nRestart=always\n";

describe("discovery of round W's shapes", () => {
  it("a binary found with `find ... -name llama-server`, and the unit template that runs its script", () => {
    expect(tree({ "scripts/run_llama_server.sh": SERVE, "deploy/llama-server.service.template": UNIT })).toEqual([
      ["scripts/run_llama_server.sh", "deploy/llama-server.service.template", null],
    ]);
  });

  it("a template with no [Service] ExecStart= is no unit, and a plain text file is no candidate", () => {
    expect(
      tree({ "scripts/run_llama_server.sh": SERVE, "deploy/x.service.template": "[Unit]\nDescription=x\n" }),
    ).toEqual([["scripts/run_llama_server.sh", null, null]]);
  });

  it("a Slurm job running the serve script through srun's container plugin is its launcher", () => {
    const job = [
      "#!/bin/bash",
      "#SBATCH --job-name=serve",
      'srun --nodes=1 --ntasks=1 --container-image="${VLLM_IMAGE}" --container-workdir=/workspace \\',
      "  bash /workspace/scripts/launch_vllm.sh",
      "",
    ].join("\n");
    const serve = "#!/bin/bash\nvllm serve /models/m --port 8000 --enable-prefix-caching\n";
    expect(tree({ "slurm/serve.sbatch": job, "scripts/launch_vllm.sh": serve })).toEqual([
      ["scripts/launch_vllm.sh", null, "slurm/serve.sbatch"],
    ]);
  });

  it("a root compose file that includes the engine's compose file is its launcher; other includes change nothing", () => {
    const root = "include:\n  - llama/docker-compose.yml\n  - path: n8n/docker-compose.yml\n";
    const llama =
      "services:\n  llama:\n    image: ghcr.io/ggml-org/llama.cpp:server-cuda\n    command: -m /models/m.gguf --port 8080\n";
    const n8n = "services:\n  n8n:\n    image: n8nio/n8n\n";
    expect(
      tree({ "docker-compose.yml": root, "llama/docker-compose.yml": llama, "n8n/docker-compose.yml": n8n }),
    ).toEqual([["llama/docker-compose.yml", null, "docker-compose.yml"]]);
  });

  it("a wrapper that runs the serve script by a path written from the directory above the checkout", () => {
    const serve = '#!/bin/bash\nexec vllm serve /models/m --port 8000 "$@"\n';
    const wrapper = "#!/bin/bash\nexport X=1\nexec work/exp/a/run-server.sh --speculative-config '{}' \"$@\"\n";
    expect(tree({ "exp/a/run-server.sh": serve, "exp/b/run-server.sh": wrapper })).toEqual([
      ["exp/a/run-server.sh", null, "exp/b/run-server.sh"],
    ]);
    // a written path whose tail is no file of the repository names none
    const gone = wrapper.replace("work/exp/a/", "work/other/");
    expect(tree({ "exp/a/run-server.sh": serve, "exp/b/run-server.sh": gone })).toEqual([
      ["exp/a/run-server.sh", null, null],
    ]);
  });
});

describe("a script whose launch is the team's own Python program (sets T2 and Y2)", () => {
  const start = "#!/bin/bash\nsource .venv/bin/activate\nexec python3 -m src.llm.vllm_runner\n";
  it("is a serve script when the program's source starts vLLM's server", () => {
    const runner = 'import subprocess\nsubprocess.run(["vllm", "serve", MODEL, "--port", "8000"])\n';
    expect(tree({ "scripts/start_llm.sh": start, "src/llm/vllm_runner.py": runner })).toEqual([
      ["scripts/start_llm.sh", null, null],
    ]);
  });

  it("is none when the program only calls a server, or is not in the repository", () => {
    const client = "from openai import OpenAI\nOpenAI(base_url='http://localhost:8000/v1')\n";
    expect(tree({ "scripts/start_llm.sh": start, "src/llm/vllm_runner.py": client })).toEqual([]);
    expect(tree({ "scripts/start_llm.sh": start })).toEqual([]);
  });
});
