import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((l) => l.includes(needle)) + 1;

// A launcher that builds the command string in one function, captures what it prints, and runs it in another
// function that takes it as its first argument (the shape of several menu/instance launchers in the field).
const LAUNCHER = `#!/bin/bash
PORT=\${PORT:-8080}
HOST=\${HOST:-127.0.0.1}

make_cmd() {
    local cmd="llama-server"
    if [ -n "$MODEL" ]; then
        cmd="$cmd --model $MODEL"
    fi
    cmd="$cmd --port $PORT"
    cmd="$cmd --host $HOST"
    echo "$cmd"
}

start() {
    local cmd="$1"
    mkdir -p "$LOG_DIR"
    if [ "$DAEMON" = "1" ]; then
        nohup $cmd > "$LOG_DIR/out.log" 2>&1 &
    else
        $cmd
    fi
}

main() {
    local cmd=$(make_cmd)
    start "$cmd"
}

main "$@"
`;

describe("a command string that crosses functions", () => {
  it('`local cmd=$(make_cmd)` then `start "$cmd"`: the engine the called function runs, flags at their lines', () => {
    const s = parseServeScript(LAUNCHER);
    expect(s.engine?.kind).toBe("llama.cpp");
    const flags = s.engine!.flags.map((f) => [f.name, f.line]);
    expect(flags).toEqual([
      ["--model", lineOf(LAUNCHER, "--model $MODEL")],
      ["--port", lineOf(LAUNCHER, "--port $PORT")],
      ["--host", lineOf(LAUNCHER, "--host $HOST")],
    ]);
    // the launch is the called function's own line, not the call
    expect([lineOf(LAUNCHER, "nohup $cmd"), lineOf(LAUNCHER, "        $cmd")]).toContain(s.engine!.line);
  });

  it("the same function given an unknown argument starts nothing the gate can read", () => {
    const text = LAUNCHER.replace('start "$cmd"', 'start "$EXTERNAL"');
    expect(parseServeScript(text).engine).toBeNull();
  });

  it("a function that is never called runs nothing, whatever it would print", () => {
    const text = LAUNCHER.replace(/main\(\) \{[\s\S]*$/, "");
    expect(parseServeScript(text).engine).toBeNull();
  });

  it("a function called with a known command twice gives one engine per launch line, not a copy per call", () => {
    const text = LAUNCHER.replace('start "$cmd"', 'start "$cmd"\n    start "$cmd"');
    const s = parseServeScript(text);
    const lines = s.commands.filter((c) => c.words.some((w) => w.text === "llama-server")).map((c) => c.line);
    expect(new Set(lines).size).toBe(lines.length);
  });
});

describe("presets a case statement picks", () => {
  const PRESETS = `#!/bin/bash
GRAPH="--disable-cuda-graph"
preset() {
    case "$1" in
        small)
            CTX=8192
            ;;
        big)
            GRAPH="--cuda-graph-bs 1 2 4"
            ;;
    esac
}
preset "$PRESET"
CMD=(python -m sglang.launch_server
    --model-path "$MODEL"
    --port 30000
)
CMD+=($GRAPH)
exec "\${CMD[@]}"
`;

  it("a case whose last arm ends with `;;` closes at its esac: the launch after it is unconditional", () => {
    const s = parseServeScript(PRESETS);
    const port = s.engine!.flags.find((f) => f.name === "--port")!;
    expect(port.line).toBe(lineOf(PRESETS, "--port 30000"));
    expect(port.optional).toBeFalsy();
  });

  it("`CMD+=($GRAPH)` splits the string into the array's words, each at the line it was written", () => {
    const s = parseServeScript(PRESETS);
    const graph = s.engine!.flags.find((f) => f.name === "--cuda-graph-bs");
    expect(graph?.line).toBe(lineOf(PRESETS, "--cuda-graph-bs"));
    expect(graph?.optional).toBe(true);
  });
});
