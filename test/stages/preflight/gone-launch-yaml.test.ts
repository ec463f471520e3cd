// Launches that went away whole from YAML (set T1's shapes, in our own words): a compose file whose engine service
// was deleted, leaving only another stack that names no engine; a chart whose values switch its engine off. Each flag
// of the base's launch is reported dropped. Real git repositories, the real helm, the CLI's preflight --json.
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterAll(() => repos.forEach((r) => r.cleanup()));

async function droppedAgainstParent(files: Record<string, string>, after: Record<string, string>) {
  const r = tempRepo();
  repos.push(r);
  r.commit("with the engine", files);
  r.commit("without it", after);
  let out = "";
  await main(["preflight", "--json", "--base", "HEAD~1"], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: r.dir,
  });
  return (JSON.parse(out) as Report).findings
    .filter((f) => f.check === "preflight.dropped-flags" && f.status !== "pass")
    .map((f) => [f.data?.flag, f.data?.baseLine, f.data?.launchGone]);
}

const OLLAMA = "  ollama:\n    image: ollama/ollama:latest\n    ports: ['11434:11434']\n";

describe("a launch that went away whole from YAML", () => {
  it("reports the flags of a compose service deleted from a file that names no engine now", async () => {
    const compose = `services:\n  llm:\n    image: vllm/vllm-openai:latest\n    command: --model m --max-model-len 8192\n${OLLAMA}`;
    expect(await droppedAgainstParent({ "compose.yml": compose }, { "compose.yml": `services:\n${OLLAMA}` })).toEqual([
      ["--model", 4, true],
      ["--max-model-len", 4, true],
    ]);
  });

  it.runIf(hasTool("helm"))("reports the flags of a chart whose values switch its engine off", async () => {
    const chart = (enabled: boolean) => ({
      "chart/Chart.yaml": "apiVersion: v2\nname: llm\nversion: 0.1.0\n",
      "chart/values.yaml": `vllm:\n  enabled: ${enabled}\n`,
      "chart/templates/vllm.yaml": [
        "{{- if .Values.vllm.enabled }}",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata: {name: vllm}",
        "spec:",
        "  selector: {matchLabels: {app: vllm}}",
        "  template:",
        "    metadata: {labels: {app: vllm}}",
        "    spec:",
        "      containers:",
        "        - name: vllm",
        "          image: vllm/vllm-openai:latest",
        "          args:",
        "            - --model=m",
        "            - --served-model-name=llm",
        "{{- end }}",
        "",
      ].join("\n"),
    });
    expect(await droppedAgainstParent(chart(true), { "chart/values.yaml": "vllm:\n  enabled: false\n" })).toEqual([
      ["--model", 14, true],
      ["--served-model-name", 15, true],
    ]);
  });
});
