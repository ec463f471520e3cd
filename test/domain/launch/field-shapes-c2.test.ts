// Shapes of real serve scripts that the held-out field set C2 missed, each written here in our own words.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { isServeScript } from "../../../src/domain/launch/detect.js";

const names = (flags: { name: string; line: number }[] | undefined) => flags?.map((f) => `${f.name}@${f.line}`);

describe("the program word", () => {
  it("runs the interpreter a variable holds even when a branch reassigns it from `$(command -v ...)`", () => {
    const text = `#!/bin/bash
PY=/srv/venv/bin/python
if [ ! -x "$PY" ]; then
  PY="$(command -v python3)"
fi
read -r -a MORE <<< "\${EXTRA:-}"
exec "$PY" -m vllm.entrypoints.openai.api_server \\
  --port 8000 \\
  "\${MORE[@]}"
`;
    expect(isServeScript(text)).toBe(true);
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("vllm");
    expect(names(s.engine?.flags)).toEqual(["--port@8"]);
  });

  it("is no launch when the engine binary is only asked for its version", () => {
    const text = `#!/bin/bash
make -j4 llama-server
OUT=$(./build/bin/llama-server --version 2>&1)
echo "$OUT"
`;
    expect(isServeScript(text)).toBe(false);
    expect(parseServeScript(text).engine).toBeNull();
  });
});

describe("strings and arrays", () => {
  it("splices a one-word string holding a flag, set in the default branch, at the line that sets it", () => {
    const text = `#!/bin/bash
if [ "\${QUIET:-0}" = 1 ]; then
  BATCH=""
else
  BATCH="--cont-batching"
fi
llama-server -m /m.gguf \\
  $BATCH \\
  --port 8080
`;
    expect(names(parseServeScript(text).engine?.flags)).toEqual(["-m@7", "--cont-batching@5", "--port@9"]);
  });

  it("keeps a one-word string that is a value (a model path) as written", () => {
    const text = `#!/bin/bash
MODEL=/models/a.gguf
llama-server -m $MODEL --port 8080
`;
    const f = parseServeScript(text).engine?.flags.find((x) => x.name === "-m");
    expect(f?.value).toBe("$MODEL");
  });

  it("splices an array that is itself spliced into another array", () => {
    const text = `#!/bin/bash
ENVS=(-e A=1 -e B=2)
BASE=(--gpus all --entrypoint python3 "\${ENVS[@]}")
ARGS=(--model-path /m --tp-size 2)
docker run -d --name eng "\${BASE[@]}" example/sglang:1 -m sglang.launch_server "\${ARGS[@]}"
`;
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("sglang");
    expect(s.podmanRuns[0]?.image?.text).toBe("example/sglang:1");
    expect(s.podmanRuns[0]?.env.map((e) => e.name)).toEqual(["A", "B"]);
    expect(names(s.engine?.flags)).toEqual(["--model-path@4", "--tp-size@4"]);
  });
});

describe("a function that runs docker on another host", () => {
  it("reads `remote_docker run ...` as a docker run: two ranks, two engines", () => {
    const text = `#!/bin/bash
remote_docker() {
  local q=() a
  for a in "$@"; do q+=("$(printf '%q' "$a")"); done
  ssh -o BatchMode=yes user@peer "docker \${q[*]}"
}
ARGS=(--model-path /m --tp-size 2)
remote_docker run --rm example/sglang:1 test -f /m/config.json
remote_docker run -d --name worker example/sglang:1 \\
  "\${ARGS[@]}" --node-rank 1
docker run -d --name head example/sglang:1 \\
  "\${ARGS[@]}" --node-rank 0
`;
    const parts = parseLaunchParts("script", text);
    expect(parts.map((p) => p.script.engine?.podmanRun?.runtime)).toEqual(["docker", "docker"]);
    expect(parts.map((p) => p.script.engine?.command.line)).toEqual([9, 11]);
    expect(parts.map((p) => names(p.script.engine?.flags))).toEqual([
      ["--model-path@7", "--tp-size@7", "--node-rank@10"],
      ["--model-path@7", "--tp-size@7", "--node-rank@12"],
    ]);
  });
});

describe("a command written in a heredoc", () => {
  it("runs what `cmd=$(cat <<EOF ... EOF)` holds when the script evals it", () => {
    const text = `#!/bin/bash
MODEL=/models/m
cmd=$(cat <<- EOF
vllm serve \${MODEL} \\
--enable-lora \\
--port 6011
EOF
)
if [ "-d" = "$1" ]; then
  cmd="nohup \${cmd} > /tmp/log 2>&1 &"
fi
eval $cmd
`;
    expect(isServeScript(text)).toBe(true);
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("vllm");
    expect(names(s.engine?.flags)).toEqual(["--enable-lora@5", "--port@6"]);
  });

  it("finds an installer that writes a unit with an unquoted heredoc and starts it", () => {
    const text = `#!/bin/bash
DIR=/opt/llama
cat > /etc/systemd/system/llm.service << EOF
[Service]
ExecStart=\${DIR}/llama-server \\\\
    --ctx-size 8192 \\\\
    --port 8001
Restart=on-failure
EOF
systemctl daemon-reload
systemctl start llm
`;
    expect(isServeScript(text)).toBe(true);
    const s = parseServeScript(text);
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(names(s.engine?.flags)).toEqual(["--ctx-size@6", "--port@7"]);
  });

  it("does not find an installer that writes the same unit and starts nothing", () => {
    const text = `#!/bin/bash
cat > /etc/systemd/system/llm.service << EOF
[Service]
ExecStart=/opt/llama-server --port 8001
EOF
systemctl daemon-reload
echo "run: systemctl start llm"
`;
    expect(isServeScript(text)).toBe(false);
  });
});

describe("loops", () => {
  it("gives a `for` variable over one word that word, so a removal in the loop names the container", () => {
    const text = `#!/bin/bash
HEAD=eng-head
for c in "$HEAD"; do
  docker rm -f "$c"
done
docker run -d --name "$HEAD" example/sglang:1 --model-path /m
`;
    const rm = parseServeScript(text).commands.find((c) => c.words[1]?.text === "rm");
    expect(rm?.words.at(-1)?.resolved).toBe("eng-head");
  });

  it("leaves a `for` variable over several words unknown", () => {
    const text = `#!/bin/bash
for c in a b; do
  docker rm -f "$c"
done
`;
    const rm = parseServeScript(text).commands.find((c) => c.words[1]?.text === "rm");
    expect(rm?.words.at(-1)?.resolved).toBeUndefined();
  });
});
