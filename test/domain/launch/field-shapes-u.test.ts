// Launch shapes held-out rounds U and V found, written here in our own words: `"$CONDA" run -n ENV ... vllm serve`
// with the conda path in a variable; a docker run built in `REMOTE=$(cat <<EOF ... EOF)` and sent with
// `ssh host "$REMOTE"`; a queue consumer's image named for the engine it calls.
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { isServeScript } from "../../../src/domain/launch/detect.js";

describe("an environment runner named by a variable", () => {
  it('peels `"$CONDA" run -n ENV --no-capture-output` to the engine, its flags at their lines', () => {
    const s = parseServeScript(
      [
        "#!/bin/bash",
        'CONDA="${CONDA:-/opt/miniforge/bin/conda}"',
        'CUDA_VISIBLE_DEVICES=0 exec "$CONDA" run -n vllm --no-capture-output \\',
        "  vllm serve /models/q --port 8000 \\",
        "  --reasoning-parser qwen3",
        "",
      ].join("\n"),
    );
    expect(s.engine?.kind).toBe("vllm");
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--port@4", "--reasoning-parser@5"]);
  });

  it("a variable naming some other program is not taken for a runner", () => {
    const s = parseServeScript('#!/bin/bash\nTOOL="${TOOL:-/usr/bin/echo}"\n"$TOOL" run -n x vllm serve m\n');
    expect(s.engine).toBeNull();
  });
});

describe("a launch built in a variable from a heredoc and sent over ssh", () => {
  const script = (send: string) =>
    [
      "#!/bin/bash",
      'NAME="vllm-a"',
      "REMOTE_CMD=$(cat <<EOF",
      "docker rm -f $NAME 2>/dev/null || true",
      "docker run -d --name $NAME --ipc=host vllm/vllm-openai:latest \\\\",
      "  --model m \\\\",
      "  --enforce-eager",
      "EOF",
      ")",
      send,
      "",
    ].join("\n");

  it("is a serve script when ssh (or bash -c) runs the variable", () => {
    expect(isServeScript(script('ssh -o BatchMode=yes root@"$HOST" "$REMOTE_CMD"'))).toBe(true);
    expect(isServeScript(script('bash -c "$REMOTE_CMD"'))).toBe(true);
    const s = parseServeScript(script('ssh root@"$HOST" "$REMOTE_CMD"'));
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--model@6", "--enforce-eager@7"]);
  });

  it("is not when the variable is only printed", () => {
    expect(isServeScript(script('echo "$REMOTE_CMD"'))).toBe(false);
  });
});

describe("an application image named for the engine it calls", () => {
  it("a queue consumer (`vllm-consumer:v1`) with no argv starts no engine", () => {
    const text = [
      "apiVersion: apps/v1",
      "kind: Deployment",
      "metadata: {name: c}",
      "spec:",
      "  template:",
      "    spec:",
      "      containers:",
      "        - name: worker",
      "          image: vllm-consumer:v1",
      "",
    ].join("\n");
    expect(parseLaunchParts("kubernetes", text).map((p) => p.script.engine?.kind ?? null)).toEqual([null]);
    expect(parseLaunchParts("kubernetes", text.replace("vllm-consumer", "vllm-server"))[0]?.script.engine?.kind).toBe(
      "vllm",
    );
  });
});
