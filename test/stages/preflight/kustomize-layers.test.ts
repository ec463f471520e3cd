// kustomize repositories laid out in layers (a base, a component built on it, overlays that patch from a shared
// directory), shapes from held-out set N1 in our own words: only the overlays are rendered targets, a patch
// outside the overlay's directory is where its lines come from, and a probe a patch rewrites is reported there.
import { afterEach, describe, expect, it } from "vitest";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";
import { renderedParts } from "../../../src/stages/preflight/rendered.js";
import type { GitReader } from "../../../src/ports/git/batched.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { kustomizeResources } from "../../../src/domain/launch/kustomization.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { preflightReport } from "../../helpers/preflight-report.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const hasKubectl = hasTool("kubectl");

const container = (image: string, probe: string) =>
  [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: engine",
    "spec:",
    "  selector: {matchLabels: {app: engine}}",
    "  template:",
    "    metadata: {labels: {app: engine}}",
    "    spec:",
    "      containers:",
    "        - name: engine",
    `          image: ${image}`,
    "          command:",
    "            - /bin/sh",
    "            - -c",
    "            - |",
    '              exec vllm serve "$MODEL" \\',
    "                --port 8000 \\",
    "                --max-model-len 8192",
    probe,
    "",
  ].join("\n");
const LIVENESS =
  "          livenessProbe:\n            httpGet: {path: /health, port: 8000}\n            initialDelaySeconds: 900";
const STUB = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata:",
  "  name: engine",
  "spec:",
  "  template:",
  "    spec:",
  "      containers:",
  "        - name: engine",
  "          livenessProbe:",
  "            httpGet: {path: /health, port: 8000}",
  "            initialDelaySeconds: 20",
  "",
].join("\n");
// the CPU patch restates the whole command: its lines are the render's
const CPU = container("vllm/vllm-openai-cpu:v0.11.0", "").replace(/^spec:\n {2}selector.*\n/m, "spec:\n");
const FILES = {
  "k8s/base/deployment.yaml": container("vllm/vllm-openai:v0.11.0", LIVENESS),
  "k8s/base/kustomization.yaml": "resources:\n  - deployment.yaml\n",
  "k8s/components/gpu/kustomization.yaml": "resources:\n  - ../../base\npatches:\n  - path: gpu.yaml\n",
  "k8s/components/gpu/gpu.yaml": STUB.replace("initialDelaySeconds: 20", "initialDelaySeconds: 900").replace(
    "          livenessProbe:\n            httpGet: {path: /health, port: 8000}\n            initialDelaySeconds: 900\n",
    "          resources: {limits: {nvidia.com/gpu: 1}}\n",
  ),
  "k8s/overlays/gpu/kustomization.yaml": "resources:\n  - ../../components/gpu\n",
  // an overlay another overlay varies is still applied on its own
  "k8s/overlays/gpu-spot/kustomization.yaml": "resources:\n  - ../gpu\n",
  "k8s/overlays/kind/cpu/kustomization.yaml":
    "resources:\n  - ../../../base\npatches:\n  - path: ../stub-probe.yaml\n  - path: ../cpu.yaml\n",
  "k8s/overlays/kind/stub-probe.yaml": STUB,
  "k8s/overlays/kind/cpu.yaml": CPU,
};

describe("kustomize layers", () => {
  it("reads the directories a kustomization builds on", () => {
    expect(kustomizeResources(FILES["k8s/overlays/kind/cpu/kustomization.yaml"], "k8s/overlays/kind/cpu")).toEqual([
      "k8s/base",
    ]);
    expect(kustomizeResources("bases:\n- ../a # the base\n- github.com/x/y//z\n- https://x/y\n", "k/o")).toEqual([
      "k/a",
    ]);
  });

  it("renders the overlays; a component or base another overlay takes is a layer of it", () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", FILES);
    const rendered = discoverTargets(r.dir, Object.keys(FILES))
      .filter((t) => t.render)
      .map((t) => t.render!.dir);
    expect(rendered.sort()).toEqual(["k8s/overlays/gpu", "k8s/overlays/gpu-spot", "k8s/overlays/kind/cpu"]);
    const cpu = discoverTargets(r.dir, Object.keys(FILES)).find((t) => t.render?.dir === "k8s/overlays/kind/cpu")!;
    expect(cpu.render!.sources).toEqual(
      expect.arrayContaining(["k8s/overlays/kind/cpu.yaml", "k8s/overlays/kind/stub-probe.yaml"]),
    );
  });

  it.runIf(hasKubectl)(
    "puts the flags at the outside patch's lines and the probe at the patch that rewrote it",
    async () => {
      const report: Report = await preflightReport(FILES, repos);
      const probe = report.findings.filter((f) => f.data?.rule === "start-timeout" && f.status !== "pass");
      // the CPU overlay: 20 s from the stub patch (not the base's 900 s)
      expect(probe.map((f) => [f.file, f.line])).toEqual([["k8s/overlays/kind/stub-probe.yaml", 10]]);
      const repo = repos.at(-1)!;
      const cpu = discoverTargets(repo.dir, Object.keys(FILES)).find((t) => t.render?.dir === "k8s/overlays/kind/cpu")!;
      const parts = await renderedParts({ root: repo.dir, reader: {} as GitReader }, cpu.render!, null);
      if (!Array.isArray(parts)) throw new Error(JSON.stringify(parts));
      // the CPU patch restates the base's command word for word: the patch wins, as kustomize applies it last
      expect(parts[0]!.script.engine!.flags.map((f) => `${f.name}@${f.file ?? parts[0]!.file}:${f.line}`)).toEqual([
        "--port@k8s/overlays/kind/cpu.yaml:17",
        "--max-model-len@k8s/overlays/kind/cpu.yaml:18",
      ]);
    },
  );
  it.runIf(hasKubectl)("puts each flag of a list an inline patch writes in flow style on that patch line", async () => {
    const r = tempRepo();
    repos.push(r);
    const files = {
      "k/base/deployment.yaml": container("vllm/vllm-openai-cpu:v0.11.0", ""),
      "k/base/kustomization.yaml": "resources:\n  - deployment.yaml\n",
      "k/overlays/gpu/kustomization.yaml": [
        "resources:",
        "  - ../../base",
        "patches:",
        "  - target: {kind: Deployment, name: engine}",
        "    patch: |-",
        "      - op: replace",
        "        path: /spec/template/spec/containers/0/command",
        '        value: ["vllm", "serve", "m", "--port", "8000", "--max-model-len=16384"]',
        "",
      ].join("\n"),
    };
    r.commit("add", files);
    const overlay = discoverTargets(r.dir, Object.keys(files)).find((t) => t.render?.dir === "k/overlays/gpu")!;
    const parts = await renderedParts({ root: r.dir, reader: {} as GitReader }, overlay.render!, null);
    if (!Array.isArray(parts)) throw new Error(JSON.stringify(parts));
    expect(parts[0]!.script.engine!.flags.map((f) => `${f.name}@${f.file ?? parts[0]!.file}:${f.line}`)).toEqual([
      "--port@k/overlays/gpu/kustomization.yaml:8",
      "--max-model-len@k/overlays/gpu/kustomization.yaml:8",
    ]);
  });
});
