// A Flux HelmRelease of bjw-s's app-template chart (set X3's homelab form), written here in our own words: the
// containers in its values are read as the containers the chart renders, args at their lines, a custom probe's budget
// at its key; a probe left to the chart's defaults and a release of another chart are not read. And X1's KServe
// InferenceService whose runtime (in another file) has a name that does not say its engine.
import { describe, expect, it } from "vitest";
import { parseLaunchParts } from "../../../src/domain/launch/launch.js";
import { normalizeFlagName } from "../../../src/domain/launch/contract.js";

const release = (probe: string, chart = "app-template") => `---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: llama
spec:
  chartRef: {kind: OCIRepository, name: ${chart}}
  values:
    controllers:
      llama:
        containers:
          app:
            image:
              repository: ghcr.io/ggml-org/llama.cpp
              tag: server-cuda
            args:
              - --port
              - "8080"
              - --jinja
            env:
              LLAMA_ARG_CTX_SIZE: "8192"
            resources:
              limits:
                nvidia.com/gpu: 1
            probes:
${probe}`;

const CUSTOM = `              startup:
                enabled: true
                custom: true
                spec:
                  initialDelaySeconds: 30
                  periodSeconds: 10
                  failureThreshold: 12
`;

describe("a HelmRelease of app-template", () => {
  it("is the llama.cpp container its values write: flags at their lines, GPUs, env, the custom probe's budget", () => {
    const [part, ...rest] = parseLaunchParts("kubernetes", release(CUSTOM));
    expect(rest).toEqual([]);
    expect(part!.name).toBe("HelmRelease/llama/app");
    const s = part!.script;
    expect(s.engine?.kind).toBe("llama.cpp");
    expect(s.engine?.flags.map((f) => `${f.name}@${f.line}`)).toEqual(["--port@17", "--jinja@19"]);
    const run = s.podmanRuns[0]!;
    expect(run.env.map((e) => `${e.name}=${e.value}`)).toEqual(["LLAMA_ARG_CTX_SIZE=8192"]);
    expect(run.workload?.gpus).toEqual({ value: "1", line: 24 });
    expect(run.workload?.probes).toEqual([{ kind: "startupProbe", budgetSeconds: 150, line: 26 }]);
  });

  it("leaves a probe to the chart's defaults unjudged (a startup probe is still there: liveness waits for it)", () => {
    const defaults = "              startup:\n                enabled: true\n";
    const probes = parseLaunchParts("kubernetes", release(defaults))[0]!.script.podmanRuns[0]!.workload?.probes;
    expect(probes?.map((p) => [p.kind, p.budgetSeconds])).toEqual([["startupProbe", Number.POSITIVE_INFINITY]]);
    const liveness = "              liveness:\n                enabled: true\n";
    expect(parseLaunchParts("kubernetes", release(liveness))[0]!.script.podmanRuns[0]!.workload?.probes).toEqual([]);
  });

  it("reads the chart's shape whatever the OCIRepository is named; another kind of document is not read so", () => {
    expect(parseLaunchParts("kubernetes", release(CUSTOM, "llama-cpp"))[0]?.script.engine?.kind).toBe("llama.cpp");
    const other = release(CUSTOM).replace("kind: HelmRelease", "kind: ConfigMap");
    expect(parseLaunchParts("kubernetes", other).filter((p) => p.script.engine)).toEqual([]);
  });
});

describe("llama.cpp's web UI switches", () => {
  it("--no-webui and --no-ui are one flag (common/arg.cpp's alias pair)", () => {
    expect(normalizeFlagName("--no-webui")).toBe(normalizeFlagName("--no-ui"));
    expect(normalizeFlagName("--webui-config-file")).toBe("--ui-config-file");
  });
});

describe("a KServe InferenceService whose runtime is in another file", () => {
  const isvc = (runtime: string, format: string) =>
    `apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\nspec:\n  predictor:\n    model:\n      modelFormat:\n        name: ${format}\n      runtime: ${runtime}\n      storageUri: oci://models/m\n`;
  it("starts the engine its model format names when the runtime's own name does not (X1's `llama-32-1b-instruct`)", () => {
    expect(parseLaunchParts("kubernetes", isvc("llama-32-1b-instruct", "vLLM"))[0]?.script.engine?.kind).toBe("vllm");
    expect(parseLaunchParts("kubernetes", isvc("sglang-rt", "sglang"))[0]?.script.engine?.kind).toBe("sglang");
  });
});
