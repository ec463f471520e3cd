// preflight on a compose file that builds its engine's image from the repository (real git repositories, through
// the CLI): the Dockerfile and the script it copies in are read at each commit, so a service whose compose file
// names no engine is found, a notebook image named like an engine is not, and a flag the service's command drops
// is traced.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { composeInputsSync } from "../../../src/stages/compose-inputs.js";
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

const COMPOSE = [
  "services:",
  "  model:",
  "    build:",
  "      context: ./server",
  "    image: acme/model:latest",
  "    ipc: host",
  "    command:",
  "      - --enable-auto-tool-choice",
  "      - --tool-call-parser",
  "      - hermes",
  "  notebook:",
  "    build: ./notebook",
  "    image: acme/vllm-notebook",
  "",
].join("\n");
const FILES = {
  "docker-compose.yml": COMPOSE,
  "server/Dockerfile":
    'FROM nvidia/cuda:12.8.0-runtime-ubuntu24.04\nCOPY start.sh /start.sh\nENTRYPOINT ["/start.sh"]\n',
  "server/start.sh": '#!/bin/bash\nexec vllm serve "$MODEL" "$@"\n',
  "notebook/Dockerfile": 'FROM jupyter/base-notebook\nCMD ["jupyter", "lab", "--no-browser"]\n',
};

describe("preflight: compose services built from the repository", () => {
  it("finds the service whose Dockerfile runs the engine, not the notebook named after it, and traces a drop", async () => {
    const r = tempRepo();
    repos.push(r);
    const base = r.commit("add", FILES);
    const first = await preflight(r.dir);
    const parts = of(first, "preflight.traps").map((f) => [f.file, f.data?.part ?? null]);
    // (the image's script is a launch file of its own too: it starts vLLM)
    expect(parts).toEqual([
      ["docker-compose.yml", "model"],
      ["server/start.sh", null],
    ]);
    r.commit("drop the tool parser", {
      "docker-compose.yml": COMPOSE.replace("      - --enable-auto-tool-choice\n", ""),
    });
    const report = await preflight(r.dir, "--base", base);
    const drops = of(report, "preflight.dropped-flags").filter((f) => f.status !== "pass");
    expect(drops.map((f) => [f.file, f.data?.flag, f.data?.baseLine])).toEqual([
      ["docker-compose.yml", "--enable-auto-tool-choice", 8],
    ]);
  });

  it("reads the Dockerfile as it was at the base commit", async () => {
    const r = tempRepo();
    repos.push(r);
    // at the base the image ran a web app; the head makes it run vLLM: no launch existed to drop flags from
    const base = r.commit("add", { ...FILES, "server/start.sh": "#!/bin/sh\nexec uvicorn app:app\n" });
    // (read with the head's script, the base would have started vLLM with the flag this commit removes)
    r.commit("serve", {
      "server/start.sh": FILES["server/start.sh"],
      "docker-compose.yml": COMPOSE.replace("      - --enable-auto-tool-choice\n", ""),
    });
    const report = await preflight(r.dir, "--base", base);
    expect(of(report, "preflight.dropped-flags").filter((f) => f.status !== "pass")).toEqual([]);
    expect(of(report, "preflight.traps").map((f) => f.file)).toEqual(["docker-compose.yml", "server/start.sh"]);
  });

  it("fills a build's context and dockerfile from the committed .env.example when there is no .env", async () => {
    const r = tempRepo();
    repos.push(r);
    const compose = [
      "services:",
      "  llama:",
      "    build:",
      "      context: ${BUILD_CONTEXT}",
      "      dockerfile: ${LLAMA_DOCKERFILE}",
      "    command: ${LLAMA_ARGS}",
      "    ports: ['8080:8080']",
      "",
    ].join("\n");
    r.commit("add", {
      "docker-compose.yml": compose,
      ".env.example": "BUILD_CONTEXT=.\nLLAMA_DOCKERFILE=llama-cuda/Dockerfile\nLLAMA_ARGS=-m /models/m.gguf -ngl 99\n",
      "llama-cuda/Dockerfile": 'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nENTRYPOINT ["/app/llama-server"]\n',
    });
    const report = await preflight(r.dir);
    const traps = of(report, "preflight.traps");
    expect(traps.map((f) => [f.file, f.data?.part ?? null])).toEqual([["docker-compose.yml", "llama"]]);
    // which Dockerfile is built is the template's; the argv is the deployed .env's, not read from the template
    const files: Record<string, string> = {
      ".env.example": "BUILD_CONTEXT=.\nLLAMA_DOCKERFILE=llama-cuda/Dockerfile\nLLAMA_ARGS=-m /m.gguf\n",
      "llama-cuda/Dockerfile": 'FROM x\nENTRYPOINT ["/app/llama-server"]\n',
    };
    const inputs = composeInputsSync((p) => files[p] ?? null, "docker-compose.yml", compose);
    const engine = parseLaunch("compose", compose, inputs).engine;
    expect([engine?.kind, engine?.flags.length]).toEqual(["llama.cpp", 0]);
    // a .env of its own is what compose reads: the template is not consulted
    files[".env"] = "LLAMA_ARGS=\n";
    const own = composeInputsSync((p) => files[p] ?? null, "docker-compose.yml", compose);
    expect(parseLaunch("compose", compose, own).engine).toBeNull();
  });

  it("follows an entrypoint that hands off through the repository's launcher to its serve script", async () => {
    // (the shape of a field compose file: ENTRYPOINT docker-entrypoint.sh -> bash start_all.sh -> start_server.sh)
    const compose = "services:\n  ocr:\n    build:\n      context: ..\n      dockerfile: docker/Dockerfile\n";
    const files: Record<string, string> = {
      "docker/docker-compose.yml": compose,
      "docker/Dockerfile": [
        "FROM nvidia/cuda:12.8.0-runtime-ubuntu24.04",
        "WORKDIR /app",
        "COPY . /app",
        "COPY docker/docker-entrypoint.sh /app/docker-entrypoint.sh",
        'ENTRYPOINT ["/app/docker-entrypoint.sh"]',
        "",
      ].join("\n"),
      "docker/docker-entrypoint.sh":
        '#!/bin/bash\nPROJECT_DIR="$(cd "$(dirname "$0")" && pwd)"\ncd "$PROJECT_DIR"\nbash start_all.sh\n',
      "start_all.sh":
        '#!/bin/bash\nPROJECT_DIR="$(cd "$(dirname "$0")" && pwd)"\nbash "$PROJECT_DIR/start_server.sh" q5\n',
      "start_server.sh": "#!/bin/bash\nnohup ./bin/llama-server -m model.gguf --port 8080 > logs/llama.log 2>&1 &\n",
    };
    const read = (p: string) => files[p] ?? null;
    const inputs = composeInputsSync(read, "docker/docker-compose.yml", compose);
    expect([...inputs.builds.keys()].sort()).toEqual([
      "docker/Dockerfile",
      "docker/docker-entrypoint.sh",
      "start_all.sh",
      "start_server.sh",
    ]);
    expect(parseLaunch("compose", compose, inputs).engine?.kind).toBe("llama.cpp");
    // the chain broken (the launcher runs a web app only): the service starts no engine
    const web: Record<string, string> = { ...files, "start_all.sh": "#!/bin/bash\nexec uvicorn app:app\n" };
    const none = composeInputsSync((p) => web[p] ?? null, "docker/docker-compose.yml", compose);
    expect(parseLaunch("compose", compose, none).engine).toBeNull();
    // through the CLI on a real repository: the compose file is a launch of its own, beside the serve script
    const r = tempRepo();
    repos.push(r);
    r.commit("add", files);
    const report = await preflight(r.dir);
    expect([...new Set(of(report, "preflight.traps").map((f) => f.file))].sort()).toEqual([
      "docker/docker-compose.yml",
      "start_server.sh",
    ]);
  });

  it("builds a lowercase dockerfile when the context has no Dockerfile and the service names none", () => {
    // (docker's CLI, getDockerfileRelPath: without -f it looks for `dockerfile` too; so did Compose v1)
    const compose = "services:\n  llm-gpu:\n    build: ./llm-gpu\n    runtime: nvidia\n";
    const files: Record<string, string> = {
      "llm-gpu/dockerfile":
        'FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n',
      "llm-gpu/entrypoint.sh":
        "#!/bin/bash\ncd /app/llama.cpp && exec ./bin/llama-server -m /models/m.gguf --port 5001\n",
    };
    const inputs = composeInputsSync((p) => files[p] ?? null, "docker-compose.yml", compose);
    expect([...inputs.builds.keys()]).toEqual(["llm-gpu/dockerfile", "llm-gpu/entrypoint.sh"]);
    expect(parseLaunch("compose", compose, inputs).engine?.kind).toBe("llama.cpp");
    // a Dockerfile beside it is the one built; a named file is never swapped for another
    const both: Record<string, string> = {
      ...files,
      "llm-gpu/Dockerfile": 'FROM python:3.12\nCMD ["python", "app.py"]\n',
    };
    const own = composeInputsSync((p) => both[p] ?? null, "docker-compose.yml", compose);
    expect(parseLaunch("compose", compose, own).engine).toBeNull();
    const named = compose.replace("build: ./llm-gpu", "build:\n      context: ./llm-gpu\n      dockerfile: Dockerfile");
    const none = composeInputsSync((p) => files[p] ?? null, "docker-compose.yml", named);
    expect(parseLaunch("compose", named, none).engine).toBeNull();
  });
});
