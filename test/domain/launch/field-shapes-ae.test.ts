// Shapes held-out round AE found, each written here in our own words: an engine program taken from the caller's
// environment through a variable with an empty default (`_BIN=${LLAMA_SERVER_BIN:-""}`, and the self-referencing
// `LLAMA_SERVER_BIN=${LLAMA_SERVER_BIN:-""}`), and a flag string made of other flag strings, each flag at the line
// that wrote it; a container runtime held in a variable (`"${RUNTIME}" run`, RUNTIME=docker or podman by probe).
import { describe, expect, it } from "vitest";
import { parseLaunch, parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { isServeScript } from "../../../src/domain/launch/detect.js";

const engine = (text: string) => {
  const e = parseLaunch("script", text).engine;
  return e ? { kind: e.kind, flags: e.flags.map((f) => `${f.name}@${f.line}`) } : null;
};

describe("an engine program the caller's environment names", () => {
  const body = (assign: string, run: string) =>
    ["#!/bin/bash", assign, '[ -z "${BIN}" ] && exit 1', 'P="--threads 8 --port 8080"', `${run} \${P}`, ""].join("\n");

  it("is the program its variable's name says, quoted or not, through a copy or itself", () => {
    const want = { kind: "llama.cpp", flags: ["--threads@4", "--port@4"] };
    expect(engine(body('_BIN=${LLAMA_SERVER_BIN:-""}', "${_BIN}").replaceAll("${BIN}", "${_BIN}"))).toEqual(want);
    expect(engine(body('_BIN=${LLAMA_SERVER_BIN:-""}', '"${_BIN}"').replaceAll("${BIN}", "${_BIN}"))).toEqual(want);
    const self = body('LLAMA_SERVER_BIN=${LLAMA_SERVER_BIN:-""}', "${LLAMA_SERVER_BIN}");
    expect(engine(self.replaceAll("${BIN}", "${LLAMA_SERVER_BIN}"))).toEqual(want);
    expect(engine(body('VLLM_BIN=${VLLM_BIN:-""}', '"$VLLM_BIN" serve m'))?.kind).toBe("vllm");
  });

  it("is nothing when the name says no engine, or the default names another program", () => {
    expect(engine(body('_BIN=${MY_TOOL:-""}', "${_BIN}"))).toBeNull();
    expect(engine(body("_BIN=${LLAMA_SERVER_BIN:-/usr/bin/true}", "${_BIN}"))).toBeNull();
  });
});

describe("a flag string made of other flag strings", () => {
  it("keeps each flag at the line that wrote it, the plain words at the composite's", () => {
    const text = [
      "#!/bin/bash",
      'KEEP="--keep -1"',
      'PREDICT="--predict -1"',
      'CTX="${KEEP} ${PREDICT} --jinja"',
      "llama-server -m /m.gguf ${CTX}",
      "",
    ].join("\n");
    expect(engine(text)?.flags).toEqual(["-m@5", "--keep@2", "--predict@3", "--jinja@4"]);
  });

  it("reads a string that names an unknown variable as before: at its own line", () => {
    const text = ["#!/bin/bash", 'CTX="${KEEP} --jinja"', "llama-server -m /m.gguf ${CTX}", ""].join("\n");
    expect(engine(text)?.flags).toEqual(["-m@3", "--jinja@2"]);
  });
});

describe("a container runtime held in a variable", () => {
  it("is a run of the runtime it holds, set plainly or by an if/elif probe", () => {
    const run = '"${RUNTIME}" run -d --name x vllm/vllm-openai:latest --model m --port 8000';
    const plain = ["#!/bin/bash", "RUNTIME=docker", run, ""].join("\n");
    expect(engine(plain)).toEqual({ kind: "vllm", flags: ["--model@3", "--port@3"] });
    const probed = [
      "#!/bin/bash",
      'RUNTIME=""',
      "if command -v docker >/dev/null 2>&1; then",
      '  RUNTIME="docker"',
      "elif command -v podman >/dev/null 2>&1; then",
      '  RUNTIME="podman"',
      "fi",
      `MSYS_NO_PATHCONV=1 ${run}`,
      "",
    ].join("\n");
    expect(engine(probed)?.kind).toBe("vllm");
    expect(parseLaunch("script", probed).podmanRuns.length).toBe(1);
  });

  it("is no run when the variable holds another program", () => {
    const other = ["#!/bin/bash", "RUNTIME=echo", '"$RUNTIME" run -d vllm/vllm-openai:latest --model m', ""].join("\n");
    expect(parseLaunch("script", other).podmanRuns).toEqual([]);
  });
});

describe("allenporter/llama-cpp-server images (set AF2)", () => {
  it("run llama-cpp-python's own server, not llama.cpp's llama-server", () => {
    const run = (image: string) => parseLaunch("script", `#!/bin/bash\ndocker run -d -p 8000:8000 ${image}\n`).engine;
    expect(run("ghcr.io/allenporter/llama-cpp-server-cpu:main")).toBeNull();
    expect(run("ghcr.io/allenporter/llama-cpp-server-cuda:v2.1")).toBeNull();
    expect(run("ghcr.io/ggml-org/llama.cpp:server")?.kind).toBe("llama.cpp");
  });

  it("as other servers named like an engine are, until their command starts one", () => {
    const run = (rest: string) => parseLaunch("script", `#!/bin/bash\ndocker run -d ${rest}\n`).engine?.kind ?? null;
    expect(run("ghcr.io/abetlen/llama-cpp-python:latest --model m")).toBeNull();
    expect(run("nvcr.io/nvidia/tritonserver:24.05-vllm-python-py3 tritonserver --model-repository /m")).toBeNull();
    expect(run("nvcr.io/nvidia/tritonserver:24.05-vllm-python-py3 vllm serve m --port 8000")).toBe("vllm");
  });
});

describe("round AF's script shapes", () => {
  const lines = (...l: string[]) => ["#!/bin/bash", ...l, ""].join("\n");

  it('an engine program a probe loop picks (`for path in .../llama-server ...; do BIN="$path"`)', () => {
    const text = lines(
      'BIN=""',
      "for path in \\",
      '    "$DIR/build/bin/llama-server" \\',
      "    /usr/local/bin/llama-server; do",
      '  if [ -x "$path" ]; then BIN="$path"; break; fi',
      "done",
      'exec "$BIN" --model /m.gguf --port 8080',
    );
    expect(engine(text)).toEqual({ kind: "llama.cpp", flags: ["--model@8", "--port@8"] });
    expect(engine(text.replaceAll("llama-server", "my-tool"))).toBeNull();
  });

  it("an inline `python3 -c` program that runs `vllm serve` in-process", () => {
    const program = "from vllm.entrypoints.cli.main import main\nsys.argv = ['vllm', 'serve'] + sys.argv[1:]\nmain()";
    expect(engine(lines(`python3 -c "import sys\n${program}\n" "$@"`))?.kind).toBe("vllm");
    expect(engine(lines(`python3 -c "import vllm; print(vllm.__version__)"`))).toBeNull();
  });

  it('an option the caller passes (`for arg in "$@"; do case $arg in --multi) M=true`) is off by default', () => {
    const text = lines(
      "M=false",
      'for arg in "$@"; do',
      "  case $arg in",
      "    --multi) M=true ;;",
      "  esac",
      "done",
      'if [ "$M" = true ]; then',
      "  for i in 1 2; do",
      '    if [ -n "$SKIP" ]; then continue; fi',
      '    if ss -tln | grep -q ":800$i"; then',
      "      continue",
      "    fi",
      "    vllm serve m --port 800$i --dtype auto --max-model-len 4096 > log$i 2>&1 &",
      "  done",
      "  wait",
      "else",
      "  vllm serve m --port 8000 --tensor-parallel-size 2",
      "fi",
    );
    expect(engine(text)?.flags).toEqual(["--port@18", "--tensor-parallel-size@18"]);
  });

  it("a test joined with || (`[[ $M == *AWQ* ]] || [[ $M == *awq* ]]`) is judged on the script's defaults", () => {
    const text = (model: string) =>
      lines(
        `MODEL="\${MODEL:-${model}}"`,
        'Q="--dtype bfloat16"',
        'if [[ "$MODEL" == *"AWQ"* ]] || [[ "$MODEL" == *"awq"* ]]; then',
        '  Q="--quantization awq"',
        "fi",
        'vllm serve "$MODEL" $Q',
      );
    const on = (t: string) =>
      parseLaunch("script", t)
        .engine!.flags.filter((f) => !f.offDefault)
        .map((f) => `${f.name}@${f.line}`);
    expect(on(text("org/m-awq"))).toEqual(["--quantization@5"]);
    expect(on(text("org/m"))).toEqual(["--dtype@3"]);
  });

  it('two engines an action word picks between (`case "${1:-}" in sglang) ...;; vllm) ...;;`) are two launches', () => {
    const text = lines(
      'case "${1:-}" in',
      "  sglang)",
      "    exec python3 -m sglang.launch_server --model-path m --port 30000",
      "    ;;",
      "  vllm)",
      "    exec vllm serve m --port 8000",
      "    ;;",
      '  *) echo "usage: $0 sglang|vllm"; exit 1 ;;',
      "esac",
    );
    expect(parseLaunchParts("script", text).map((p) => p.script.engine?.kind)).toEqual(["sglang", "vllm"]);
    // an if/else on a profile variable that starts vLLM or llama-server: two launches too (set AE3's democlaw)
    const profile = lines(
      'ENGINE="${ENGINE:-llamacpp}"',
      'if [ "$ENGINE" = "vllm" ]; then',
      "  vllm serve m --port 8000",
      "else",
      "  llama-server -m /m.gguf --port 8000",
      "fi",
    );
    expect(parseLaunchParts("script", profile).map((p) => p.script.engine?.kind)).toEqual(["vllm", "llama.cpp"]);
    // the same engine in two arms is one launch with alternatives
    const same = text.replace("python3 -m sglang.launch_server --model-path m --port 30000", "vllm serve big --port 1");
    expect(parseLaunchParts("script", same).length).toBe(1);
  });

  it("a compose file the script writes with a heredoc and brings up", () => {
    const text = (up: string) =>
      lines(
        "mkdir -p ~/stack/vllm",
        "cat > ~/stack/vllm/docker-compose.yml <<'EOF'",
        "services:",
        "  vllm:",
        "    image: vllm/vllm-openai:latest",
        '    command: ["--model", "m", "--port", "8000"]',
        "EOF",
        up,
      );
    expect(engine(text("cd ~/stack/vllm && docker compose up -d"))).toEqual({
      kind: "vllm",
      flags: ["--model@7", "--port@7"],
    });
    expect(isServeScript(text("cd ~/stack/vllm && docker compose up -d"))).toBe(true);
    expect(isServeScript(text("echo written"))).toBe(false);
  });
});
