// preflight through the CLI on shapes the held-out field set C1 found, each written here in our own words: a
// literal key in a compose command and in a rendered kustomize Deployment, a chart that only names an engine.
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const hasKubectl = (() => {
  try {
    execFileSync("kubectl", ["version", "--client"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

async function preflight(files: Record<string, string>): Promise<Report> {
  const r = tempRepo();
  repos.push(r);
  r.commit("add", files);
  let out = "";
  await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
  return JSON.parse(out) as Report;
}
const secrets = (r: Report) =>
  r.findings
    .filter((f: Finding) => f.data?.rule === "secret-in-argv" && f.status !== "pass")
    .map((f) => [f.file, f.line]);

const KEY = "sk-" + "q7Rw2Lx9Tz4Vb8Nc1Md6Kp3Hs5Jf0Gy";

describe("secret-in-argv in YAML launch forms", () => {
  it("finds a literal --api-key in a folded compose command (a profile-gated UI beside it changes nothing)", async () => {
    const compose = `services:
  llm:
    image: example/sglang-build:1
    command: >
      --model-path m
      --port 30000
      --api-key ${KEY}
  ui:
    image: nginx:alpine
    profiles: [ui]
`;
    const report = await preflight({ "compose.yaml": compose });
    expect(secrets(report)).toEqual([["compose.yaml", 7]]);
    // the report must not carry the key it warns about
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it("finds it in a Deployment's command list at the --api-key item, the value on the next item", async () => {
    const dep = `apiVersion: apps/v1
kind: Deployment
metadata: {name: v}
spec:
  template:
    spec:
      containers:
        - name: engine
          image: vllm/vllm-openai:v0.10.1
          command:
            - vllm
            - serve
            - --model
            - /models/m
            - --api-key
            - ${KEY}
`;
    expect(secrets(await preflight({ "deploy.yaml": dep }))).toEqual([["deploy.yaml", 15]]);
  });

  it("stays silent on a key read from the environment", async () => {
    const compose = `services:\n  llm:\n    image: vllm/vllm-openai:v0.10.1\n    command: --model m --api-key \${API_KEY}\n`;
    expect(secrets(await preflight({ "compose.yaml": compose }))).toEqual([]);
  });

  it.runIf(hasKubectl)("finds it in a kustomize overlay's resource, at the resource file's line", async () => {
    const dep = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  template:
    spec:
      containers:
        - name: engine
          image: vllm/vllm-openai:v0.10.1
          command: [vllm, serve]
          args:
            - --api-key
            - ${KEY}
`;
    const report = await preflight({
      "k/a.yaml": dep("a"),
      "k/kustomization.yaml": `resources:\n  - a.yaml\npatches:\n  - patch: |-\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata:\n        name: a\n        labels: {tier: x}\n    target: {kind: Deployment, name: a}\n`,
    });
    expect(secrets(report)).toContainEqual(["k/a.yaml", 12]);
  });
});

describe("discovery of Helm charts", () => {
  const chart = (values: string, template: string) => ({
    "c/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
    "c/values.yaml": values,
    "c/templates/job.yaml": template,
  });
  const job = `apiVersion: batch/v1\nkind: Job\nmetadata: {name: {{ .Release.Name }}}\nspec:\n  template:\n    spec:\n      containers:\n        - name: bench\n          image: {{ .Values.image }}\n          args: [--config_file, /cfg/config.yml]\n`;
  const charts = (r: Report) =>
    r.findings.filter((f) => f.data?.render === "helm" || (f.file ?? "").startsWith("c/")).map((f) => f.file);

  it("leaves out a benchmark chart whose values only name vLLM as the server it measures", async () => {
    const report = await preflight(chart("image: example/perf:1\nconfig:\n  server:\n    type: vllm\n", job));
    expect(charts(report)).toEqual([]);
  });

  it("finds a chart whose values give an engine image", async () => {
    const report = await preflight(chart("image:\n  repository: vllm/vllm-openai\n  tag: v0.10.1\n", job));
    expect(charts(report)).toContain("c/Chart.yaml");
  });
});
