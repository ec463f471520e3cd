// Shapes of real launch files that the held-out field set B missed, each written here in our own words.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const names = (flags: { name: string; line: number }[] | undefined) => flags?.map((f) => `${f.name}@${f.line}`);

describe("compose", () => {
  it("reads the command as the engine's argv when the entrypoint is a wrapper script that ends in exec", () => {
    const text = `services:
  eng:
    image: example/sglang-rocm:1
    entrypoint: ["/bin/bash", "/wrap/start.sh"]
    command: python3 -m sglang.launch_server --model-path m --port 30000
`;
    const [p] = parseLaunchParts("compose", text);
    expect(p?.script.engine?.kind).toBe("sglang");
    expect(names(p?.script.engine?.flags)).toEqual(["--model-path@5", "--port@5"]);
  });

  it('reads a plain multi-line `/bin/bash -c "..."` entrypoint with env prefixes and $${VAR} values', () => {
    const text = `services:
  llm:
    image: example/xpu-serving:1
    entrypoint:
      /bin/bash -c "
      cd /models && source /opt/env.sh --force &&
      A=1 \\
      B=2 \\
      python3 -m vllm.entrypoints.openai.api_server \\
      --model $\${M} \\
      --enforce-eager \\
      -tp=$\${TP}"
`;
    const [p] = parseLaunchParts("compose", text);
    expect(p?.script.engine?.kind).toBe("vllm");
    expect(names(p?.script.engine?.flags)).toEqual(["--model@10", "--enforce-eager@11", "-tp@12"]);
  });
});

describe("kubernetes-like serving runtimes", () => {
  it("reads a runtime whose container is a single `runner:` map, not a containers list", () => {
    const text = `apiVersion: example.io/v1
kind: ClusterServingRuntime
metadata:
  name: rt
spec:
  engineConfig:
    runner:
      name: main
      image: example/sglang:1
      command:
        - python3
        - -m
        - sglang.launch_server
        - --tp-size
        - "2"
`;
    const parts = parseLaunchParts("kubernetes", text);
    expect(parts.map((p) => p.script.engine?.kind)).toEqual(["sglang"]);
    expect(names(parts[0]?.script.engine?.flags)).toEqual(["--tp-size@14"]);
  });
});

describe("scripts", () => {
  it('reads `docker run IMAGE /bin/bash -c "..."` with the engine spread over continued lines', () => {
    const s = parseServeScript(`#!/bin/bash
image="example/vllm:cpu"
docker run -d --name="srv" \\
  -p 8000:80 \\
  $image /bin/bash -c "\\
    cd / && \\
    export X=50 && \\
    python3 -m vllm.entrypoints.openai.api_server \\
      --model \\"m\\" \\
      --host 0.0.0.0 \\
      --port 80"
`);
    expect(s.engine?.kind).toBe("vllm");
    expect(names(s.engine?.flags)).toEqual(["--model@9", "--host@10", "--port@11"]);
  });

  it("reads an unset `$extra_args` among docker run options as options it holds, not as the image", () => {
    const s = parseServeScript(`#!/bin/bash
image="example/vllm:cpu"
docker run -d \\
  $extra_args \\
  -e X=1 \\
  $image python3 -m vllm.entrypoints.openai.api_server --model m
`);
    expect(s.engine?.kind).toBe("vllm");
    expect(names(s.engine?.flags)).toEqual(["--model@6"]);
  });
});
