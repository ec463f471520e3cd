// Shapes of real launch files that the held-out field set C1 missed, each written here in our own words.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";

const names = (flags: { name: string; line: number }[] | undefined) => flags?.map((f) => `${f.name}@${f.line}`);

describe("a shell started as `bash -lc --` with the script in args", () => {
  it("reads the first word after `--` as the script (bash takes the first non-option word after -c)", () => {
    const text = `apiVersion: example.io/v1
kind: RayClusterFleet
metadata: {name: f}
spec:
  template:
    spec:
      headGroupSpec:
        template:
          spec:
            containers:
              - name: head
                image: vllm/vllm-openai:v0.7.1
                command: ["/bin/bash", "-lc", "--"]
                args: ["ulimit -n 4096; ray start --head --num-gpus=2; vllm serve m --tensor-parallel-size 2 --port 8000"]
                resources: {limits: {nvidia.com/gpu: 2}}
`;
    const [p] = parseLaunchParts("kubernetes", text);
    expect(p?.script.engine?.kind).toBe("vllm");
    expect(names(p?.script.engine?.flags)).toEqual(["--tensor-parallel-size@14", "--port@14"]);
  });
});

describe("a KubeAI Model resource (the controller builds the pod)", () => {
  const model = (engine: string) => `apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: small
spec:
  url: hf://org/small
  engine: ${engine}
  args:
    - --max-model-len=8192
    - --tensor-parallel-size=4
    - --enforce-eager
  resourceProfile: nvidia-gpu-l4:4
`;

  it("is a vLLM launch with its written args, on their lines", () => {
    const [p] = parseLaunchParts("kubernetes", model("VLLM"));
    expect(p?.script.engine?.kind).toBe("vllm");
    expect(names(p?.script.engine?.flags)).toEqual([
      "--max-model-len@9",
      "--tensor-parallel-size@10",
      "--enforce-eager@11",
    ]);
  });

  it("carries what KubeAI's controller adds to the pod: a memory /dev/shm and a 3 h startup probe", () => {
    const run = parseLaunchParts("kubernetes", model("VLLM"))[0]!.script.podmanRuns[0]!;
    expect(run.workload?.shm).toEqual({ line: 7, sizeLimit: null });
    expect(run.workload?.probes.find((p) => p.kind === "startupProbe")?.budgetSeconds).toBe(5400 * 2);
    expect(run.workload?.gpus?.value).toBe("4");
  });

  it("is no engine launch for an engine deploy-gate does not judge (Ollama)", () => {
    expect(parseLaunchParts("kubernetes", model("OLlama")).some((p) => p.script.engine)).toBe(false);
  });
});

describe("a compose service whose image is only a variable", () => {
  it("names the engine by the variable when it is unset (the name is the only clue)", () => {
    const text = `services:
  llamacpp:
    image: \${STACK_LLAMACPP_IMAGE}
    command: >
      \${STACK_LLAMACPP_MODEL}
      --port 8080
      --host 0.0.0.0
`;
    const [p] = parseLaunchParts("compose", text);
    expect(p?.script.engine?.kind).toBe("llama.cpp");
    expect(names(p?.script.engine?.flags)).toEqual(["--port@6", "--host@7"]);
  });

  it("reads the set value, not the name, when .env sets it", () => {
    const text = `services:\n  ui:\n    image: \${LLAMACPP_UI_IMAGE}\n    command: --port 3000\n`;
    const env = new Map([["LLAMACPP_UI_IMAGE", "example/chat-webui:1"]]);
    expect(parseLaunchParts("compose", text, { env })[0]?.script.engine).toBeNull();
  });
});

describe("Go-template text that is not Helm's", () => {
  it("reads a manifest whose {{ }} sit inside a string another controller fills (no .Values, no include)", () => {
    const text = `apiVersion: serving.example.io/v1alpha1
kind: InferenceServiceConfig
metadata: {name: t}
spec:
  template:
    containers:
      - name: main
        image: example/cuda-serving:1
        command:
          - /bin/bash
          - -c
          - |-
            eval "exec vllm serve /mnt/models \\
              --served-model-name "{{ .Spec.Model.Name }}" \\
              --port 8000 \\
              {{- if .Spec.TP }} --tensor-parallel-size {{ .Spec.TP }}{{- end }} \\
              {{ if .Global.TLS }}--ssl-keyfile /tls/key{{- end }} \\
              $@"
          - "--"
`;
    const [p] = parseLaunchParts("kubernetes", text);
    expect(p?.script.unreadable).toBeUndefined();
    expect(p?.script.engine?.kind).toBe("vllm");
    // a flag inside {{ if }} ... {{ end }} depends on what the controller fills: not one the launch always has
    expect(names(p?.script.engine?.flags)).toEqual(["--served-model-name@14", "--port@15"]);
  });

  it("still says a Helm template (.Values, include) outside its chart cannot be read", () => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: v\n      image: {{ .Values.image }}\n`;
    expect(parseLaunchParts("kubernetes", text)[0]?.script.unreadable).toMatch(/Helm template/);
  });
});
