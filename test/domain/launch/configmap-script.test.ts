import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: scripts
data:
  startup.sh: |
    #!/bin/bash
    set -e
    exec vllm serve --model="Qwen/Qwen3-8B" "$@"
---
`;
const deployment = (
  command: string,
  mount: string,
  volume = "configMap:\n            name: scripts",
) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.10.1
          command: ${command}
          args:
            - "--dtype=half"
            - "--reasoning-parser=qwen3"
          volumeMounts:
            - name: s
${mount}
      volumes:
        - name: s
          ${volume}
`;
const flags = (text: string) =>
  parseLaunchParts("kubernetes", text)
    .filter((p) => p.script.engine)
    .map((p) => p.script.engine!.flags.map((f) => `${f.name}=${f.value}@${f.line}`));

describe("a container that runs a script its ConfigMap holds", () => {
  it("reads the script at the ConfigMap's lines, the container's args as its \"$@\"", () => {
    const text = CONFIGMAP + deployment('["/scripts/startup.sh"]', "              mountPath: /scripts");
    expect(flags(text)).toEqual([["--model=Qwen/Qwen3-8B@9", "--dtype=half@23", "--reasoning-parser=qwen3@24"]]);
  });

  it("through bash, and a key mounted alone with subPath", () => {
    const mount = "              mountPath: /opt/run.sh\n              subPath: startup.sh";
    const text = CONFIGMAP + deployment("[bash, /opt/run.sh]", mount);
    expect(flags(text)).toEqual([["--model=Qwen/Qwen3-8B@9", "--dtype=half@23", "--reasoning-parser=qwen3@24"]]);
  });

  it("leaves the argv as written when the script is not the ConfigMap's (another volume, another name)", () => {
    const other =
      CONFIGMAP + deployment('["/scripts/startup.sh"]', "              mountPath: /scripts", "emptyDir: {}");
    // the image's engine with the args alone: the script's --model is not read into it
    expect(flags(other)).toEqual([["--dtype=half@23", "--reasoning-parser=qwen3@24"]]);
  });
});

describe('sh -c TEXT $0 ARGS: "$@" in TEXT is ARGS', () => {
  it('splices the words after $0 where the text says "$@"', () => {
    const text = `apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
    - name: llama
      image: ghcr.io/ggml-org/llama.cpp:server
      command: ["sh", "-c", 'exec llama-server --host 0.0.0.0 "$@"', "llama", "--ctx-size", "8192", "--jinja"]
`;
    expect(flags(text)).toEqual([["--host=0.0.0.0@9", "--ctx-size=8192@9", "--jinja=null@9"]]);
  });
});
