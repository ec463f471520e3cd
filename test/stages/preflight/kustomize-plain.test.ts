// A kustomize directory that only lists its own manifests (set P1's and Q1's shape, in our own words): rendered only
// to learn whether `kubectl apply -k` takes it; its manifests are read as written, once, line for line (a render
// rewrites a flow list). When kustomize refuses it (a manifest writes a key twice, which `kubectl apply -f` lets
// through), that is said once.
import { afterEach, describe, expect, it } from "vitest";
import type { Report } from "../../../src/domain/report/finding.js";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { preflightReport } from "../../helpers/preflight-report.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const manifest = (probe: string) =>
  [
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    "  name: vllm",
    "spec:",
    "  selector: {matchLabels: {app: vllm}}",
    "  template:",
    "    metadata: {labels: {app: vllm}}",
    "    spec:",
    "      containers:",
    "        - name: vllm",
    "          image: vllm/vllm-openai:v0.11.0",
    "          args:",
    "            - --model=m",
    "            - --max-model-len=8192",
    "          livenessProbe:",
    "            httpGet: {path: /health, port: 8000}",
    probe,
    "",
  ].join("\n");
const files = (probe: string) => ({
  "k8s/kustomization.yaml": "namespace: llm\nresources:\n  - vllm.yaml\n  - client.yaml\n",
  "k8s/vllm.yaml": manifest(probe),
  "k8s/client.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: client}\ndata: {url: http://vllm:8000}\n",
});
const rules = (r: Report) =>
  r.findings
    .filter((f) => f.check === "preflight.traps" && f.status !== "pass")
    .map((f) => [f.data?.rule ?? "render", f.file, f.line]);

describe("a kustomize directory of plain manifests", () => {
  it("is a render target only when a manifest it lists starts an engine", () => {
    const r = tempRepo();
    repos.push(r);
    const f = files("            initialDelaySeconds: 900");
    r.commit("add", {
      ...f,
      "other/kustomization.yaml": "resources:\n  - cm.yaml\n",
      "other/cm.yaml": f["k8s/client.yaml"],
    });
    const rendered = discoverTargets(r.dir, [...Object.keys(f), "other/kustomization.yaml", "other/cm.yaml"]).filter(
      (t) => t.render,
    );
    expect(rendered.map((t) => [t.render!.dir, t.render!.plain, t.render!.sources])).toEqual([
      ["k8s", true, ["k8s/vllm.yaml", "k8s/client.yaml"]],
    ]);
  });

  it.runIf(hasTool("kubectl"))(
    "checks the engine once, at the manifest's own lines, and says nothing more",
    async () => {
      const report = await preflightReport(
        files("            initialDelaySeconds: 60\n            periodSeconds: 10\n            failureThreshold: 3"),
        repos,
      );
      expect(rules(report)).toEqual([["start-timeout", "k8s/vllm.yaml", 16]]);
    },
  );

  it.runIf(hasTool("kubectl"))("says once that kustomize refuses it, and checks the manifest as written", async () => {
    const report = await preflightReport(
      files("            failureThreshold: 3\n            initialDelaySeconds: 60\n            failureThreshold: 2"),
      repos,
    );
    const refused = report.findings.filter((f) => f.data?.rendered === false);
    expect(refused.map((f) => [f.status, f.file])).toEqual([["warn", "k8s/kustomization.yaml"]]);
    expect(refused[0]!.summary).toMatch(/kubectl apply -k k8s` would too: .*already defined.*checked as written/);
    expect(rules(report)).toEqual([
      ["render", "k8s/kustomization.yaml", undefined],
      ["start-timeout", "k8s/vllm.yaml", 16],
    ]);
  });
});
