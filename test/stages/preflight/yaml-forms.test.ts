// preflight on compose files and Kubernetes manifests, through the CLI on real temporary git repositories:
// discovered per service or container, never run through bash -n, drops traced per part.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

async function preflight(cwd: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd });
  return JSON.parse(out) as Report;
}
const of = (r: Report, check: string) => r.findings.filter((f: Finding) => f.check === check);

const COMPOSE = `services:
  chat:
    image: vllm/vllm-openai:v0.10.1
    command: >
      --model Qwen/Qwen3-8B
      --reasoning-parser qwen3
      --max-model-len 32768
  coder:
    image: vllm/vllm-openai:v0.10.1
    command: ["--model", "Qwen/Qwen3-Coder", "--enable-auto-tool-choice", "--tool-call-parser", "qwen3_coder"]
  redis:
    image: redis:7
    command: redis-server --appendonly yes
`;
const MANIFEST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama
spec:
  template:
    spec:
      containers:
        - name: server
          image: ghcr.io/ggml-org/llama.cpp:server
          args: ["-m", "/models/q.gguf", "--jinja", "-c", "16384", "--port", "8080"]
`;

describe("preflight: compose files and manifests", () => {
  it("discovers one target per engine service or container, and none for other YAML", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", {
      "docker-compose.yml": COMPOSE,
      "k8s/llama.yaml": MANIFEST,
      ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: vllm serve m\n",
      "db/compose.yaml": "services:\n  pg:\n    image: postgres:16\n",
    });
    const report = await preflight(r.dir);
    expect(of(report, "preflight.bash-syntax")).toEqual([]);
    const parts = of(report, "preflight.traps").map((f) => [f.file, f.data?.part ?? null]);
    expect(parts).toEqual([
      ["docker-compose.yml", "chat"],
      ["docker-compose.yml", "coder"],
      ["k8s/llama.yaml", "Deployment/llama/server"],
    ]);
  });

  it("reads a script that only runs `docker compose up` as the compose file's launcher, not as an engine", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", {
      "docker-compose.yml": COMPOSE,
      "scripts/up.sh":
        '#!/bin/bash\nset -e\ncd "$(dirname "$0")/.."\ndocker compose up -d\ncurl -sf localhost:8000/health\n',
    });
    const report = await preflight(r.dir);
    const traps = of(report, "preflight.traps");
    // the script is no target of its own: the compose services are, each naming the script that starts them
    expect(traps.map((f) => [f.file, f.data?.part ?? null, f.data?.launcher ?? null])).toEqual([
      ["docker-compose.yml", "chat", "scripts/up.sh"],
      ["docker-compose.yml", "coder", "scripts/up.sh"],
    ]);
  });

  it("traces a flag dropped from one service to that service, and leaves the other silent", async () => {
    const r = tempRepo();
    repos.push(r);
    const first = r.commit("add", { "docker-compose.yml": COMPOSE });
    r.commit("tune", { "docker-compose.yml": COMPOSE.replace("      --reasoning-parser qwen3\n", "") });
    const report = await preflight(r.dir, "--base", first);
    const drops = of(report, "preflight.dropped-flags");
    expect(drops.map((f) => [f.status, f.data?.part, f.data?.flag ?? null, f.data?.baseLine ?? null])).toEqual([
      ["fail", "chat", "--reasoning-parser", 6],
      ["pass", "coder", null, null],
    ]);
    expect(drops[0]!.summary).toContain("docker-compose.yml (chat):");
  });

  it("reads a YAML file named as an endpoint's script as the compose file it is: contracts, no bash -n", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", {
      "docker-compose.yml": COMPOSE,
      "deploy-gate.yml":
        'version: 1\nendpoints:\n  chat:\n    script: docker-compose.yml\n    contracts:\n      flags: ["--reasoning-parser qwen3", "--max-model-len 32768"]\n',
    });
    const report = await preflight(r.dir);
    expect(of(report, "preflight.bash-syntax")).toEqual([]);
    expect(of(report, "preflight.contracts").map((f) => [f.status, f.summary])).toEqual([
      ["pass", "docker-compose.yml: 2 of 2 contract flags present"],
    ]);
  });
});
