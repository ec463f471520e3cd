// Helm charts rendered by the real helm (.ci/run installs it; under DEPLOY_GATE_E2E=required a missing helm fails
// these tests instead of skipping them): flags traced to the template, helper or values line that writes them, a
// chart's file:// dependencies rendered without writing the work tree, a chart that starts nothing left silent.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { deploymentHead } from "../../helpers/manifests.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const chartYaml = (name: string) => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`;
const newRepo = (): TempRepo => {
  const r = tempRepo();
  repos.push(r);
  return r;
};

const helm = (() => {
  try {
    execFileSync("helm", ["version", "--short"], { stdio: "ignore" });
    return true;
  } catch {
    if (process.env.DEPLOY_GATE_E2E === "required") throw new Error("helm is not on PATH: .ci/run installs it");
    return false;
  }
})();

async function preflight(cwd: string, ...args: string[]): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", ...args], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd });
  return JSON.parse(out) as Report;
}
const of = (r: Report, check: string, status?: string) =>
  r.findings.filter((f: Finding) => f.check === check && (!status || f.status === status));

const DEPLOYMENT = (args: string) => `${deploymentHead("{{ .Release.Name }}")}        - name: vllm
          image: vllm/vllm-openai:v0.10.1
          args:
${args}`;

describe.runIf(helm)("helm charts", () => {
  it("traces a flag a values list writes to its values line, and its drop to the commit that took it out", async () => {
    const r = newRepo();
    const values =
      "args:\n  - --model\n  - Qwen/Qwen3-8B\n  - --reasoning-parser\n  - qwen3\n  - --max-model-len=32768\n";
    const first = r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": values,
      "chart/templates/deployment.yaml": DEPLOYMENT("            {{- toYaml .Values.args | nindent 12 }}\n"),
    });
    r.commit("no parser", { "chart/values.yaml": values.replace("  - --reasoning-parser\n  - qwen3\n", "") });
    const report = await preflight(r.dir, "--base", first);
    const dropped = of(report, "preflight.dropped-flags", "fail");
    expect(dropped.map((f) => [f.data?.flag, f.data?.part])).toEqual([
      ["--reasoning-parser", "Deployment/deploy-gate/vllm"],
    ]);
    // written at line 4 of values.yaml at the base commit, not at the template's toYaml line
    expect(dropped[0]!.evidence?.[1]).toMatch(/:chart\/values\.yaml:4: --reasoning-parser qwen3$/);
  });

  it("puts the flags of a long sh -c string toYaml folds over two lines at the values line that holds them", async () => {
    const r = newRepo();
    const long =
      "vllm serve openai/gpt-oss-20b --trust-remote-code --enable-chunked-prefill --enable-auto-tool-choice " +
      "--tool-call-parser openai --reasoning-parser openai_gptoss";
    const first = r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": `vllm:\n  command:\n    - /bin/sh\n    - -c\n  args:\n    - "${long}"\n`,
      "chart/templates/deployment.yaml": DEPLOYMENT(
        "            {{- toYaml .Values.vllm.args | nindent 12 }}\n",
      ).replace(
        "          args:\n",
        "          command:\n            {{- toYaml .Values.vllm.command | nindent 12 }}\n          args:\n",
      ),
    });
    r.commit("no parser", {
      "chart/values.yaml": `vllm:\n  command:\n    - /bin/sh\n    - -c\n  args:\n    - "${long.replace(" --reasoning-parser openai_gptoss", "")}"\n`,
    });
    const dropped = of(await preflight(r.dir, "--base", first), "preflight.dropped-flags", "fail");
    expect(dropped.map((f) => f.evidence?.[1])).toEqual([
      expect.stringMatching(/:chart\/values\.yaml:6: --reasoning-parser openai_gptoss$/),
    ]);
  });

  it("puts a flag an included helper writes at the helper's line, and a filled flag at its template line", async () => {
    const r = newRepo();
    const first = r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": "model: Qwen/Qwen3-8B\nlen: 32768\n",
      "chart/templates/_serve.tpl": [
        '{{- define "serve" -}}',
        "exec vllm serve {{ .Values.model }} \\",
        "  --max-model-len={{ .Values.len }} \\",
        "  --reasoning-parser qwen3",
        "{{- end }}",
        "",
      ].join("\n"),
      "chart/templates/deployment.yaml": DEPLOYMENT(
        '            - "--port={{ .Values.port | default 8000 }}"\n' +
          '          command: ["sh", "-c"]\n' +
          "          {{- if false }}\n          - |\n            echo never\n          {{- end }}\n",
      ).replace(
        "          args:\n",
        '          args:\n            - |\n              {{- include "serve" . | nindent 14 }}\n',
      ),
    });
    r.commit("drop the parser", {
      "chart/templates/_serve.tpl": [
        '{{- define "serve" -}}',
        "exec vllm serve {{ .Values.model }} \\",
        "  --max-model-len={{ .Values.len }}",
        "{{- end }}",
        "",
      ].join("\n"),
    });
    const report = await preflight(r.dir, "--base", first);
    const dropped = of(report, "preflight.dropped-flags", "fail");
    expect(dropped.map((f) => f.evidence?.[1])).toEqual([
      expect.stringMatching(/:chart\/templates\/_serve\.tpl:4: --reasoning-parser qwen3$/),
    ]);
  });

  it("renders a chart whose dependency is another chart of the repository, leaving the work tree as it was", async () => {
    const r = newRepo();
    r.commit("charts", {
      "charts/lib/Chart.yaml": chartYaml("lib"),
      "charts/lib/templates/sa.yaml": "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: lib-sa\n",
      "charts/vllm/Chart.yaml":
        "apiVersion: v2\nname: vllm\nversion: 0.1.0\ndependencies:\n  - name: lib\n    version: 0.1.0\n    repository: file://../lib\n",
      "charts/vllm/values.yaml": "{}\n",
      "charts/vllm/templates/deployment.yaml": DEPLOYMENT("            - --model\n            - Qwen/Qwen3-8B\n"),
    });
    const report = await preflight(r.dir);
    const traps = of(report, "preflight.traps");
    expect(traps.map((f) => [f.file, f.data?.part])).toEqual([
      ["charts/vllm/templates/deployment.yaml", "Deployment/deploy-gate/vllm"],
    ]);
    expect(existsSync(join(r.dir, "charts/vllm/charts"))).toBe(false);
    expect(of(report, "preflight.clean-tree").map((f) => f.status)).toEqual(["pass"]);
  });

  it("reports a trap at the values or helper line that causes it, with what it read as evidence", async () => {
    const r = newRepo();
    r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": 'extraArgs:\n  - --tensor-parallel-size\n  - "4"\nliveness:\n  periodSeconds: 10\n',
      "chart/templates/_helpers.tpl":
        '{{- define "llm.probes" -}}\nlivenessProbe:\n  httpGet:\n    path: /health\n    port: 8000\n' +
        "  periodSeconds: {{ .Values.liveness.periodSeconds }}\n  failureThreshold: 3\n{{- end }}\n",
      "chart/templates/deployment.yaml":
        DEPLOYMENT(
          "            - --model\n            - x\n            {{- toYaml .Values.extraArgs | nindent 12 }}\n",
        ) + '          {{- include "llm.probes" . | nindent 10 }}\n',
    });
    const traps = of(await preflight(r.dir), "preflight.traps").filter((f) => f.status !== "pass");
    const at = (rule: string) => traps.find((f) => f.data?.rule === rule);
    expect([at("small-shm")?.file, at("small-shm")?.line]).toEqual(["chart/values.yaml", 2]);
    expect(at("small-shm")?.evidence?.join("\n")).toContain("--tensor-parallel-size 4");
    expect([at("start-timeout")?.file, at("start-timeout")?.line]).toEqual(["chart/templates/_helpers.tpl", 2]);
  });

  it("puts a flag a range writes inside a one-line sh -c string at its values line", async () => {
    const r = newRepo();
    const first = r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": 'model: m\nargs:\n  - "--load-format auto"\n  - "--enforce-eager"\n',
      "chart/templates/deployment.yaml":
        `${deploymentHead("{{ .Release.Name }}")}        - name: vllm\n          image: vllm/vllm-openai:v0.10.1\n` +
        '          command: ["/bin/sh", "-c"]\n' +
        '          args: ["vllm serve {{ .Values.model }} --port 8000{{ range .Values.args }} {{ . }}{{ end }}"]\n',
    });
    r.commit("eager off", { "chart/values.yaml": 'model: m\nargs:\n  - "--load-format auto"\n' });
    const report = await preflight(r.dir, "--base", first);
    const dropped = of(report, "preflight.dropped-flags").filter((f) => f.status !== "pass");
    expect(dropped.map((f) => [f.data?.flag, f.evidence?.[1]])).toEqual([
      ["--enforce-eager", expect.stringMatching(/:chart\/values\.yaml:4: --enforce-eager$/)],
    ]);
  });

  it("stays silent on a chart whose engine is switched off by its values", async () => {
    const r = newRepo();
    r.commit("chart", {
      "chart/Chart.yaml": chartYaml("llm"),
      "chart/values.yaml": "single:\n  enabled: false\nimages:\n  vLLM: vllm/vllm-openai:v0.10.1\n",
      "chart/templates/deployment.yaml":
        "{{- if .Values.single.enabled }}\n" +
        DEPLOYMENT("            - --model\n            - x\n").replace(
          "vllm/vllm-openai:v0.10.1",
          "{{ .Values.images.vLLM }}",
        ) +
        "{{- end }}\n",
    });
    const report = await preflight(r.dir);
    expect(report.findings.filter((f) => f.status === "fail" || f.status === "warn")).toEqual([]);
  });
});
