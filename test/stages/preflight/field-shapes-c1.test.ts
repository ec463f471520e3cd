// preflight through the CLI on shapes the held-out field set C1 found, each written here in our own words: a
// literal key in a compose command and in a rendered kustomize Deployment, a chart that only names an engine.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { discoverTargets } from "../../../src/stages/preflight/discover.js";
import { renderedParts } from "../../../src/stages/preflight/rendered.js";
import type { GitReader } from "../../../src/ports/git/batched.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { hasTool } from "../../helpers/has-tool.js";
import { tempRepo, type TempRepo } from "../../helpers/repo.js";
import { preflightReport } from "../../helpers/preflight-report.js";

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));
const hasKubectl = hasTool("kubectl");

const preflight = (files: Record<string, string>) => preflightReport(files, repos);
const secrets = (r: Report) =>
  r.findings
    .filter((f: Finding) => f.data?.rule === "secret-in-argv" && f.status !== "pass")
    .map((f) => [f.file, f.line]);

/** A Deployment's lines up to its container's name (8 lines, so the lines after it keep their numbers). */
const deployment = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  template:\n    spec:\n      containers:\n        - name: engine\n`;

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
    const dep = `${deployment("v")}          image: vllm/vllm-openai:v0.10.1
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
    const dep = (name: string) => `${deployment(name)}          image: vllm/vllm-openai:v0.10.1
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
    // rendered by helm when it is on PATH (the Job's template), else named once as a chart helm would render
    expect(charts(report)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^c\/(Chart|templates\/job)\.yaml$/)]),
    );
  });
});

describe("a kustomize overlay that reaches a file outside its directory", () => {
  const dep = `${deployment("v")}          image: vllm/vllm-openai:v0.10.1
          args: [--model, m, --tensor-parallel-size, "2"]
`;
  const patch = `${deployment("v")}          args:
            - --model
            - m
            - --kv-cache-dtype
            - fp8
`;
  const overlay = (resource: string, patchText = patch) => ({
    "serve/dep.yaml": dep,
    "serve/ov/kustomization.yaml": `resources:\n  - ${resource}\npatches:\n  - path: patch.yaml\n`,
    "serve/ov/patch.yaml": patchText,
  });

  it.runIf(hasKubectl)(
    "says plainly that kubectl kustomize refuses it, and checks what it means with the restrictor off",
    async () => {
      const report = await preflight(overlay("../dep.yaml"));
      const said = report.findings.filter((f) => f.data?.render === "kustomize" && f.status === "warn");
      expect(said.map((f) => [f.file, f.summary])).toEqual([
        [
          "serve/ov/kustomization.yaml",
          expect.stringMatching(
            /^kubectl kustomize serve\/ov refuses serve\/dep\.yaml: .*LoadRestrictionsRootOnly.*kubectl apply -k serve\/ov` fails the same way/,
          ),
        ],
      ]);
      expect(said[0]!.fix).toMatch(/--load-restrictor LoadRestrictionsNone serve\/ov/);
      // the patched container is read from the patch's lines
      const parts = report.findings.filter((f) => f.check === "preflight.traps" && f.data?.part).map((f) => f.file);
      expect(parts).toContain("serve/ov/patch.yaml");
    },
  );

  it.runIf(hasKubectl)("an inline JSON patch's `path: /spec/...` pointers name no file (round AC)", async () => {
    const files = overlay("../dep.yaml");
    files["serve/ov/kustomization.yaml"] +=
      "  - target: {kind: Deployment, name: v}\n    patch: |-\n      - op: add\n        path: /spec/replicas\n        value: 2\n";
    // (kustomize's own deprecation warning comes first on stderr: the refusal is still read)
    files["serve/ov/kustomization.yaml"] += "commonLabels:\n  env: dev\n";
    const report = await preflight(files);
    const said = report.findings.filter((f) => f.data?.render === "kustomize" && f.status === "warn");
    expect(said.map((f) => [f.data?.restricted, f.summary])).toEqual([
      [true, expect.stringMatching(/refuses serve\/dep.yaml/)],
    ]);
  });

  it.runIf(hasKubectl)("does not lift the restrictor for a path that leaves the repository", async () => {
    // a valid manifest beside the repository: with the restrictor off kustomize would read it
    const outside = mkdtempSync(join(tmpdir(), "dg-outside-"));
    try {
      writeFileSync(join(outside, "dep.yaml"), dep);
      const r = tempRepo();
      repos.push(r);
      const up = relative(join(r.dir, "serve", "ov"), join(outside, "dep.yaml"));
      r.commit("add", overlay(up, patch.replace("args:", "image: vllm/vllm-openai:v0.10.1\n          args:")));
      let out = "";
      await main(["preflight", "--json"], { out: (s) => (out += s), err: () => {}, isTTY: false, env: {}, cwd: r.dir });
      const said = (JSON.parse(out) as Report).findings.filter(
        (f) => f.data?.render === "kustomize" && f.status === "warn",
      );
      expect(said.map((f) => f.summary)).toEqual([expect.stringMatching(/did not render: .*security; file/)]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("a kustomize patch that replaces the args list", () => {
  it.runIf(hasKubectl)("puts every flag at the patch's line, the ones the base writes the same way too", async () => {
    const base = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: v
spec:
  template:
    metadata:
      labels: {app: v}
    spec:
      containers:
      - name: engine
        image: vllm/vllm-openai:v0.10.1
        args:
        - --model=m
        - --tensor-parallel-size=2
        env:
        - name: HF_HOME
          value: /cache
        volumeMounts:
        - mountPath: /dev/shm
          name: dshm
      volumes:
      - name: dshm
        emptyDir:
          medium: Memory
`;
    const patch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: v
spec:
  template:
    spec:
      containers:
      - name: engine
        args:
        - --model=m
        - --tensor-parallel-size=1
        - --kv-cache-dtype=fp8
`;
    const r = tempRepo();
    repos.push(r);
    r.commit("add", {
      "base/dep.yaml": base,
      "base/kustomization.yaml": "resources:\n  - dep.yaml\n",
      "ov/kustomization.yaml": "resources:\n  - ../base\npatches:\n  - path: patch.yaml\n",
      "ov/patch.yaml": patch,
    });
    const files = r.git("ls-files").split("\n").filter(Boolean);
    const overlay = discoverTargets(r.dir, files).find((t) => t.render?.dir === "ov")!;
    const parts = await renderedParts({ root: r.dir, reader: {} as GitReader }, overlay.render!, null);
    if (!Array.isArray(parts)) throw new Error(JSON.stringify(parts));
    expect(parts[0]!.script.engine!.flags.map((f) => `${f.name}@${f.file ?? parts[0]!.file}:${f.line}`)).toEqual([
      "--model@ov/patch.yaml:11",
      "--tensor-parallel-size@ov/patch.yaml:12",
      "--kv-cache-dtype@ov/patch.yaml:13",
    ]);
  });
});
