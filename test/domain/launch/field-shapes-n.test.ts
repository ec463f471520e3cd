// Shapes held-out set N2's first run missed, each written here in our own words: an engine command handed to a
// helper function of a sourced library (pid files, retries), and a unit whose ExecStart= runs the team's Python
// launcher, the engine named by its Description=.
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";

const flagsOf = (text: string) =>
  parseServeScript(text).engine ? parseServeScript(text).engine!.flags.map((f) => `${f.name}@${f.line}`) : null;

describe("an engine command given to a library's helper function", () => {
  const script = (call: string, extra = "") =>
    [
      "#!/usr/bin/env bash",
      'source "$(dirname "$0")/lib/procs.sh"',
      extra,
      "ARGS=(--enable-metrics)",
      `${call} "$PID_FILE" "$PY" -m sglang.launch_server \\`,
      '  --model-path "$MODEL" \\',
      '  --port 30000 "${ARGS[@]}"',
      "",
    ].join("\n");

  it("runs its arguments: the engine and every flag at its line, the array's too", () => {
    expect(parseServeScript(script("run_with_pid")).engine?.kind).toBe("sglang");
    expect(flagsOf(script("run_with_pid"))).toEqual(["--model-path@6", "--port@7", "--enable-metrics@4"]);
  });

  it("not when the script defines the function itself (it is read as written), prints, or sources nothing", () => {
    // defined here and it only prints its arguments: no engine
    expect(flagsOf(script("run_with_pid", 'run_with_pid() { echo "would run: $*"; }'))).toBeNull();
    expect(flagsOf(script("log_info"))).toBeNull();
    expect(flagsOf(script("run_with_pid").replace(/^source .*$/m, ""))).toBeNull();
  });
});

describe("a unit running the team's Python launcher", () => {
  const unit = (description: string, exec: string) =>
    `[Unit]\nDescription=${description}\n\n[Service]\nExecStart=${exec}\nRestart=always\n`;
  const engineOf = (text: string) => {
    const e = parseLaunch("unit", text).engine;
    return e ? [e.kind, e.line, e.builtBy, e.flags.length] : null;
  };

  it("starts the engine its Description= names, flags built by the launcher", () => {
    expect(engineOf(unit("Llama.cpp Vulkan Server", "/opt/llm/llm-tool.py run"))).toEqual([
      "llama.cpp",
      5,
      "/opt/llm/llm-tool.py run",
      0,
    ]);
    expect(engineOf(unit("vLLM inference (Qwen3)", "/usr/bin/python3 %h/srv/launch.py --preset a"))?.[0]).toBe("vllm");
  });

  it("serves nothing when the description names a helper, no engine, or the program is no Python launcher", () => {
    expect(engineOf(unit("llama.cpp RPC worker server", "/opt/llm/worker.py"))).toBeNull();
    expect(engineOf(unit("vLLM metrics exporter API", "/opt/x/export.py"))).toBeNull();
    expect(engineOf(unit("Ollama Local LLM Server", "/opt/x/run.py"))).toBeNull();
    expect(engineOf(unit("llama.cpp server", "/opt/llm/bin/gateway --port 9000"))).toBeNull();
  });
});

describe("a compose service built with the engine's image as a build argument (set I1's anchored template)", () => {
  const compose = (args: string) =>
    [
      "services:",
      "  endpoint:",
      "    build:",
      "      context: .",
      "      args:",
      args,
      "    gpus: all",
      '    entrypoint: ["/bin/bash", "-c"]',
      '    command: ["/serve.sh"]',
      "  exporter:",
      "    build: ./exporter",
      "",
    ].join("\n");
  const engines = (text: string) =>
    parseLaunchParts("compose", text).map((p) => [
      p.name,
      p.script.engine?.kind ?? null,
      p.script.engine ? (p.script.podmanRuns[0]?.image?.line ?? null) : null,
    ]);

  it("runs that image: the engine it names, at the argument's line (list or map form)", () => {
    expect(engines(compose("        - BASE_IMAGE=lmsysorg/sglang:v0.5.2"))).toEqual([
      ["endpoint", "sglang", 6],
      ["exporter", null, null],
    ]);
    expect(engines(compose("        VLLM_IMAGE: vllm/vllm-openai:v0.11.0"))[0]).toEqual(["endpoint", "vllm", 6]);
  });

  it("not an argument that is no image (a model name, a version) nor a service that names its own image", () => {
    expect(engines(compose("        - MODEL=Qwen/Qwen3-8B\n        - VLLM_VERSION=0.11.0"))[0]![1]).toBeNull();
    const named = compose("        - BASE_IMAGE=vllm/vllm-openai:latest").replace(
      "    build:",
      "    image: registry.local/agent:1\n    build:",
    );
    expect(engines(named)[0]![1]).toBeNull();
  });
});

describe("set O2's shapes", () => {
  it("a binary probed as llama-server or llama-server.exe is llama-server", () => {
    const text = [
      'if command -v llama-server >/dev/null; then BIN="$(command -v llama-server)"',
      'else BIN="$DIR/build/bin/Release/llama-server.exe"; fi',
      'args=(-m "$MODEL" --port 8080)',
      '"$BIN" "${args[@]}"',
      "",
    ].join("\n");
    expect(parseServeScript(text).engine?.kind).toBe("llama.cpp");
    expect(flagsOf(text)).toEqual(["-m@3", "--port@3"]);
  });

  it('a flag behind `[[ -n "${X:-}" ]]` is off by default (the default the script writes is empty)', () => {
    const text = (test: string) =>
      [
        "args=(--port 8080)",
        `if ${test}; then`,
        '  args+=(--parallel "$P")',
        "fi",
        'llama-server "${args[@]}"',
        "",
      ].join("\n");
    const off = (t: string) => parseServeScript(text(t)).engine?.flags.find((f) => f.name === "--parallel")?.offDefault;
    expect(off('[[ -n "${LLAMA_PARALLEL:-}" ]]')).toBe(true);
    expect(off('[[ -n "${LLAMA_PARALLEL:-4}" ]]')).toBeUndefined();
    // no default written: the environment may set it, so the branch may run
    expect(off('[[ -n "$LLAMA_PARALLEL" ]]')).toBeUndefined();
  });
});

describe("set O1's compose shapes", () => {
  const parts = (text: string, env = new Map<string, string>()) =>
    parseLaunchParts("compose", text, { env }).map((p) => [
      p.name,
      p.script.engine?.kind ?? null,
      p.script.engine?.flags.map((f) => `${f.name}@${f.line}`) ?? null,
      p.script.engine?.builtBy ?? null,
    ]);

  it("an engine image running a script the service mounts is that engine's launcher, with or without GPUs", () => {
    const text = [
      "services:",
      "  chat:",
      "    image: ghcr.io/ggml-org/llama.cpp:server-b9828",
      "    volumes:",
      "      - ./scripts/chat-entrypoint.sh:/chat-entrypoint.sh:ro",
      '    entrypoint: ["/bin/sh", "/chat-entrypoint.sh"]',
      "  tool:",
      "    image: ghcr.io/ggml-org/llama.cpp:server-b9828",
      '    entrypoint: ["/bin/sh", "/opt/download-models.sh"]',
      "",
    ].join("\n");
    expect(parts(text)).toEqual([
      ["chat", "llama.cpp", [], "/bin/sh /chat-entrypoint.sh"],
      // a script the image carries (not mounted by the service), no GPUs: not known to start the server
      ["tool", null, null, null],
    ]);
  });

  it("a sh -c script reads what compose fills in: ${VAR:+--flag $VAR} is gone when VAR is unset", () => {
    const text = [
      "services:",
      "  vllm:",
      "    image: vllm/vllm-openai:v0.11.0",
      '    entrypoint: ["/bin/sh", "-c"]',
      "    command:",
      "      - |",
      "        exec vllm serve $${MODEL} \\",
      "          ${QUANT:+--quantization ${QUANT}} \\",
      "          --port 8000",
      "",
    ].join("\n");
    expect(parts(text)[0]![2]).toEqual(["--port@9"]);
    expect(parts(text, new Map([["QUANT", "fp8"]]))[0]![2]).toEqual(["--quantization@8", "--port@9"]);
    // a ${VAR:-default} is left to the shell reader: the value stays a variable's (no literal key), and $$ is the
    // shell's $
    const keyed = text.replace("--port 8000", "--api-key ${KEY:-local-dev-key}");
    const flags = parseLaunchParts("compose", keyed)[0]!.script.engine!.flags;
    expect(flags.find((f) => f.name === "--api-key")?.value).toBe("${KEY:-local-dev-key}");
    expect(parseLaunchParts("compose", keyed)[0]!.script.engine!.args[0]!.text).toBe("${MODEL}");
  });

  it("an image named as a mock or stub of an engine is none", () => {
    const text = "services:\n  mock-vllm:\n    image: llm-platform-mock-vllm:0.1.0\n    ports: ['8000:8000']\n";
    expect(parts(text)).toEqual([["mock-vllm", null, null, null]]);
  });
});

describe("set P2's shapes", () => {
  it("docker run --entrypoint /bin/bash IMAGE -c '/entry.sh MODEL --flags': the mounted script hands vLLM its flags", () => {
    const text = [
      "docker run -d --name engine --entrypoint /bin/bash --gpus all \\",
      '  -v "$PWD/entry.sh:/entry.sh:ro" \\',
      "  vllm/vllm-openai:v0.11.0 \\",
      '  -c "/entry.sh /models/m --max-model-len 8192 --reasoning-parser qwen3" \\',
      '  >"$LOG" 2>&1',
      "",
    ].join("\n");
    expect(parseServeScript(text).engine?.kind).toBe("vllm");
    expect(flagsOf(text)).toEqual(["--max-model-len@4", "--reasoning-parser@4"]);
    // the same script not mounted by the run (one the image carries): what it does is not known here
    expect(flagsOf(text.replace('  -v "$PWD/entry.sh:/entry.sh:ro" \\\n', ""))).toBeNull();
  });
});
