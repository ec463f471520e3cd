// A chart whose template copies its probes from values (`{{- with .Values.livenessProbe }} livenessProbe: {{- toYaml
// . | nindent 12 }}`, the `helm create` scaffold; set P1's two charts, in our own words): start-timeout is reported
// at the values.yaml key a user edits, not at the template line that copies it.
import { afterEach, describe, expect, it } from "vitest";
import type { Report } from "../../../src/domain/report/finding.js";
import { keyLine } from "../../../src/stages/preflight/probe-lines.js";
import { hasTool } from "../../helpers/has-tool.js";
import { preflightReport } from "../../helpers/preflight-report.js";
import type { TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const TEMPLATE = [
  "apiVersion: apps/v1",
  "kind: Deployment",
  "metadata:",
  "  name: {{ .Release.Name }}-engine",
  "spec:",
  "  selector: {matchLabels: {app: engine}}",
  "  template:",
  "    metadata: {labels: {app: engine}}",
  "    spec:",
  "      containers:",
  "        - name: engine",
  "          image: vllm/vllm-openai:v0.11.0",
  '          args: ["--model", "m", "--port", "8000"]',
  "          {{- with .Values.startupProbe }}",
  "          startupProbe:",
  "            {{- toYaml . | nindent 12 }}",
  "          {{- end }}",
  "          livenessProbe:",
  "            {{- toYaml .Values.probes.liveness | nindent 12 }}",
  "",
].join("\n");

describe("probes copied from values", () => {
  it("finds a nested key's line, top-level keys only at column 0", () => {
    const values =
      "engine:\n  startupProbe: {}\nstartupProbe:\n  httpGet: {path: /health, port: 8000}\nprobes:\n  liveness:\n    x: 1\n";
    expect(keyLine(values, ["startupProbe"])).toBe(3);
    expect(keyLine(values, ["probes", "liveness"])).toBe(6);
    expect(keyLine(values, ["missing"])).toBe(-1);
  });

  it.runIf(hasTool("helm"))("reports start-timeout at the values.yaml key the template copies", async () => {
    const values = [
      "# probes",
      "startupProbe:",
      "  httpGet: {path: /health, port: 8000}",
      "  failureThreshold: 30",
      "  periodSeconds: 10",
      "probes:",
      "  liveness:",
      "    httpGet: {path: /health, port: 8000}",
      "",
    ].join("\n");
    const report: Report = await preflightReport(
      {
        "chart/Chart.yaml": "apiVersion: v2\nname: engine\nversion: 0.1.0\n",
        "chart/values.yaml": values,
        "chart/templates/deployment.yaml": TEMPLATE,
      },
      repos,
    );
    const hits = report.findings.filter((f) => f.data?.rule === "start-timeout" && f.status !== "pass");
    // the startupProbe (300 s) sets the budget when both exist
    expect(hits.map((f) => [f.file, f.line])).toEqual([["chart/values.yaml", 2]]);
  });

  it.runIf(hasTool("helm"))(
    "follows a helper that copies the probe from values to its values.yaml key (round Z)",
    async () => {
      const helpers = [
        '{{- define "engine.probes" -}}',
        "{{- if .Values.livenessProbe }}",
        "livenessProbe:",
        "{{- with .Values.livenessProbe }}",
        "{{- toYaml . | nindent 2 }}",
        "{{- end }}",
        "{{- end }}",
        "{{- end }}",
        "",
      ].join("\n");
      const template = TEMPLATE.split("\n")
        .slice(0, 13)
        .concat(['          {{- include "engine.probes" . | nindent 10 }}', ""])
        .join("\n");
      const values =
        "replicas: 1\nlivenessProbe:\n  initialDelaySeconds: 15\n  periodSeconds: 10\n  httpGet: {path: /health, port: 8000}\n";
      const report: Report = await preflightReport(
        {
          "chart/Chart.yaml": "apiVersion: v2\nname: engine\nversion: 0.1.0\n",
          "chart/values.yaml": values,
          "chart/templates/_helpers.tpl": helpers,
          "chart/templates/deployment.yaml": template,
        },
        repos,
      );
      const hits = report.findings.filter((f) => f.data?.rule === "start-timeout" && f.status !== "pass");
      expect(hits.map((f) => [f.file, f.line])).toEqual([["chart/values.yaml", 2]]);
    },
  );
});
