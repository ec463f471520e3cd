// Dropped flags of a chart or overlay whose base commit does not render (set Q1's shape, in our own words: a base
// manifest wrote `env:` twice, which kustomize refuses, and the commit that fixed it also removed a flag). The
// flag is traced on the manifest as written; a chart that did not render at the base says so, never "no flag
// dropped".
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

const deployment = (args: string[], env: string) =>
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
    "          image: vllm/vllm-openai:v0.11.0",
    '          command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]',
    "          args:",
    ...args.map((a) => `            - "${a}"`),
    env,
    "",
  ].join("\n");
const ENV = "          env:\n            - {name: A, value: '1'}";

async function preflightAgainstParent(r: TempRepo): Promise<Report> {
  let out = "";
  await main(["preflight", "--json", "--base", "HEAD~1"], {
    out: (s) => (out += s),
    err: () => {},
    isTTY: false,
    env: {},
    cwd: r.dir,
  });
  return JSON.parse(out) as Report;
}

describe("dropped flags when the base does not render", () => {
  it.runIf(hasTool("kubectl"))("traces a flag on the overlay's manifest as written at both ends", async () => {
    const r = tempRepo();
    repos.push(r);
    const args = ["--model=m", "--port=8000", '--chat-template-kwargs={\\"enable_thinking\\": false}'];
    r.commit("base writes env twice: kustomize refuses it", {
      "deploy/base/deployment.yaml": deployment(args, `${ENV}\n${ENV}`),
      "deploy/base/kustomization.yaml": "resources:\n  - deployment.yaml\n",
      "deploy/overlays/prod/kustomization.yaml": "resources:\n  - ../../base\nnamePrefix: prod-\n",
    });
    r.commit("fixed, and the thinking switch removed", {
      "deploy/base/deployment.yaml": deployment(args.slice(0, 2), ENV),
    });
    const report = await preflightAgainstParent(r);
    const dropped = report.findings.filter((f) => f.check === "preflight.dropped-flags" && f.status === "warn");
    expect(dropped.map((f) => [f.data?.flag, f.data?.baseLine, f.file])).toEqual([
      ["--chat-template-kwargs", 17, "deploy/base/deployment.yaml"],
    ]);
    expect(dropped[0]!.evidence?.join("\n")).toMatch(/did not render at .*compared as written/);
  });

  it.runIf(hasTool("helm"))("says a chart that did not render at the base was not compared", async () => {
    const r = tempRepo();
    repos.push(r);
    const chart = (cmd: string) => ({
      "chart/Chart.yaml": "apiVersion: v2\nname: engine\nversion: 0.1.0\n",
      "chart/values.yaml": "model: m\n",
      "chart/templates/deployment.yaml": deployment(["--model={{ .Values.model }}", "--port=8000"], "").replace(
        '["python3", "-m", "vllm.entrypoints.openai.api_server"]',
        cmd,
      ),
    });
    r.commit("a template calls a helper nobody defined", chart('["{{ include \\"nope\\" . }}"]'));
    r.commit("fixed", chart('["python3", "-m", "vllm.entrypoints.openai.api_server"]'));
    const report = await preflightAgainstParent(r);
    const dropped = report.findings.filter((f) => f.check === "preflight.dropped-flags");
    expect(dropped.map((f) => [f.status, f.summary])).toEqual([
      ["warn", expect.stringMatching(/^chart did not render at .*: dropped flags not checked$/)],
    ]);
  });
});
