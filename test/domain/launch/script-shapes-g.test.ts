// Script shapes set G2's first run missed, each written here in its own words: a launch behind setsid, a command
// eval'd from two captured strings, a usage text printed by a heredoc, a binary an option loop may override.
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { isServeScript } from "../../../src/domain/launch/detect.js";

const flagsOf = (text: string) => parseServeScript(text).engine?.flags.map((f) => `${f.name}@${f.line}`) ?? null;

describe("script shapes of set G2", () => {
  it("setsid (and ionice) in front of the engine are wrappers", () => {
    expect(flagsOf('setsid nohup "$PY" -m sglang.launch_server --port 30000 > log 2>&1 < /dev/null &\n')).toEqual([
      "--port@1",
    ]);
    expect(flagsOf("ionice -c 2 -n 7 llama-server -m /m.gguf --port 8080\n")).toEqual(["-m@1", "--port@1"]);
  });

  it('`eval "$ENV_VARS $CMD"`: both captured strings, the leading VAR=value words read as assignments', () => {
    const text = [
      "envs() {",
      '  local e=""',
      '  e+="CUDA_VISIBLE_DEVICES=$GPUS "',
      '  e+="VLLM_USE_DEEP_GEMM=0 "',
      '  echo "$e"',
      "}",
      "cmd() {",
      '  local c="vllm serve $MODEL"',
      '  c+=" --port $PORT"',
      '  echo "$c"',
      "}",
      "ENV_VARS=$(envs)",
      "VLLM_CMD=$(cmd)",
      'eval "$ENV_VARS $VLLM_CMD"',
      "",
    ].join("\n");
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("vllm");
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--port@9"]);
  });

  it("a usage text a heredoc prints to the terminal launches nothing, whatever engine it names", () => {
    const text = "usage() {\n  cat <<'EOF'\nUsage: serve.sh\n  llama-server via the environment\nEOF\n}\nusage\n";
    expect(parseServeScript(text).engine).toBeNull();
    // a heredoc that writes a launcher is still read
    const writes = "cat > /opt/serve.sh <<'EOF'\nllama-server -m /m.gguf --port 8080\nEOF\n";
    expect(parseServeScript(writes).engine?.kind).toBe("llama.cpp");
  });

  it('`BIN=${X:-llama-server}` overridden by `--bin) BIN="$2"` in the option loop: still llama-server', () => {
    const text = [
      'BIN="${LLAMA_SERVER_BIN:-llama-server}"',
      "while [[ $# -gt 0 ]]; do",
      "  case $1 in",
      '    --bin) BIN="$2"; shift 2 ;;',
      "  esac",
      "done",
      'cmd=("$BIN" -m "$MODEL" --port 8080)',
      'exec "${cmd[@]}"',
      "",
    ].join("\n");
    expect(flagsOf(text)).toEqual(["-m@7", "--port@7"]);
  });

  it("an array emptied in the else branch keeps the if branch's flag (optional), spliced where it is used", () => {
    const text = [
      'if [ "${TRUST:-1}" = "1" ]; then',
      "  TRUST_FLAG=(--trust-remote-code)",
      "else",
      "  TRUST_FLAG=()",
      "fi",
      'python -m sglang.launch_server --model-path "$M" "${TRUST_FLAG[@]}" --port 30000',
      "",
    ].join("\n");
    const flags = parseServeScript(text).engine!.flags;
    expect(flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--model-path@6", "--trust-remote-code@2", "--port@6"]);
    expect(flags.find((f) => f.name === "--trust-remote-code")?.optional).toBe(true);
  });

  it("`command -v llama-server` runs nothing; a unit a heredoc writes runs the script's $LLAMA_BIN", () => {
    expect(parseServeScript("if ! command -v llama-server; then exit 1; fi\n").engine).toBeNull();
    const text = [
      "LLAMA_BIN=/usr/local/bin/llama-server",
      "cat > /etc/systemd/system/llm.service <<UNIT",
      "[Service]",
      "ExecStart=$LLAMA_BIN \\\\",
      "    --port $PORT \\\\",
      "    --no-mmap",
      "Restart=on-failure",
      "UNIT",
      "systemctl restart llm",
      "",
    ].join("\n");
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(s.engine?.runtime).toBe("systemd");
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--port@5", "--no-mmap@6"]);
  });

  it("another inference server's image taking vLLM's spellings is none of the gate's engines", () => {
    const svc = (image: string) =>
      `services:\n  llm:\n    image: ${image}\n    command:\n      - --model\n      - org/m\n      - --served-model-name\n      - m\n`;
    const engineOf = (image: string) => parseLaunchParts("compose", svc(image))[0]?.script.engine?.kind ?? null;
    expect(engineOf("${MAX_IMAGE:-modular/max-amd:nightly}")).toBeNull();
    expect(engineOf("ghcr.io/huggingface/text-generation-inference:3.0")).toBeNull();
    expect(engineOf("ollama/ollama")).toBeNull();
    // an unknown build taking the same argv is still read as vLLM
    expect(engineOf("registry.example/team/llm-serving:1.2")).toBe("vllm");
  });

  it("a string set in each arm of a case takes the arm the default value picks, not the last one", () => {
    const text = [
      'MODE="${MODE:-thinking}"',
      'case "${MODE}" in',
      "  thinking)",
      '    SAMPLE="--temp 1.0 --top-p 0.95"',
      "    ;;",
      "  coding)",
      '    SAMPLE="--temp 0.6 --top-k 20"',
      "    ;;",
      "esac",
      "llama-server -m /m.gguf $SAMPLE --port 8080",
      "",
    ].join("\n");
    expect(flagsOf(text)).toEqual(["-m@10", "--temp@4", "--top-p@4", "--port@10"]);
    // with the default unknown, as before: the last arm's
    expect(flagsOf(text.replace('MODE="${MODE:-thinking}"', ""))).toEqual([
      "-m@10",
      "--temp@7",
      "--top-k@7",
      "--port@10",
    ]);
  });

  it('`nohup bash -c "$cmd"` after `cmd+=" --flag"` lines: the flags cmd held, each at its line', () => {
    const text = [
      "start() {",
      '  local cmd="python3 -m vllm.entrypoints.openai.api_server"',
      "  cmd+=\" --model '$MODEL'\"",
      '  cmd+=" --port $PORT"',
      '  nohup bash -c "$cmd" > "$LOG" 2>&1 &',
      "}",
      "start",
      "",
    ].join("\n");
    expect(flagsOf(text)).toEqual(["--model@3", "--port@4"]);
  });

  it("`if [[ $router -eq 1 ]]; then ... launch; exit 0; fi` then another launch: the test's default picks", () => {
    const text = (router: string) =>
      [
        `router=${router}`,
        'if [[ "$router" -eq 1 ]]; then',
        "  CMD=(llama-server --models-preset m.ini --port 8080)",
        '  if [[ -n "${DIR:-}" ]]; then',
        '    CMD+=(--models-dir "$DIR")',
        "  fi",
        '  "${CMD[@]}"',
        "  exit 0",
        "fi",
        "llama-server -hf org/m:Q4 --embeddings --pooling mean --ctx-size 8192 --port 8080",
        "",
      ].join("\n");
    expect(flagsOf(text("1"))?.slice(0, 2)).toEqual(["--models-preset@3", "--port@3"]);
    expect(flagsOf(text("0"))?.[0]).toBe("-hf@10");
  });

  it("an args item holding a flag and its value (`- --ctx-checkpoints 1`) is that flag, named without the value", () => {
    const manifest = [
      "apiVersion: apps/v1",
      "kind: Deployment",
      "metadata:",
      "  name: l",
      "spec:",
      "  template:",
      "    spec:",
      "      containers:",
      "        - name: llama",
      "          image: ghcr.io/ggml-org/llama.cpp:server",
      "          args:",
      "            - --ctx-checkpoints 1",
      "            - --port",
      '            - "8080"',
      "",
    ].join("\n");
    const flags = parseLaunchParts("kubernetes", manifest)[0]!.script.engine!.flags;
    expect(flags.map((f) => [f.name, f.value, f.line])).toEqual([
      ["--ctx-checkpoints", "1", 12],
      ["--port", "8080", 13],
    ]);
  });

  it("an engine image told to run a mounted script is that engine (flags in the script); a placeholder tag keeps it", () => {
    const svc = (image: string, extra: string) =>
      `services:\n  llm:\n    image: ${image}\n${extra}    deploy:\n      resources:\n        reservations:\n          devices:\n            - driver: nvidia\n              count: 1\n              capabilities: [gpu]\n`;
    const engineOf = (image: string, extra = "") =>
      parseLaunchParts("compose", svc(image, extra))[0]?.script.engine ?? null;
    const script = engineOf("vllm/vllm-openai:latest", '    entrypoint: ["/bin/sh", "/vllm-entrypoint.sh"]\n');
    expect([script?.kind, script?.flags, script?.builtBy]).toEqual(["vllm", [], "/bin/sh /vllm-entrypoint.sh"]);
    // a program that is no script on the same image still starts nothing the gate knows
    expect(engineOf("vllm/vllm-openai:latest", '    entrypoint: ["/bin/sh", "-c", "sleep infinity"]\n')).toBeNull();
    expect(engineOf("vllm/vllm-openai:REPLACE_WITH_TESTED_VERSION", "    command: [--port, '8000']\n")?.kind).toBe(
      "vllm",
    );
    expect(engineOf("REPLACE_WITH_SGLANG_IMAGE", "    command: [--port, '8000']\n")).toBeNull();
  });

  it("srun in front of the engine is a wrapper, its value-taking options skipped", () => {
    const text =
      "srun -p gpu --gres=gpu:2 -n 1 --job-name x \\\nvllm serve /m \\\n  --port 18800 \\\n  --tensor-parallel-size 2\n";
    expect(flagsOf(text)).toEqual(["--port@3", "--tensor-parallel-size@4"]);
  });

  it("a KServe InferenceService naming a vLLM runtime is a vLLM launch with no flags; llama-swap's image is a router", () => {
    const isvc =
      "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: demo\nspec:\n  predictor:\n    model:\n      runtime: kserve-vllm-gpu2\n      storageUri: hf://org/m\n";
    const part = parseLaunchParts("kubernetes", isvc)[0];
    expect([part?.script.engine?.kind, part?.script.engine?.flags]).toEqual(["vllm", []]);
    // a runtime that names no engine is left alone
    expect(
      parseLaunchParts("kubernetes", isvc.replace("kserve-vllm-gpu2", "triton"))[0]?.script.engine ?? null,
    ).toBeNull();
    const swap =
      "services:\n  llm:\n    image: ghcr.io/mostlygeek/llama-swap:cuda\n    command: [/app/llama-swap, -config, /app/config.yaml, --listen, ':8080']\n";
    expect(parseLaunchParts("compose", swap)[0]?.script.engine ?? null).toBeNull();
  });

  it('`docker run ... "${IMG}" "${ARGS[@]}"`, the image from a sourced file: the variable before --model is the image', () => {
    const text = 'ARGS=(\n  --model "$M"\n  --host 0.0.0.0\n)\ndocker run -d --gpus all "${IMG}" "${ARGS[@]}"\n';
    expect(flagsOf(text)).toEqual(["--model@2", "--host@3"]);
    // an unset $EXTRA followed by run options still holds options
    const opts = parseServeScript("docker run $EXTRA --gpus all vllm/vllm-openai:v0.10.1 --port 8000\n").podmanRuns[0]!;
    expect(opts.image?.text).toBe("vllm/vllm-openai:v0.10.1");
  });

  it("a heredoc a remote shell runs (`run_remote host <<'REMOTE'`, run_remote doing ssh bash -s) is a serve script", () => {
    const text = (runner: string) =>
      [
        "run_remote() {",
        `  ${runner}`,
        "}",
        "start() {",
        "  run_remote gpu1 \\",
        "    \"NODE_RANK=0\" <<'REMOTE'",
        "args=(serve /m --port 8000)",
        'python -m vllm.entrypoints.cli.main "${args[@]}"',
        "REMOTE",
        "}",
        "start",
        "",
      ].join("\n");
    expect(isServeScript(text('ssh "$1" "$2 bash -s"'))).toBe(true);
    expect(flagsOf(text('ssh "$1" "$2 bash -s"'))).toEqual(["--port@7"]);
    // a function that only prints what it is given runs nothing
    expect(isServeScript(text("cat > /tmp/notes.txt"))).toBe(false);
  });
  it("two heredocs a launcher sends to two hosts one after another are two engines; heredocs in if/else are one", () => {
    const rank = (fn: string, host: string, flag: string) => [
      `${fn}() {`,
      `  ssh "${host}" bash -s <<'REMOTE'`,
      `args=(serve /m ${flag})`,
      'python -m vllm.entrypoints.cli.main "${args[@]}"',
      "REMOTE",
      "}",
    ];
    const text = [
      ...rank("start_worker", "w1", "--headless"),
      ...rank("start_head", "h1", "--port 8000"),
      "start_worker",
      "start_head",
      "",
    ].join("\n");
    const parts = parseLaunchParts("script", text);
    expect(
      parts.map((p) => `${p.name}: ${p.script.engine?.flags.map((f) => `${f.name}@${f.line}`).join(" ")}`),
    ).toEqual(["vllm #1: --headless@3", "vllm #2: --port@9"]);
    // the same launcher written in either branch of an if: one engine, the first
    const alt = [
      'if [ "$GPU" = a100 ]; then',
      "  cat > /opt/serve.sh <<'EOF'",
      "vllm serve /m --port 8000",
      "EOF",
      "else",
      "  cat > /opt/serve.sh <<'EOF'",
      "vllm serve /m --port 8001 --enforce-eager",
      "EOF",
      "fi",
      "",
    ].join("\n");
    const one = parseLaunchParts("script", alt);
    expect(one.map((p) => p.script.engine?.flags.map((f) => `${f.name}@${f.line}`).join(" "))).toEqual(["--port@3"]);
  });
});
