// Shapes held-out round AA found, each written here in our own words, on real git repositories through the CLI's
// preflight --json: a Flux HelmRelease of app-template with two controllers whose containers share the name `app`
// (two parts, each traced against its own earlier version); a chart whose library chart is not in the repository says
// how to fetch it; a chart ranging over values entries places each container's flags on its own entry's list (one list
// a run of the other's; two identical lists, one entry disabled), and traces a flag dropped from it there.
import { afterAll, describe, expect, it } from "vitest";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { hasTool } from "../../helpers/has-tool.js";
import { preflightHistory } from "../../helpers/preflight-report.js";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";
import { renderedParts } from "../../../src/stages/preflight/rendered.js";
import type { GitReader } from "../../../src/ports/git/batched.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

const preflight = (commits: Record<string, string>[], args: string[] = []) => preflightHistory(commits, repos, args);

const release = (embedFlag: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: chat
spec:
  chartRef: {kind: OCIRepository, name: app-template}
  values:
    controllers:
      chat:
        containers:
          app:
            image: {repository: ghcr.io/ggml-org/llama.cpp, tag: server-cuda}
            args: [--port, "8000", --jinja]
      embedder:
        replicas: 0
        containers:
          app:
            image: {repository: vllm/vllm-openai, tag: v0.14.0}
            args:
              - BAAI/bge-m3
              - ${embedFlag}
              - --port=8000
`;

describe("a HelmRelease of app-template with two controllers", () => {
  it("reads each controller's container as its own part, and a flag dropped from the second is traced", async () => {
    const path = "apps/chat/helmrelease.yaml";
    const report = await preflight([{ [path]: release("--task=embed") }, { [path]: release("--convert=embed") }]);
    const parts = report.findings.filter((f) => f.check === "preflight.traps").map((f) => f.data?.part);
    expect(parts).toEqual(["HelmRelease/chat/app", "HelmRelease/chat/embedder/app"]);
    const dropped = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(dropped.map((f) => [f.data?.part, f.data?.flag, f.data?.baseLine])).toEqual([
      ["HelmRelease/chat/embedder/app", "--task", 21],
    ]);
  });
});

describe("a Helm chart whose dependency is not in the repository", () => {
  it.runIf(hasTool("helm"))("says to run helm dependency build, naming the chart", async () => {
    const chart = [
      "apiVersion: v2",
      "name: llama",
      "version: 1.0.0",
      "dependencies:",
      "  - name: common",
      "    version: 1.x.x",
      "    repository: oci://charts.example.invalid/library",
      "",
    ].join("\n");
    const report = await preflight([
      {
        "charts/llama/Chart.yaml": chart,
        "charts/llama/values.yaml": "image:\n  repository: ghcr.io/ggml-org/llama.cpp\n  tag: server\n",
        "charts/llama/templates/common.yaml": '{{ include "common.loader.all" . }}\n',
      },
    ]);
    const said = report.findings.filter((f) => f.check === "preflight.traps");
    expect(said.map((f) => [f.status, f.fix])).toEqual([
      [
        "warn",
        "run `helm dependency build charts/llama` before preflight (it fetches the dependencies Chart.yaml names into charts/llama/charts/), or commit them there",
      ],
    ]);
  });
});

const DEPLOY = `{{- range .Values.servers }}
{{- if .enabled }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
spec:
  template:
    spec:
      containers:
        - name: server
          image: {{ .image }}
          args:
            - --max-model-len={{ .maxLen }}
            {{- range .extra }}
            - {{ . }}
            {{- end }}
{{- end }}
{{- end }}
`;
const values = (bigExtra: string) => `servers:
  - name: small
    enabled: false
    image: vllm/vllm-openai:v0.11.0
    maxLen: 8192
    extra:
      - --enable-auto-tool-choice
      - --tool-call-parser=hermes
  - name: gpu
    enabled: true
    image: vllm/vllm-openai:v0.11.0
    maxLen: 32768
    extra:
      - --enable-auto-tool-choice
      - --tool-call-parser=hermes
${bigExtra}  - name: cpu
    enabled: true
    image: vllm/vllm-openai:v0.11.0
    maxLen: 4096
    extra:
      - --enable-auto-tool-choice
      # no parser on this one
`;
const CHART = { "chart/Chart.yaml": "apiVersion: v2\nname: srv\nversion: 1.0.0\n", "chart/templates/d.yaml": DEPLOY };

async function chartFlags(files: Record<string, string>): Promise<string[][]> {
  const r = tempRepo();
  repos.push(r);
  r.commit("add", files);
  const chart = discoverTargets(r.dir, Object.keys(files)).find((t) => t.render?.dir === "chart")!;
  const parts = await renderedParts({ root: r.dir, reader: {} as GitReader }, chart.render!, null);
  if (!Array.isArray(parts)) throw new Error(JSON.stringify(parts));
  return parts.map((p) => p.script.engine!.flags.map((f) => `${f.name}@${f.file ?? p.file}:${f.line}`));
}

describe.runIf(hasTool("helm"))("a chart that renders one container per values entry", () => {
  it("places each container's flags on its own entry's list, not on the first list that holds them", async () => {
    expect(await chartFlags({ ...CHART, "chart/values.yaml": values("      - --enable-prefix-caching\n") })).toEqual([
      [
        "--max-model-len@chart/templates/d.yaml:15",
        "--enable-auto-tool-choice@chart/values.yaml:14",
        "--tool-call-parser@chart/values.yaml:15",
        "--enable-prefix-caching@chart/values.yaml:16",
      ],
      ["--max-model-len@chart/templates/d.yaml:15", "--enable-auto-tool-choice@chart/values.yaml:22"],
    ]);
  });

  it("of two identical lists, takes the enabled entry's, and traces a flag dropped from it there", async () => {
    expect(await chartFlags({ ...CHART, "chart/values.yaml": values("") })).toEqual([
      [
        "--max-model-len@chart/templates/d.yaml:15",
        "--enable-auto-tool-choice@chart/values.yaml:14",
        "--tool-call-parser@chart/values.yaml:15",
      ],
      ["--max-model-len@chart/templates/d.yaml:15", "--enable-auto-tool-choice@chart/values.yaml:21"],
    ]);
    const dropped = values("").replace("      - --tool-call-parser=hermes\n  - name: cpu", "  - name: cpu");
    const report = await preflight(
      [
        { ...CHART, "chart/values.yaml": values("") },
        { ...CHART, "chart/values.yaml": dropped },
      ],
      ["--base", "HEAD~1"],
    );
    const found = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass");
    expect(found.map((f) => [f.data?.flag, f.data?.baseLine])).toEqual([["--tool-call-parser", 15]]);
  });
});
