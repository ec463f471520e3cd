// Helm charts and kustomize overlays: rendered with the real tool when it is on PATH (kubectl is installed by
// .ci/run), each engine container checked as a part of the file it came from; a missing tool said once per chart.
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { deploymentHead } from "../../helpers/manifests.js";
import { hasTool } from "../../helpers/has-tool.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const has = hasTool;

async function preflight(cwd: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd });
  return JSON.parse(out) as Report;
}
const of = (r: Report, check: string) => r.findings.filter((f: Finding) => f.check === check);

const HEAD = `${deploymentHead("vllm")}        - name: vllm
`;
const BASE = `${HEAD}          image: vllm/vllm-openai:v0.10.1
          args: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "32768"]
`;
const PATCH = `${HEAD}          args:
            - --model
            - Qwen/Qwen3-8B
            - --reasoning-parser
            - qwen3
`;
const CHART = {
  "chart/Chart.yaml": "apiVersion: v2\nname: llm\nversion: 0.1.0\n",
  "chart/values.yaml": "model: Qwen/Qwen3-8B\n",
  "chart/templates/deployment.yaml":
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  template:\n    spec:\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n          args:\n            - --model\n            - {{ .Values.model }}\n            - --reasoning-parser\n            - qwen3\n",
};

/**
 * An overlay whose patch sets the args over `base`, then a commit that drops --reasoning-parser from the patch;
 * preflight --base the first. bases: and patchesStrategicMerge: are the forms both kustomize v2.0.3 (Debian 12's
 * kubectl 1.20, what .ci/run installs) and v5 (deprecated there, still read) render; v2 refuses a directory under
 * resources:.
 */
async function overlayDrop(base: string): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  const first = r.commit("add", {
    "base/deployment.yaml": base,
    "base/kustomization.yaml": "resources:\n  - deployment.yaml\n",
    "overlays/prod/kustomization.yaml": "bases:\n  - ../../base\npatchesStrategicMerge:\n  - args.yaml\n",
    "overlays/prod/args.yaml": PATCH,
  });
  r.commit("drop the parser", {
    "overlays/prod/args.yaml": PATCH.replace("            - --reasoning-parser\n            - qwen3\n", ""),
  });
  return preflight(r.dir, "--base", first);
}
const failed = (r: Report, check: string) => of(r, check).filter((f) => f.status === "fail");

describe("kustomize overlays", () => {
  it.runIf(has("kubectl"))(
    "renders an overlay with kubectl kustomize; a patch file is no target; a drop is traced",
    async () => {
      const report = await overlayDrop(BASE);
      // the base is read through the overlay that reads it, once (not again alone)
      const traps = of(report, "preflight.traps").map((f) => f.file);
      expect(traps).toEqual([expect.stringMatching(/^(overlays\/prod\/args|base\/deployment)\.yaml$/)]);
      const dropped = failed(report, "preflight.dropped-flags");
      expect(dropped.map((f) => [f.data?.flag, f.data?.part])).toEqual([
        ["--reasoning-parser", "Deployment/vllm/vllm"],
      ]);
      // the flag is written in the patch, not in the base the rest of the Deployment comes from
      expect(dropped[0]!.evidence?.[1]).toMatch(/:overlays\/prod\/args\.yaml:13: --reasoning-parser qwen3$/);
    },
  );

  it.runIf(has("kubectl"))(
    "puts a patch's flag at the patch's line when most of the Deployment is the base",
    async () => {
      const base = `${BASE}          ports:\n            - containerPort: 8000\n          env:\n            - name: HF_HOME\n              value: /cache\n          resources:\n            limits:\n              nvidia.com/gpu: 1\n`;
      const dropped = failed(await overlayDrop(base), "preflight.dropped-flags");
      expect(dropped.map((f) => f.evidence?.[1])).toEqual([
        expect.stringMatching(/:overlays\/prod\/args\.yaml:13: --reasoning-parser qwen3$/),
      ]);
    },
  );
});

describe("helm charts", () => {
  it("renders a chart with helm when it is on PATH, else says once what the chart is and what it needs", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", CHART);
    const report = await preflight(r.dir);
    expect(of(report, "preflight.bash-syntax")).toEqual([]);
    const traps = of(report, "preflight.traps");
    if (has("helm")) {
      expect(traps.map((f) => [f.file, f.data?.part])).toEqual([
        ["chart/templates/deployment.yaml", "Deployment/deploy-gate/vllm"],
      ]);
    } else {
      expect(traps.map((f) => [f.status, f.file, f.summary])).toEqual([
        ["warn", "chart/Chart.yaml", expect.stringMatching(/^chart is a Helm chart: put helm on PATH to render it/)],
      ]);
    }
  });
});

describe("a KServe runtime and InferenceService in a base, the args set by an overlay's inline patch", () => {
  const runtime = `apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-rt
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.10.1
      command: [python, -m, vllm.entrypoints.openai.api_server]
      args:
        - '--port=8080'
        - '--model=/mnt/models'
`;
  const isvc = `apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: llm
spec:
  predictor:
    model:
      runtime: vllm-rt
      modelFormat: {name: vLLM}
      args: [--max-model-len=8192]
`;
  const overlay = (args: string[]) =>
    [
      "resources:",
      "  - ../base",
      "patches:",
      "  - target: {kind: InferenceService, name: llm}",
      "    patch: |-",
      "      - op: replace",
      "        path: /spec/predictor/model/args",
      "        value:",
      ...args.map((a) => `          - ${a}`),
      "",
    ].join("\n");

  it.runIf(has("kubectl"))(
    "joins the patched args to the runtime, each flag at its own file's line, the base read only through the overlay",
    async () => {
      const r = tempRepo();
      repos.push(r);
      const first = r.commit("add", {
        "base/runtime.yaml": runtime,
        "base/isvc.yaml": isvc,
        "base/kustomization.yaml": "resources:\n  - runtime.yaml\n  - isvc.yaml\n",
        "dev/kustomization.yaml": overlay(["--max-model-len=4096", "--reasoning-parser=qwen3"]),
      });
      r.commit("drop the parser", { "dev/kustomization.yaml": overlay(["--max-model-len=4096"]) });
      const report = await preflight(r.dir, "--base", first);
      const parts = new Set(of(report, "preflight.traps").map((f) => f.data?.part));
      expect([...parts]).toEqual(["ServingRuntime/vllm-rt/kserve-container"]);
      const dropped = failed(report, "preflight.dropped-flags");
      expect(dropped.map((f) => f.evidence?.[1])).toEqual([
        expect.stringMatching(/:dev\/kustomization\.yaml:10: --reasoning-parser qwen3$/),
      ]);
    },
  );
});
