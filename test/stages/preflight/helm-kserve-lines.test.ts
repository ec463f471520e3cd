// Lines of flags a chart writes away from its template's aligned line (set R1's shapes, in our own words): a flag
// `printf ... | quote` writes is on that line, not on the line the render aligned it with; the args an
// InferenceService copies from values (`toYaml .Values.model.args`) and KServe appends to its runtime's are at the
// values lines.
import { afterEach, describe, expect, it } from "vitest";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";
import { renderedParts } from "../../../src/stages/preflight/rendered.js";
import type { GitReader } from "../../../src/ports/git/batched.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const FILES = {
  "chart/Chart.yaml": "apiVersion: v2\nname: llm\nversion: 0.1.0\n",
  "chart/values.yaml": [
    "kwargs: '{\"enable_thinking\": false}'",
    "chatTemplate: ''",
    "model:",
    "  args:",
    "    - --max-model-len=8192",
    "    - --enforce-eager",
    "",
  ].join("\n"),
  "chart/templates/runtime.yaml": [
    "apiVersion: serving.kserve.io/v1alpha1",
    "kind: ServingRuntime",
    "metadata:",
    "  name: vllm-runtime",
    "spec:",
    "  containers:",
    "    - name: kserve-container",
    "      image: vllm/vllm-openai:v0.11.0",
    "      command: [python, -m, vllm.entrypoints.openai.api_server]",
    "      args:",
    "        - --port=8080",
    "        {{- if .Values.chatTemplate }}",
    "        - --chat-template={{ .Values.chatTemplate }}",
    "        {{- end }}",
    '        - {{ printf "--default-chat-template-kwargs=%s" .Values.kwargs | quote }}',
    "",
  ].join("\n"),
  "chart/templates/isvc.yaml": [
    "apiVersion: serving.kserve.io/v1beta1",
    "kind: InferenceService",
    "metadata:",
    "  name: llm",
    "spec:",
    "  predictor:",
    "    model:",
    "      runtime: vllm-runtime",
    "      modelFormat: {name: vLLM}",
    "      args:",
    "        {{- toYaml .Values.model.args | nindent 8 }}",
    "",
  ].join("\n"),
};

describe.runIf(hasTool("helm"))("a KServe chart's flag lines", () => {
  it("puts a printf-written flag on its own line and the InferenceService's args at their values lines", async () => {
    const r = tempRepo();
    repos.push(r);
    r.commit("add", FILES);
    const chart = discoverTargets(r.dir, Object.keys(FILES)).find((t) => t.render?.dir === "chart")!;
    const parts = await renderedParts({ root: r.dir, reader: {} as GitReader }, chart.render!, null);
    if (!Array.isArray(parts)) throw new Error(JSON.stringify(parts));
    expect(parts.map((p) => p.script.engine!.flags.map((f) => `${f.name}@${f.file ?? p.file}:${f.line}`))).toEqual([
      [
        "--port@chart/templates/runtime.yaml:11",
        "--default-chat-template-kwargs@chart/templates/runtime.yaml:15",
        "--max-model-len@chart/values.yaml:5",
        "--enforce-eager@chart/values.yaml:6",
      ],
    ]);
  });
});
