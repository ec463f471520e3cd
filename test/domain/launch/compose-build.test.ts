// A compose service built from the repository runs what its Dockerfile makes the image run: the base engine image,
// the ENTRYPOINT/CMD (BuildKit's inheritance and reset), or the script a COPY put in; the `image:` tag's name does not
// decide. Flags the Dockerfile writes are not the compose file's.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { buildFiles } from "../../../src/domain/launch/compose.js";
import { copiedFrom, parseDockerfile } from "../../../src/domain/launch/dockerfile.js";

const compose = (svc: string) => `services:\n  app:\n${svc}`;
/** parts of a compose file whose repository holds `files` (path -> text), read as preflight reads them */
function parts(text: string, files: Record<string, string>, dir = "") {
  const builds = buildFiles(text, (p) => files[p] ?? null, dir);
  return parseLaunchParts("compose", text, { builds, dir });
}
const engineOf = (ps: ReturnType<typeof parts>) => ps.map((p) => p.script.engine?.kind ?? null);
const flagsOf = (ps: ReturnType<typeof parts>) => ps[0]!.script.engine?.flags.map((f) => `${f.name}@${f.line}`) ?? null;

describe("parseDockerfile", () => {
  it("follows the final stage through the file's own stages and fills FROM from global ARG defaults", () => {
    const df = parseDockerfile(
      [
        "ARG BASE=vllm/vllm-openai:v0.9.2",
        "FROM ${BASE} AS runtime",
        'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]',
        "FROM runtime",
        "COPY start.sh /app/",
      ].join("\n"),
      "Dockerfile",
    );
    expect(df.base).toEqual({ text: "vllm/vllm-openai:v0.9.2", line: 2 });
    expect(df.entrypoint?.map((w) => w.text)).toEqual(["python3", "-m", "vllm.entrypoints.openai.api_server"]);
    expect(df.entrypoint?.[0]?.file).toBe("Dockerfile");
    expect(copiedFrom(df, "/app/start.sh")).toBe("start.sh");
  });

  it("clears an inherited CMD when a stage sets ENTRYPOINT, keeps a CMD the same stage set (BuildKit)", () => {
    const reset = parseDockerfile('FROM a AS one\nCMD ["x"]\nFROM one\nENTRYPOINT ["y"]\n', "D");
    expect(reset.cmd).toBeNull();
    const kept = parseDockerfile('FROM a\nCMD ["x"]\nENTRYPOINT ["y"]\n', "D");
    expect(kept.cmd?.map((w) => w.text)).toEqual(["x"]);
  });

  it("joins continuation lines, skips comments inside them and heredoc bodies, and reads the shell form", () => {
    const df = parseDockerfile(
      [
        "FROM python:3.11",
        "RUN <<EOF",
        'CMD ["not", "an", "instruction"]',
        "EOF",
        "CMD vllm serve /models/m \\",
        "  # a comment",
        "  --port 8000",
      ].join("\n"),
      "D",
    );
    expect(df.cmd?.map((w) => w.text)).toEqual(["vllm", "serve", "/models/m", "--port", "8000"]);
    expect(df.cmd?.[0]?.line).toBe(5);
  });

  it("maps a directory copy and WORKDIR-relative destinations back to the context", () => {
    const df = parseDockerfile("FROM x\nWORKDIR /srv\nCOPY scripts/ ./bin/\nCOPY requirements.txt /opt/\n", "D");
    expect(copiedFrom(df, "/srv/bin/run.sh")).toBe("scripts/run.sh");
    expect(copiedFrom(df, "/opt/run.sh")).toBeNull();
  });
});

describe("a compose service built from the repository", () => {
  it("runs the engine image its Dockerfile builds on when the Dockerfile keeps its entrypoint", () => {
    const text = compose(
      '    build: ./vllm\n    image: my-llm:latest\n    command: ["--model", "m", "--port", "8000"]\n',
    );
    const ps = parts(text, { "vllm/Dockerfile": "FROM vllm/vllm-openai:v0.10.0\nRUN pip install x\n" });
    expect(engineOf(ps)).toEqual(["vllm"]);
    expect(flagsOf(ps)).toEqual(["--model@5", "--port@5"]);
  });

  it("runs the Dockerfile's ENTRYPOINT with the service's command as its arguments", () => {
    const text = compose(
      '    build:\n      context: .\n      dockerfile: docker/Dockerfile.serve\n    command:\n      - --max-model-len\n      - "8192"\n',
    );
    const ps = parts(text, {
      "docker/Dockerfile.serve":
        'FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server", "--port", "8000"]\n',
    });
    expect(engineOf(ps)).toEqual(["vllm"]);
    // --port is the Dockerfile's, on its own line there: not this file's
    expect(flagsOf(ps)).toEqual(["--max-model-len@7"]);
    expect(ps[0]!.script.engine?.builtBy).toMatch(/ENTRYPOINT \(docker\/Dockerfile.serve\)/);
  });

  it("is no engine when the Dockerfile runs a notebook, whatever the image tag is called", () => {
    const text = compose('    build: .\n    image: llamacpp:rag\n    ports: ["8888:8888"]\n');
    const files = {
      Dockerfile: 'FROM langchain-base\nRUN pip install llama-cpp-python\nCMD ["jupyter", "lab", "--ip=0.0.0.0"]\n',
    };
    expect(engineOf(parts(text, files))).toEqual([null]);
    // without the Dockerfile the tag's name is all there is to go on
    expect(engineOf(parts(text, {}))).toEqual(["llama.cpp"]);
  });

  it("follows the ENTRYPOINT to the script a COPY put in, and reads what the script starts", () => {
    const text = compose("    build: .\n    image: laguna:latest\n    ipc: host\n");
    const files = {
      Dockerfile:
        'FROM nvidia/cuda:12.8.0-devel-ubuntu22.04\nCOPY entrypoint.sh /entrypoint.sh\nENTRYPOINT ["/entrypoint.sh"]\n',
      "entrypoint.sh": '#!/bin/bash\nset -e\nexec vllm serve "${MODEL}" \\\n  --max-num-seqs "${MAX_NUM_SEQS:-8}"\n',
    };
    const ps = parts(text, files);
    expect(engineOf(ps)).toEqual(["vllm"]);
    expect(flagsOf(ps)).toEqual([]);
    expect(ps[0]!.script.engine?.builtBy).toMatch(/^entrypoint\.sh, the image's ENTRYPOINT/);
    // the same script starting a web app: no engine
    const app = { ...files, "entrypoint.sh": "#!/bin/sh\nexec uvicorn app:app --port 8080\n" };
    expect(engineOf(parts(text, app))).toEqual([null]);
  });

  it("hands the service's command to an engine script that passes its arguments on", () => {
    const text = compose('    build: ./srv\n    command: ["--tool-call-parser", "hermes"]\n');
    const files = {
      "srv/Dockerfile": 'FROM python:3.12\nWORKDIR /app\nCOPY run.sh .\nENTRYPOINT ["bash", "run.sh"]\n',
      "srv/run.sh": '#!/bin/bash\nexec python -m sglang.launch_server --model-path "$MODEL" "$@"\n',
    };
    const ps = parts(text, files);
    expect(engineOf(ps)).toEqual(["sglang"]);
    expect(flagsOf(ps)).toEqual(["--tool-call-parser@4"]);
  });

  it("reads the files from the compose file's own directory", () => {
    const reads: string[] = [];
    buildFiles(compose("    build: ../docker\n"), (p) => (reads.push(p), null), "deploy/compose");
    // (with no Dockerfile there, the lowercase `dockerfile` docker's CLI also builds, in the same directory)
    expect(reads).toEqual(["deploy/docker/Dockerfile", "deploy/docker/dockerfile"]);
  });
});

describe("a built image's Python program that imports the module starting the engine (set AE1)", () => {
  const DOCKERFILE = [
    "FROM python:3.11-slim",
    "WORKDIR /app",
    "COPY app/ /app/",
    'CMD ["python3", "shared/server.py"]',
    "",
  ].join("\n");
  const SERVER = "import uvicorn\nfrom shared.wrapper import make_app\nuvicorn.run(make_app())\n";
  const WRAPPER = [
    "import subprocess",
    "def make_app():",
    '    proc = subprocess.Popen(["/usr/local/bin/llama-server", "--model", "/m.gguf", "--port", "8081"])',
    "",
  ].join("\n");
  const text = compose("    build:\n      context: .\n      dockerfile: app/Dockerfile\n");

  it("starts that engine, its flags the program's own (none of the compose file's)", () => {
    const ps = parts(text, {
      "app/Dockerfile": DOCKERFILE,
      "app/shared/server.py": SERVER,
      "app/shared/wrapper.py": WRAPPER,
    });
    expect(engineOf(ps)).toEqual(["llama.cpp"]);
    expect(flagsOf(ps)).toEqual([]);
  });

  it("starts nothing when no imported module starts an engine, or the module is not in the image", () => {
    const plain = { "app/Dockerfile": DOCKERFILE, "app/shared/server.py": SERVER };
    expect(engineOf(parts(text, { ...plain, "app/shared/wrapper.py": "def make_app():\n    return None\n" }))).toEqual([
      null,
    ]);
    // the wrapper lives outside what the image copies
    expect(engineOf(parts(text, { ...plain, "shared/wrapper.py": WRAPPER }))).toEqual([null]);
  });
});
