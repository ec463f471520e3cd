// Shapes held-out round AI found, written here in our own words: a program's own name after an unknown image
// (`postgres -c ...`, llama.cpp's `llama-bench`), an image whose registry or namespace (not its name) holds an engine
// word, a copy of vLLM's server module that keeps its logger's name, an engine program in a variable that defaults
// to itself (`BIN="${BIN:-$HOME/.../llama-server}"`), and a vLLM server run as a Kubernetes sidecar init container.
import { describe, expect, it } from "vitest";
import { parseLaunch } from "../../../src/domain/launch/launch.js";
import { imageEngine } from "../../../src/domain/launch/engine.js";
import { globRegex } from "../../../src/domain/launch/default-branch.js";
import { launchedEngine } from "../../../src/domain/launch/python-launcher.js";

const engine = (kind: Parameters<typeof parseLaunch>[0], text: string) => {
  const e = parseLaunch(kind, text).engine;
  return e ? { kind: e.kind, flags: e.flags.map((f) => `${f.name}@${f.line}`) } : null;
};

describe("a program of its own after an unknown image", () => {
  it("is no engine, whatever its flags share with llama-server's", () => {
    const compose = [
      "services:",
      "  db:",
      "    image: paradedb/paradedb:0.21.11",
      "    command: postgres -c max_connections=150",
      "",
    ].join("\n");
    expect(engine("compose", compose)).toBeNull();
    const bench = "podman run --rm rocm/dev-ubuntu-24.04 /app/llama-bench -m /models/g.gguf -p 512 -n 128\n";
    expect(engine("script", bench)).toBeNull();
  });

  it("still reads an engine's argv after an unknown image", () => {
    const server = "podman run --rm rocm/dev-ubuntu-24.04 /app/llama-server -m /models/g.gguf -c 8192\n";
    expect(engine("script", server)?.kind).toBe("llama.cpp");
    const flagsOnly = "docker run --gpus all acme/llm:1 -m /models/g.gguf -c 8192 -ngl 99\n";
    expect(engine("script", flagsOnly)).toEqual({ kind: "llama.cpp", flags: ["-m@1", "-c@1", "-ngl@1"] });
  });
});

describe("an image's engine comes from its own name", () => {
  it("not from its registry or namespace", () => {
    expect(imageEngine("ghcr.io/vllm-project/guidellm:latest")).toBeNull();
    expect(imageEngine("image-registry.openshift-image-registry.svc:5000/vllm-mistral-7b/kb-chat:latest")).toBeNull();
  });

  it("for the engines' own images and tags", () => {
    expect(imageEngine("vllm/vllm-openai:v0.11.0")).toBe("vllm");
    expect(imageEngine("nvcr.io/nvidia/vllm:26.01-py3")).toBe("vllm");
    expect(imageEngine("lmsysorg/sglang:latest")).toBe("sglang");
    expect(imageEngine("ghcr.io/ggml-org/llama.cpp:server-cuda")).toBe("llama.cpp");
    expect(imageEngine("dsocr-server:vllm")).toBe("vllm");
  });
});

describe("a Python program that names vLLM's server module", () => {
  it("as its logger's name only is no launch of it (a copy of the module, the team's own server)", () => {
    const copy = [
      "from vllm.entrypoints.openai.cli_args import make_arg_parser",
      "logger = init_logger('vllm.entrypoints.openai.api_server')",
      "",
    ].join("\n");
    expect(launchedEngine(copy)).toBeNull();
    expect(launchedEngine('log = logging.getLogger("vllm.entrypoints.openai.api_server")\n')).toBeNull();
  });

  it("as a module it runs is a launch", () => {
    const runs = 'subprocess.run([sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", m])\n';
    expect(launchedEngine(runs)).toBe("vllm");
  });
});

describe("an engine program in a variable that defaults to itself", () => {
  it("is the default's program when the default cannot be resolved ($HOME)", () => {
    const text = [
      "#!/usr/bin/env bash",
      'BIN="${BIN:-$HOME/tools/llama.cpp/build/bin/llama-server}"',
      'nohup "$BIN" -m "$MODEL" --port 8080 \\',
      "  --ctx-size 8192 > server.log 2>&1 &",
      "",
    ].join("\n");
    expect(engine("script", text)).toEqual({ kind: "llama.cpp", flags: ["-m@3", "--port@3", "--ctx-size@4"] });
  });

  it("is nothing when the default is empty or names another program", () => {
    const empty = '#!/bin/bash\nBIN="${BIN:-}"\n"$BIN" -m m.gguf --port 8080\n';
    expect(engine("script", empty)).toBeNull();
    const other = '#!/bin/bash\nBIN="${BIN:-$HOME/bin/whisper-server}"\n"$BIN" -m m.bin --port 8080\n';
    expect(engine("script", other)?.kind).not.toBe("llama.cpp");
  });
});

describe("a Kubernetes sidecar init container", () => {
  const jobset = (restart: string) =>
    [
      "apiVersion: jobset.x-k8s.io/v1alpha2",
      "kind: JobSet",
      "metadata:",
      "  name: batch",
      "spec:",
      "  replicatedJobs:",
      "  - name: w",
      "    template:",
      "      spec:",
      "        template:",
      "          spec:",
      "            restartPolicy: OnFailure",
      "            initContainers:",
      "            - name: inference-server",
      "              image: vllm/vllm-openai:v0.11.0",
      "              args: [--model, /gcs/m, --max-model-len, '8192']",
      `              restartPolicy: ${restart}`,
      "            containers:",
      "            - name: worker",
      "              image: python:3.12",
      "              command: [python, worker.py]",
      "",
    ].join("\n");

  it("with restartPolicy Always runs for the pod's life: an engine, restarted whatever the pod's policy", () => {
    const script = parseLaunch("kubernetes", jobset("Always"));
    expect(script.engine?.kind).toBe("vllm");
    expect(script.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--model@16", "--max-model-len@16"]);
    expect(script.podmanRuns?.[0]?.workload?.restart).toEqual({ value: "Always", line: 17 });
  });

  it("without it runs to completion before the pod starts: no engine", () => {
    expect(parseLaunch("kubernetes", jobset("Never")).engine).toBeNull();
  });
});

describe("a case pattern with a bracket (laradock's scripts: `[A` crashed preflight on the whole repository)", () => {
  it("reads [...] as a bracket expression and an unclosed [ as a literal, as bash does", () => {
    const cases: [string, string, boolean][] = [
      ["[A", "[A", true],
      ["[Yy]*", "yes", true],
      ["[!0-9]*", "abc", true],
      ["[!0-9]*", "5a", false],
      ["[]]", "]", true],
      ['"a*"', "a*", true],
      ['"a*"', "ab", false],
      ["--model=*", "--model=x", true],
      ["a?c", "abc", true],
    ];
    expect(cases.map(([p, v]) => globRegex(p).test(v))).toEqual(cases.map(([, , want]) => want));
  });

  it("takes the arm a value matches in a script", () => {
    const text = [
      "#!/bin/bash",
      'MODE="${MODE:-Yes}"',
      'case "$MODE" in',
      "  [A) echo odd ;;",
      "  [Yy]*) vllm serve m --port 8000 ;;",
      "  *) vllm serve m --port 9000 --enforce-eager ;;",
      "esac",
      "",
    ].join("\n");
    expect(engine("script", text)?.flags).toEqual(["--port@5"]);
  });
});
