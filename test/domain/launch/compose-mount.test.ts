// A compose service whose program is a script the file bind-mounts from the repository runs what that script starts
// (round AA's isann llama shape, in our own words); a built image whose CMD is a Python program runs what that
// program starts: nothing of the three engines for a benchmark that imports vLLM's offline class (Kyrie's shape).
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { buildFiles } from "../../../src/domain/launch/compose.js";

function parts(text: string, files: Record<string, string>, dir = "") {
  const builds = buildFiles(text, (p) => files[p] ?? null, dir);
  return parseLaunchParts("compose", text, { builds, dir });
}
const engines = (ps: ReturnType<typeof parts>) =>
  ps.map((p) => [p.script.engine?.kind ?? null, p.script.engine?.flags.map((f) => f.name) ?? null]);

const RUN =
  '#!/bin/sh\nset -eu\n. /conf/env\nexec /usr/local/bin/llama-server --model "/models/$MODEL" --port 8080 "$@"\n';
const service = (volume: string, argv: string) => `services:
  llm:
    image: registry.example/team/llm:latest
    volumes:
      - ${volume}
${argv}`;

describe("a compose service running a script it mounts from the repository", () => {
  it("starts what the script starts, the words after the script handed on when the script passes them", () => {
    const text = service(
      "./scripts/run.sh:/run.sh:ro",
      '    entrypoint: ["/bin/sh", "/run.sh"]\n    command: [--jinja]\n',
    );
    expect(engines(parts(text, { "llama/scripts/run.sh": RUN }, "llama"))).toEqual([["llama.cpp", ["--jinja"]]]);
  });

  it("finds the script under a mounted directory, and through the command when the image is no engine's", () => {
    const text = service("./bin:/opt/bin", "    command: bash /opt/bin/run.sh\n");
    expect(engines(parts(text, { "bin/run.sh": RUN }))).toEqual([["llama.cpp", []]]);
  });

  it("reads nothing from a named volume, a host path or a script outside the repository", () => {
    for (const volume of ["scripts:/run.sh", "/srv/run.sh:/run.sh", "../../run.sh:/run.sh"]) {
      const text = service(volume, '    entrypoint: ["/bin/sh", "/run.sh"]\n');
      expect(engines(parts(text, { "run.sh": RUN, "scripts/run.sh": RUN }, "a"))).toEqual([[null, null]]);
    }
  });

  it("a command of flags naming a mounted config file runs no script (llama-swap's -config)", () => {
    const text = service("./config.yaml:/app/config.yaml:ro", '    command: ["-config", "/app/config.yaml"]\n');
    const config = "models:\n  m:\n    cmd: |\n      llama-server --port ${PORT} -m /models/m.gguf\n";
    expect(engines(parts(text, { "config.yaml": config }))).toEqual([[null, null]]);
  });

  it("a script that starts none of the engines leaves the service as it was read", () => {
    const text = service("./start.sh:/start.sh", "    entrypoint: /start.sh\n");
    expect(engines(parts(text, { "start.sh": "#!/bin/sh\nexec gunicorn app:app\n" }))).toEqual([[null, null]]);
  });
});

describe("a built image whose CMD is a Python program", () => {
  const DOCKERFILE =
    'FROM ubuntu:22.04\nWORKDIR /app\nCOPY bench_vllm.py .\nCOPY serve_vllm.py .\nCMD ["python", "bench_vllm.py"]\n';
  const text = "services:\n  vllm:\n    build: {context: ., dockerfile: Dockerfile.vllm}\n";

  it("starts nothing when the program only uses the engine's library (an offline benchmark)", () => {
    const bench = "from vllm import LLM, SamplingParams\nllm = LLM(model='m', tensor_parallel_size=2)\n";
    expect(engines(parts(text, { "Dockerfile.vllm": DOCKERFILE, "bench_vllm.py": bench }))).toEqual([[null, null]]);
  });

  it("starts the engine the program runs as a process, its flags unknown here", () => {
    const serve = 'import subprocess\nsubprocess.run(["vllm", "serve", "m", "--port", "8000"])\n';
    const df = DOCKERFILE.replace('"bench_vllm.py"]', '"serve_vllm.py"]');
    expect(engines(parts(text, { "Dockerfile.vllm": df, "serve_vllm.py": serve }))).toEqual([["vllm", []]]);
  });
});
