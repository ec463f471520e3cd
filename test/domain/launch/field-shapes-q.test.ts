// Shapes held-out set Q2's first run missed, written here in our own words: a flag a command substitution echoes
// when a test on the script's defaults holds (`$( [ "$EAGER" = "true" ] && echo "--enforce-eager" )`), and an
// interactive shell in a local image named for the engine it wraps, taken for a launch (Q2); set R1's `# ...` lines of
// a folded compose `command: >`, which compose's splitter (go-shellwords: no comments) passes on as words; set R2's
// llama.cpp binary known only by its variable (`"$LLAMACPP_BIN" --host ... --port ...`, set by a sourced .env).
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";

const script = (...words: string[]) =>
  [
    "#!/bin/bash",
    'TRUST="${VLLM_TRUST:-false}"',
    'EAGER="${VLLM_EAGER:-true}"',
    "docker run -d --gpus all vllm/vllm-openai:latest \\",
    "  --port 8000 \\",
    ...words.map((w) => `  ${w} \\`),
    "  --enable-prefix-caching",
    "",
  ].join("\n");
const flags = (text: string) =>
  parseServeScript(text).engine!.flags.map((f) => `${f.name}@${f.line}${f.optional ? "?" : ""}`);

describe("a flag a command substitution echoes after a test", () => {
  it("is there when the test holds with the defaults, at the substitution's line, and not when it fails", () => {
    expect(
      flags(
        script(
          '$( [ "$TRUST" = "true" ] && echo "--trust-remote-code" )',
          '$( [ "$EAGER" = "true" ] && echo "--enforce-eager" )',
        ),
      ),
    ).toEqual(["--port@5", "--enforce-eager@7", "--enable-prefix-caching@8"]);
  });

  it("is optional when the test cannot be decided, and gone when an unset variable makes it false", () => {
    expect(flags(script('$( [ "$(nproc)" -gt 8 ] && echo --max-num-seqs 64 )'))).toEqual([
      "--port@5",
      "--max-num-seqs@6?",
      "--enable-prefix-caching@7",
    ]);
    expect(flags(script('$( [[ -n "$UNSET" ]] && echo --api-key x )'))).toEqual([
      "--port@5",
      "--enable-prefix-caching@7",
    ]);
  });

  it("leaves a substitution that is no test-and-echo as it was", () => {
    expect(flags(script("$(cat extra-flags.txt)"))).toEqual(["--port@5", "--enable-prefix-caching@7"]);
  });
});

describe("an interactive terminal in a local image named for an engine", () => {
  const run = (opts: string, image: string) =>
    parseServeScript(
      `IMG="${image}"\ndocker run ${opts} --rm --name dev --privileged --network host -v ./s:/s -w /s $IMG\n`,
    ).engine?.kind ?? null;
  it("starts no engine: the team works in it", () => {
    expect(run("-it", "robot_vllm:r0.2.0")).toBeNull();
    expect(run("-i -t", "robot_vllm:r0.2.0")).toBeNull();
  });
  it("is a launch when it is detached, given GPUs, publishes a port, or is a published engine image", () => {
    expect(run("-d", "robot_vllm:r0.2.0")).toBe("vllm");
    expect(run("-it --gpus all", "robot_vllm:r0.2.0")).toBe("vllm");
    expect(run("-it -p 8000:8000", "robot_vllm:r0.2.0")).toBe("vllm");
    expect(run("-it", "vllm/vllm-openai:latest")).toBe("vllm");
  });
});

describe("a `#` line inside a compose file's folded command", () => {
  it("is words compose passes to the engine, not a comment", () => {
    const text = [
      "services:",
      "  vllm:",
      "    image: vllm/vllm-openai:latest",
      "    command: >",
      "      --model m",
      "      --port 8001",
      "",
      "      # AWQ models only",
      "      # --quantization awq",
      "    # a YAML comment: not the command's",
      "    restart: unless-stopped",
      "",
    ].join("\n");
    const [part] = parseLaunchParts("compose", text);
    expect(part!.script.engine!.flags.map((f) => `${f.name}@${f.line}`)).toEqual([
      "--model@5",
      "--port@6",
      "--quantization@9",
    ]);
  });
});

describe("a llama.cpp program known only by its variable's name", () => {
  const run = (line: string) => parseServeScript(`set -a; source .env; set +a\n${line}\n`).engine;
  it("is llama-server when it is given a host or a port", () => {
    const e = run('"$LLAMACPP_BIN" --models-preset "$P" --host "$H" --port "$PORT" -np 2 -c 8192');
    expect([e?.kind, e?.flags.map((f) => f.name)]).toEqual([
      "llama.cpp",
      ["--models-preset", "--host", "--port", "-np", "-c"],
    ]);
    expect(run('"${LLAMA_CPP_SERVER_BIN}" --port=8080')?.kind).toBe("llama.cpp");
  });
  it("is no server without them (llama-cli, llama-bench run the same way)", () => {
    expect(run('"$LLAMACPP_BIN" -m model.gguf -p "hello" -n 32')).toBeNull();
    expect(run('"$OTHER_BIN" --host 0.0.0.0 --port 8080')).toBeNull();
  });
});

describe("a program found with command -v", () => {
  it("is the one the script probes first (set S2: llama-server, else llama-cli in an elif)", () => {
    const text = [
      "if command -v llama-server &>/dev/null; then",
      "  BIN=$(command -v llama-server)",
      "elif command -v llama-cli &>/dev/null; then",
      "  BIN=$(command -v llama-cli)",
      "fi",
      '$BIN -m "$MODEL" \\',
      "  --port 8080",
      "",
    ].join("\n");
    expect(parseServeScript(text).engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["-m@6", "--port@7"]);
  });
});

describe("set T's launch forms", () => {
  it("reads the program Nsight Systems profiles, past its options and their values", () => {
    const text =
      'nsys profile \\\n  -o "$OUT" \\\n  --trace=cuda,nvtx \\\n  --duration 60 \\\n  python -m vllm.entrypoints.openai.api_server \\\n    --model m\n';
    const e = parseServeScript(text).engine;
    expect([e?.kind, e?.flags.map((f) => `${f.name}@${f.line}`)]).toEqual(["vllm", ["--model@6"]]);
  });
  it("reads a manifest indented with a tab as YAML the runtime refuses, not as a launch", () => {
    const text =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers:\n  - name: vllm\n    image: vllm/vllm-openai\n\t  ports: []\n";
    const [part] = parseLaunchParts("kubernetes", text);
    expect(part!.script.engine).toBeNull();
    expect(part!.script.unreadable).toMatch(/not valid YAML at line 8: a tab character in the indentation/);
  });
});

describe("a program found by the script's own lookup function", () => {
  it("is the engine program the function is named for (set T2: server_bin=$(find_llama_server))", () => {
    const text = [
      "find_llama_server() {",
      "  command -v llama-server",
      "}",
      "start() {",
      "  local bin",
      '  bin="$(find_llama_server)" || exit 1',
      "  local args=(",
      '    -m "$MODEL"',
      "    -fa off",
      "  )",
      '  "$bin" "${args[@]}" > server.log 2>&1 &',
      "}",
      "start",
      "",
    ].join("\n");
    const e = parseServeScript(text).engine;
    expect([e?.kind, e?.flags.map((f) => `${f.name}@${f.line}`)]).toEqual(["llama.cpp", ["-m@8", "-fa@9"]]);
    // named for another program, and probing it
    const python = text.replace(/find_llama_server/g, "find_python").replace("-v llama-server", "-v python3");
    expect(parseServeScript(python).engine).toBeNull();
  });
});
