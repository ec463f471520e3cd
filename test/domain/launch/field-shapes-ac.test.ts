// Shapes held-out round AC found, each written here in our own words: the set -u safe spelling of an array's words
// (`"${A[@]+"${A[@]}"}"`) among a docker run's options; an array a `test &&` clears only off the defaults; a
// HelmRelease whose controller and container keys are YAML aliases (`*app :`, `? *app`); an app-template startup
// probe enabled without `custom:` (the chart renders it: liveness waits for it).
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import {
  consoleScriptPrograms,
  consoleScripts,
  launchedEngine,
  pyprojectPaths,
  pythonPrograms,
  relativeImports,
} from "../../../src/domain/launch/python-launcher.js";

const flags = (text: string) => parseLaunch("script", text).engine?.flags.map((f) => f.name) ?? null;

describe("array words spelt for set -u", () => {
  it('"${A[@]+"${A[@]}"}" among docker run options is the array\'s words, none when it is empty', () => {
    const run = (arr: string) =>
      [
        "#!/bin/bash",
        `extra=(${arr})`,
        "IMAGE=${IMAGE:-lmsysorg/sglang:v0.5.4}",
        "exec docker run --rm --gpus all \\",
        '  "${extra[@]+"${extra[@]}"}" \\',
        '  "$IMAGE" \\',
        "  python3 -m sglang.launch_server --model-path /m --tp 2",
        "",
      ].join("\n");
    expect(parseLaunch("script", run("")).engine?.kind).toBe("sglang");
    expect(flags(run(""))).toEqual(["--model-path", "--tp"]);
    const withShm = parseLaunch("script", run("--shm-size 32g")).engine;
    expect(withShm?.flags.map((f) => f.name)).toEqual(["--model-path", "--tp"]);
    expect(withShm?.podmanRun?.shmSize).toBeTruthy();
  });
});

describe("an array cleared by a test the defaults make false", () => {
  const script = (dflt: string) =>
    [
      "#!/bin/bash",
      `GRAPH="\${GRAPH:-${dflt}}"`,
      "GRAPH_ARGS=(--disable-prefill-cuda-graph)",
      '[[ "${GRAPH}" == "1" ]] && GRAPH_ARGS=()',
      'python3 -m sglang.launch_server --model-path /m "${GRAPH_ARGS[@]}"',
      "",
    ].join("\n");

  it("keeps its words by default, and loses them when the default takes the test", () => {
    expect(flags(script("0"))).toEqual(["--model-path", "--disable-prefill-cuda-graph"]);
    expect(flags(script("1"))).toEqual(["--model-path"]);
  });
});

describe("an app-template HelmRelease written with YAML aliases", () => {
  const release = (controller: string, probes: string[]) =>
    [
      "apiVersion: helm.toolkit.fluxcd.io/v2",
      "kind: HelmRelease",
      "metadata:",
      "  name: &app llama-cpp",
      "spec:",
      "  chartRef: {kind: OCIRepository, name: *app}",
      "  values:",
      "    controllers:",
      controller,
      "        containers:",
      "          app:",
      "            image: {repository: ghcr.io/ggml-org/llama.cpp, tag: server-cuda}",
      "            args: [--models-preset, /config/presets.ini, --models-max, '1']",
      "            probes:",
      ...probes,
      "",
    ].join("\n");
  const LIVENESS = [
    "              liveness:",
    "                enabled: true",
    "                custom: true",
    "                spec: {httpGet: {path: /health, port: 8080}, periodSeconds: 10, failureThreshold: 3}",
  ];

  it("reads a controller keyed by an alias, plain (`*app :`) or complex (`? *app`)", () => {
    for (const key of ["      *app :", "      ? *app\n      :"]) {
      const parts = parseLaunchParts("kubernetes", release(key, LIVENESS));
      expect(parts.map((p) => [p.name, p.script.engine?.kind, p.script.engine?.flags.map((f) => f.name)])).toEqual([
        ["HelmRelease/llama-cpp/app", "llama.cpp", ["--models-preset", "--models-max"]],
      ]);
    }
  });

  it("a startup probe enabled without custom is there (its budget the chart's): liveness is no boot budget", () => {
    const probes = (text: string) =>
      parseLaunchParts("kubernetes", text)[0]!.script.engine!.podmanRun!.workload!.probes.map((p) => [
        p.kind,
        p.budgetSeconds,
      ]);
    expect(probes(release("      *app :", LIVENESS))).toEqual([["livenessProbe", 30]]);
    const startup = [
      "              startup:",
      "                enabled: true",
      "                spec: {failureThreshold: 30}",
    ];
    expect(probes(release("      *app :", [...LIVENESS, ...startup]))).toEqual([
      ["startupProbe", Number.POSITIVE_INFINITY],
      ["livenessProbe", 30],
    ]);
  });
});

describe("a team's Python program that can start two engines", () => {
  const program =
    'def a(c):\n    return ["vllm", "serve", c]\ndef b(c):\n    return [sys.executable, "-m", "sglang.launch_server"]\n';

  it("starts the one its command line names, else the first it can", () => {
    expect(launchedEngine(program, ["python", "build.py", "--exec", "sglang", "c.yaml"])).toBe("sglang");
    expect(launchedEngine(program, ["python", "build.py", "--exec", "vllm"])).toBe("vllm");
    expect(launchedEngine(program)).toBe("vllm");
    expect(launchedEngine("import requests\n", ["sglang"])).toBeNull();
  });

  it('is found through an interpreter variable and a "$ROOT/..." path', () => {
    const script = parseLaunch(
      "script",
      '#!/bin/bash\nROOT="$(cd "$(dirname "$0")/.." && pwd)"\nexec "$PYTHON" "$ROOT/scripts/build.py" --exec sglang\n',
    );
    expect(pythonPrograms(script, "scripts").map((p) => p.candidates)).toEqual([["scripts/build.py"]]);
  });
});

describe("console scripts a pyproject.toml declares", () => {
  it("reads [project.scripts] and Poetry's table, each name with its entry point's module", () => {
    const toml = [
      "[project]",
      'name = "inference-lab"',
      "[project.scripts]",
      'inference-lab = "inference_lab.cli:main"',
      "'lab-bench' = 'inference_lab.bench:run'  # quoted key",
      "[tool.poetry.scripts]",
      'serve-llm = "llm_app.serve:main"',
      "[tool.ruff]",
      'line-length = "100"',
      "",
    ].join("\n");
    expect([...consoleScripts(toml)]).toEqual([
      ["inference-lab", "inference_lab.cli"],
      ["lab-bench", "inference_lab.bench"],
      ["serve-llm", "llm_app.serve"],
    ]);
  });

  it("finds the module of a console script a script runs past `uv run`, at the root or under src/", () => {
    const script = parseLaunch("script", "#!/bin/bash\nexec uv run --extra cuda inference-lab serve --model m\n");
    const programs = consoleScriptPrograms(script, new Map([["inference-lab", "inference_lab.cli"]]));
    expect(programs.map((p) => p.candidates)).toEqual([
      [
        "inference_lab/cli.py",
        "inference_lab/cli/__main__.py",
        "src/inference_lab/cli.py",
        "src/inference_lab/cli/__main__.py",
      ],
    ]);
    // an entry point that hands the work to a sibling module (AB3's mn5 `vllm-launch`)
    expect(
      relativeImports("import argparse\nfrom .vllm_launcher import launch\nfrom . import x\n", "src/pkg/cli.py"),
    ).toEqual(["src/pkg/vllm_launcher.py"]);
    expect(pyprojectPaths("scripts/serve")).toEqual([
      "scripts/serve/pyproject.toml",
      "scripts/pyproject.toml",
      "pyproject.toml",
    ]);
  });
});

describe("container runs whose image starts no server by itself (round AD)", () => {
  const engine = (text: string) => {
    const e = parseLaunch("script", text).engine;
    return e ? [e.kind, e.flags.map((f) => f.name)] : null;
  };

  it("an attached -it run of an NGC image with no command is a shell the team works in", () => {
    expect(engine("docker run --gpus all --ipc=host -it --rm nvcr.io/nvidia/vllm:25.11-py3\n")).toBeNull();
    expect(engine("docker run --gpus all --rm nvcr.io/nvidia/vllm:25.11-py3 vllm serve m --port 8000\n")).toEqual([
      "vllm",
      ["--port"],
    ]);
  });

  it("llama.cpp's full image runs llama-server only for --server / -s (its tools.sh)", () => {
    const run = (args: string) => `docker run --rm -v /m:/models ghcr.io/ggml-org/llama.cpp:full-cuda ${args}\n`;
    expect(engine(run("--server -m /models/q.gguf --port 8080"))).toEqual(["llama.cpp", ["-m", "--port"]]);
    expect(engine(run("-s -m /models/q.gguf"))).toEqual(["llama.cpp", ["-m"]]);
    expect(engine(run("-m /models/q.gguf --port 8080"))).toBeNull();
    expect(engine(run("--run -m /models/q.gguf -p hi"))).toBeNull();
    // the server image runs llama-server itself
    expect(engine("docker run --rm ghcr.io/ggml-org/llama.cpp:server -m /models/q.gguf\n")).toEqual([
      "llama.cpp",
      ["-m"],
    ]);
  });
});

describe("a command string run by another group's or user's shell", () => {
  it("sg GROUP -c, su USER -c and runuser -u USER -c run the string as a shell does", () => {
    const kind = (text: string) => parseLaunch("script", text).engine?.kind ?? null;
    expect(kind('exec sg render -c "$VENV/bin/python -m sglang.launch_server --model-path m --port 30000"\n')).toBe(
      "sglang",
    );
    expect(kind("su - llm -c 'vllm serve /m --port 8000'\n")).toBe("vllm");
    expect(kind('runuser -u llm -c "llama-server -m /m.gguf"\n')).toBe("llama.cpp");
    expect(kind("sg render -c 'echo ready'\n")).toBeNull();
  });
});

describe("a compose service that builds llama.cpp's own image from its source tree", () => {
  const svc = (target: string, command: string) =>
    `services:\n  llm:\n    build:\n      context: llama.cpp/\n      dockerfile: .devops/vulkan.Dockerfile\n      target: ${target}\n    command: ${command}\n`;
  const kinds = (text: string) =>
    parseLaunchParts("compose", text, { builds: new Map(), dir: "" }).map((p) => p.script.engine?.kind ?? null);

  it("is the stage's image: `full` runs tools.sh (llama-server only for --server), `server` runs llama-server", () => {
    expect(kinds(svc("full", "-m /app/m.gguf --port 8000"))).toEqual([null]);
    expect(kinds(svc("full", "--server -m /app/m.gguf --port 8000"))).toEqual(["llama.cpp"]);
    expect(kinds(svc("server", "-m /app/m.gguf --port 8000"))).toEqual(["llama.cpp"]);
    // the same with llama.cpp's tree in the repository: its full stage's ENTRYPOINT is tools.sh
    const dockerfile =
      'FROM ubuntu:24.04 AS base\nFROM base AS full\nENTRYPOINT [ "/app/tools.sh" ]\nFROM base AS server\nENTRYPOINT [ "/app/llama-server" ]\n';
    const builds = new Map([["llama.cpp/.devops/vulkan.Dockerfile", dockerfile]]);
    const withTree = (text: string) =>
      parseLaunchParts("compose", text, { builds, dir: "" }).map((p) => p.script.engine?.kind ?? null);
    expect(withTree(svc("full", "-m /app/m.gguf --port 8000"))).toEqual([null]);
    expect(withTree(svc("server", "-m /app/m.gguf --port 8000"))).toEqual(["llama.cpp"]);
  });

  it("a package's console script named for the engine server it runs: mineru-sglang-server", () => {
    const text =
      "services:\n  ocr:\n    image: team/ocr-backend:v2\n    entrypoint: mineru-sglang-server\n    command: [--host, 0.0.0.0, --port, '30000']\n";
    expect(kinds(text)).toEqual(["sglang"]);
  });
});

describe("a Flux HelmRelease of vLLM's production-stack chart", () => {
  const release = (extra: string) =>
    [
      "apiVersion: helm.toolkit.fluxcd.io/v2",
      "kind: HelmRelease",
      "metadata: {name: vllm}",
      "spec:",
      "  chart: {spec: {chart: vllm-stack, version: 0.1.12}}",
      "  values:",
      "    servingEngineSpec:",
      "      modelSpec:",
      "        - name: qwen",
      "          repository: vllm/vllm-openai",
      "          tag: v0.11.0",
      "          modelURL: Qwen/Qwen3-8B",
      "          enableTool: true",
      "          toolCallParser: hermes",
      "          resources: {limits: {nvidia.com/gpu: '1'}}",
      "          vllmConfig:",
      "            maxModelLen: 32768",
      "            extraArgs:",
      "              - --reasoning-parser",
      "              - qwen3",
      extra,
      "    routerSpec: {repository: lmcache/lmstack-router, tag: v0.1.11}",
      "",
    ].join("\n");

  it("is one vLLM container per model entry, each flag on the line of the key that writes it", () => {
    const parts = parseLaunchParts("kubernetes", release(""));
    expect(parts.map((p) => p.name)).toEqual(["HelmRelease/vllm/qwen/vllm"]);
    const e = parts[0]!.script.engine!;
    expect([e.kind, e.podmanRun?.image?.text]).toEqual(["vllm", "vllm/vllm-openai:v0.11.0"]);
    expect(e.flags.map((f) => `${f.name}@${f.line}`)).toEqual([
      "--host@9",
      "--port@9",
      "--enable-auto-tool-choice@13",
      "--tool-call-parser@14",
      "--no-enable-prefix-caching@16",
      "--max-model-len@17",
      "--reasoning-parser@19",
    ]);
  });

  it("a model entry switched off starts nothing", () => {
    const off = release("").replace(
      "          modelURL: Qwen/Qwen3-8B",
      "          modelURL: Qwen/Qwen3-8B\n          enabled: false",
    );
    expect(parseLaunchParts("kubernetes", off).filter((p) => p.script.engine)).toEqual([]);
  });
});
