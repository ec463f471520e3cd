// Compose files and Kubernetes manifests read into the launch model: one part per service or container, every
// flag with the line it is written on, the forms people write (folded, literal, lists, anchors, sh -c, $(VAR)).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseLaunchParts, yamlKind } from "../../../src/domain/launch/launch.js";
import { interpolate, parseDotEnv } from "../../../src/domain/launch/compose.js";
import { kubeExpand } from "../../../src/domain/launch/kube.js";

const FIX = join(import.meta.dirname, "..", "..", "fixtures", "launch", "yaml");
const read = (f: string) => readFileSync(join(FIX, f), "utf8");
const flags = (p: {
  script: { engine: { flags: { name: string; value: string | null; resolvedValue?: string; line: number }[] } | null };
}) => p.script.engine?.flags.map((f) => `${f.name} ${f.resolvedValue ?? f.value ?? ""}@${f.line}`.replace(" @", "@"));

describe("compose", () => {
  const parts = parseLaunchParts("compose", read("two-engines.compose.yaml"));

  it("gives one part per service, each with its own engine, and none for a database", () => {
    expect(parts.map((p) => [p.name, p.script.engine?.kind ?? null])).toEqual([
      ["vllm", "vllm"],
      ["sgl", "sglang"],
      ["db", null],
    ]);
  });

  it("reads a folded command word by word on its own source lines, ${VAR:-default} filled", () => {
    expect(flags(parts[0]!)).toEqual([
      "--model Qwen/Qwen3-8B@9",
      "--max-model-len 32768@10",
      "--enable-auto-tool-choice@11",
      "--tool-call-parser hermes@11",
    ]);
  });

  it("reads a list command as words, never split", () => {
    expect(flags(parts[1]!)).toEqual(["--model-path x@23", "--port 30000@23"]);
  });

  it("turns keys into the options they stand for, merge keys included, each on its key's line", () => {
    const run = parts[0]!.script.podmanRuns[0]!;
    expect(run.ipc).toBe("host");
    expect(run.ulimits).toEqual([{ value: "memlock=-1:-1", line: 13 }]);
    expect(run.workload?.restart).toEqual({ value: "unless-stopped", line: 2 });
    expect(run.workload?.gpus).toEqual({ value: "all", line: 18 });
    expect(parts[1]!.script.podmanRuns[0]!.shmSize).toBe("32g");
  });

  it("resolves an alias to the last anchor of that name before it, as YAML does, in every one of many services", () => {
    // an anchor may be defined again further down: each alias takes the nearest one above it
    const svc = (i: number, ref: string) => `  s${i}:\n    <<: *${ref}\n    command: --model m${i}\n`;
    const text = [
      "x-a: &base\n  image: vllm/vllm-openai:v1\n  shm_size: 8g\n",
      "services:\n",
      ...Array.from({ length: 30 }, (_, i) => svc(i, "base")),
      "  redefine:\n    image: vllm/vllm-openai:v2\n    shm_size: &base 16g\n    command: --model r\n",
      "  late:\n    image: vllm/vllm-openai:v3\n    shm_size: *base\n    command: --model l\n",
    ].join("");
    const ps = parseLaunchParts("compose", text);
    expect(ps).toHaveLength(32);
    expect(ps.slice(0, 30).map((p) => p.script.podmanRuns[0]!.shmSize)).toEqual(Array(30).fill("8g"));
    expect(flags(ps[29]!)).toEqual(["--model m29@" + (5 + 29 * 3 + 2)]);
    expect(ps[31]!.script.podmanRuns[0]!.shmSize).toBe("16g");
  });

  it("reads a service with neither image nor build (an override fragment) as no engine, whatever its name", () => {
    const text = [
      "services:",
      "  vllm-qwen3:",
      "    ports: ['9999:8000']",
      "    environment: { VLLM_USE_FLASH_ATTN: 1 }",
      "  vllm-built:",
      "    build: .",
      "    command: --model m --max-model-len 4096",
      "",
    ].join("\n");
    const ps = parseLaunchParts("compose", text);
    expect(ps.map((p) => [p.name, p.script.engine?.kind ?? null])).toEqual([
      ["vllm-qwen3", null],
      ["vllm-built", "vllm"],
    ]);
  });

  it("reads a word that is only a variable with a flag as its default (`${MODEL_FLAG:--hf}`) as that flag", () => {
    const text = [
      "services:",
      "  llama:",
      "    image: ghcr.io/ggml-org/llama.cpp:server",
      "    command:",
      '      - "${MODEL_FLAG:--hf}"',
      '      - "${MODEL_VALUE:-unsloth/m-GGUF}"',
      '      - "--port"',
      '      - "8000"',
      "",
    ].join("\n");
    expect(flags(parseLaunchParts("compose", text)[0]!)).toEqual(["-hf unsloth/m-GGUF@5", "--port 8000@7"]);
  });

  it("fills a string command's variables before splitting it, as compose does; a default that is a flag is on its line", () => {
    const text = [
      "services:",
      "  vllm:",
      "    image: vllm/vllm-openai:v0.11.0",
      "    command: >-",
      "      Qwen/Qwen3-8B --max-model-len 8192",
      "      ${EXTRA---enforce-eager --reasoning-parser qwen3}",
      "  built:",
      "    image: vllm-blackwell:latest",
      "    command: >",
      '      bash -c "python -m vllm.entrypoints.openai.api_server',
      "      --port ${PORT:-8000}",
      '      ${PREFIX_CACHING_FLAG:---enable-prefix-caching}"',
      "",
    ].join("\n");
    const parts = parseLaunchParts("compose", text);
    expect(flags(parts[0]!)).toEqual(["--max-model-len 8192@5", "--enforce-eager@6", "--reasoning-parser qwen3@6"]);
    expect(flags(parts[1]!)).toEqual(["--port 8000@11", "--enable-prefix-caching@12"]);
  });

  it("takes ${VAR} from the .env beside the file before the default", () => {
    const env = parseDotEnv('MODEL="org/other" # the model\nVLLM_TAG=v0.10.1\n');
    const p = parseLaunchParts("compose", read("two-engines.compose.yaml"), { env })[0]!;
    expect(flags(p)?.[0]).toBe("--model org/other@9");
    expect(p.script.podmanRuns[0]!.image?.resolved).toBe("vllm/vllm-openai:v0.10.1");
  });

  it("interpolates as compose does: $$ a dollar, :- on empty, - only on unset, unset is empty", () => {
    const env = new Map([
      ["E", ""],
      ["A", "1"],
    ]);
    expect(interpolate("$$HOME ${E:-d} ${E-d} ${U} ${A:+on} $A", env)).toBe("$HOME d   on 1");
  });

  it("reads a literal `sh -c` string as a script, on the lines it is written on", () => {
    const text =
      'services:\n  llm:\n    image: vllm/vllm-openai\n    entrypoint: ["/bin/bash", "-c"]\n    command:\n      - |\n        pip install x\n        vllm serve /m \\\n          --port 8000\n';
    expect(flags(parseLaunchParts("compose", text)[0]!)).toEqual(["--port 8000@9"]);
  });
});

describe("kubernetes", () => {
  const parts = parseLaunchParts("kubernetes", read("deployment-sh-c.yaml"));

  it("finds the containers of every document, named Kind/name/container", () => {
    expect(parts.map((p) => p.name)).toEqual(["Deployment/qwen/vllm"]);
  });

  it("reads args given to /bin/sh -c with the shell lexer, $(VAR) filled from env", () => {
    const e = parts[0]!.script.engine!;
    expect(e.kind).toBe("vllm");
    expect(e.args[0]?.text).toBe("Qwen/Qwen3-8B");
    expect(flags(parts[0]!)).toEqual(["--max-model-len 8192@19", "--port 8000@20"]);
  });

  it("keeps GPU limits, the /dev/shm emptyDir and the startupProbe budget with their lines", () => {
    const w = parts[0]!.script.podmanRuns[0]!.workload!;
    expect(w.gpus).toEqual({ value: "1", line: 26 });
    expect(w.shm).toEqual({ line: 28, sizeLimit: "2Gi" });
    expect(w.probes).toEqual([{ kind: "startupProbe", budgetSeconds: 300, line: 30 }]);
  });

  it("expands $(VAR) and leaves $$(VAR) literal; an unknown variable leaves the word unresolved", () => {
    expect(kubeExpand("--port=$(P) $$(X)", new Map([["P", "8000"]]))).toBe("--port=8000 $(X)");
    expect(kubeExpand("$(NOPE)", new Map())).toBeUndefined();
  });

  it("reads each branch of a role switch in one template's sh -c (leader or worker) as its own launch; a mode switch stays one", () => {
    const pod = (cond: string) => `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: { name: dp }
spec:
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
          - name: vllm
            image: vllm/vllm-openai:v0.10.0
            command: ["/bin/sh", "-c"]
            args:
              - |
                ${cond}
                  exec vllm serve m \\
                    --port 8080 \\
                    --data-parallel-size 4
                else
                  exec vllm serve m \\
                    --port 8080 \\
                    --data-parallel-size 4 \\
                    --headless
                fi
`;
    const roles = parseLaunchParts("kubernetes", pod('if [ "${LWS_WORKER_INDEX:-0}" -eq 0 ]; then'));
    expect(roles.map((p) => [p.name, flags(p)])).toEqual([
      ["LeaderWorkerSet/dp/vllm", ["--port 8080@17", "--data-parallel-size 4@18"]],
      ["LeaderWorkerSet/dp/vllm #2", ["--port 8080@21", "--data-parallel-size 4@22", "--headless@23"]],
    ]);
    const mode = parseLaunchParts("kubernetes", pod('if [ "${USE_EP:-no}" = yes ]; then'));
    expect(mode.map((p) => p.name)).toEqual(["LeaderWorkerSet/dp/vllm"]);
  });

  it("appends a KServe InferenceService's predictor.model args to the runtime it names; alone, reads it as that container", () => {
    const isvc = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: { name: llm }
spec:
  predictor:
    model:
      modelFormat: { name: vLLM }
      runtime: vllm-rt
      args:
        - --max-model-len=8192
`;
    const rt = `apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata: { name: vllm-rt }
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.10.0
      args: ["--port=8080", "--model=/mnt/models"]
`;
    const both = parseLaunchParts(
      "kubernetes",
      `${rt}---
${isvc}`,
    );
    expect(both.map((p) => [p.name, flags(p)])).toEqual([
      [
        "ServingRuntime/vllm-rt/kserve-container",
        ["--port 8080@8", "--model /mnt/models@8", "--max-model-len 8192@19"],
      ],
    ]);
    // two InferenceServices on one runtime are two predictor pods, each with the runtime's args and its own
    const two = parseLaunchParts(
      "kubernetes",
      `${rt}---\n${isvc}---\n${isvc.replace("name: llm", "name: small").replace("8192", "2048")}`,
    );
    expect(two.map((p) => [p.name, flags(p)])).toEqual([
      ["InferenceService/llm/kserve-container", ["--port 8080@8", "--model /mnt/models@8", "--max-model-len 8192@19"]],
      [
        "InferenceService/small/kserve-container",
        ["--port 8080@8", "--model /mnt/models@8", "--max-model-len 2048@30"],
      ],
    ]);
    const alone = parseLaunchParts("kubernetes", isvc);
    expect(alone.map((p) => [p.name, p.script.engine?.kind, flags(p)])).toEqual([
      ["InferenceService/llm/kserve-container", "vllm", ["--max-model-len 8192@10"]],
    ]);
    // a model format that is none of the engines (and no runtime naming one) starts none of them
    const sk = parseLaunchParts(
      "kubernetes",
      isvc
        .replace("vLLM", "sklearn")
        .replace("runtime: vllm-rt", "runtime: sk")
        .replace("--max-model-len=8192", "--workers=2"),
    );
    expect(sk.map((p) => p.script.engine)).toEqual([null]);
  });

  it("reads command and args lists of a LeaderWorkerSet's leader and worker templates", () => {
    const text = `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: ds
spec:
  leaderWorkerTemplate:
    leaderTemplate:
      spec:
        containers:
          - name: leader
            image: lmsysorg/sglang:latest
            command: ["python3", "-m", "sglang.launch_server"]
            args: ["--model-path", "deepseek-ai/DeepSeek-R1", "--tp", "16"]
    workerTemplate:
      spec:
        containers:
          - name: worker
            image: lmsysorg/sglang:latest
            command:
              - python3
              - -m
              - sglang.launch_server
              - --tp
              - "16"
`;
    const ps = parseLaunchParts("kubernetes", text);
    expect(ps.map((p) => [p.name, p.script.engine?.kind])).toEqual([
      ["LeaderWorkerSet/ds/leader", "sglang"],
      ["LeaderWorkerSet/ds/worker", "sglang"],
    ]);
    expect(flags(ps[1]!)).toEqual(["--tp 16@23"]);
  });
});

describe("yamlKind", () => {
  it("tells compose from a manifest from any other YAML", () => {
    expect(yamlKind("docker-compose.yml", "services:\n  a: {}\n")).toBe("compose");
    expect(yamlKind("k8s/dep.yaml", "apiVersion: v1\nkind: Pod\n")).toBe("kubernetes");
    expect(yamlKind(".github/workflows/ci.yml", "on: push\njobs:\n  a:\n    services:\n      x: {}\n")).toBeNull();
    expect(yamlKind("serve.sh", "services:\n")).toBeNull();
  });
});
