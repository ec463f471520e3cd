// The Argo Rollouts integration a user copies (examples/argo-rollouts/): every manifest validated by
// Argo Rollouts' typed models (@kubernetes-models/argo-rollouts, generated from the Rollouts CRDs; the
// core objects by kubernetes-models), the Job's command read by the gate's own argument parser, the
// ConfigMap's deploy-gate.yml by its config loader, and the Rollout's analysis args against the template's.
import { readFileSync } from "node:fs";
import { ClusterAnalysisTemplate, Rollout } from "@kubernetes-models/argo-rollouts/argoproj.io/v1alpha1";
import { ConfigMap, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseCli } from "../../src/cli/args.js";
import { parseConfig } from "../../src/domain/config/load.js";

const DIR = "examples/argo-rollouts";
// manifests are walked by path here, as kubectl would read them: untyped on purpose
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Y = any;
const docs = (file: string) =>
  parseAllDocuments(readFileSync(`${DIR}/${file}`, "utf8")).map((d) => d.toJS() as Record<string, Y>);
const MODELS: Record<string, new (o: Y) => { validate(): void }> = {
  ClusterAnalysisTemplate,
  Rollout,
  ConfigMap,
  Service,
};
const validate = (o: Record<string, Y>) => {
  const Model = MODELS[o.kind as string];
  if (!Model) throw new Error(`no model for kind ${o.kind}`);
  new Model(o).validate();
};

const template = docs("cluster-analysis-template.yaml")[0]!;
const rolloutDocs = docs("rollout.yaml");
const rollout = rolloutDocs.find((d) => d.kind === "Rollout")!;

describe("Argo Rollouts example", () => {
  it("every manifest is valid against Argo Rollouts' and Kubernetes' own models", () => {
    for (const d of [template, ...rolloutDocs])
      expect(() => validate(d), `${d.kind} ${d.metadata?.name}`).not.toThrow();
    expect(rolloutDocs.map((d) => d.kind)).toEqual(["ConfigMap", "Service", "Service", "Rollout"]);
  });

  it("the models refuse what a cluster would (planted: args as one string, a template ref with no name)", () => {
    const bad = structuredClone(template);
    bad.spec.metrics[0].provider.job.spec.template.spec.containers[0].args = "verify --url x";
    expect(() => validate(bad)).toThrow(/args must be array/);
    const noRef = structuredClone(rollout);
    noRef.spec.strategy.blueGreen.prePromotionAnalysis.templates = [{ clusterScope: true, templateName: 7 }];
    expect(() => validate(noRef)).toThrow(/templateName must be string/);
  });

  it("the Job runs verify over HTTP alone with the args the Rollout passes, and the ConfigMap names that endpoint", () => {
    const analysis = rollout.spec.strategy.blueGreen.prePromotionAnalysis;
    expect(analysis.templates).toEqual([{ templateName: template.metadata.name, clusterScope: true }]);
    const given = Object.fromEntries(
      (analysis.args as { name: string; value: string }[]).map((a) => [a.name, a.value]),
    );
    const declared = template.spec.args as { name: string; value?: string }[];
    for (const a of declared) expect(a.value ?? given[a.name], `arg ${a.name}`).toBeDefined();
    for (const n of Object.keys(given)) expect(declared.map((a) => a.name)).toContain(n);
    const values = { ...Object.fromEntries(declared.map((a) => [a.name, a.value])), ...given };
    const fill = (s: string) => s.replace(/\{\{args\.([\w-]+)\}\}/g, (_, n: string) => values[n]!);
    const job = template.spec.metrics[0].provider.job.spec.template.spec;
    const c = job.containers[0];
    const opts = parseCli((c.args as string[]).map(fill), "/tmp");
    expect(opts).toMatchObject({ command: "verify", url: "http://chat-preview.llm.svc:8000", endpoint: "chat" });
    const mount = c.volumeMounts[0].mountPath as string;
    expect((opts as { config: string }).config.startsWith(`${mount}/`)).toBe(true);
    const cm = rolloutDocs.find((d) => d.kind === "ConfigMap" && d.metadata.name === values["config-map"])!;
    const cfg = parseConfig(cm.data["deploy-gate.yml"] as string, "deploy-gate.yml");
    expect(Object.keys(cfg.endpoints)).toContain(values.endpoint);
    // the key reaches the gate by the environment, never argv
    expect(c.env[0]).toMatchObject({ name: "DEPLOY_GATE_API_KEY", valueFrom: { secretKeyRef: { key: "api-key" } } });
    expect(job.securityContext.runAsNonRoot).toBe(true);
  });

  it("the image: Node 24, a non-root user, an exec-form entrypoint (no shell), nothing run at build", () => {
    const lines = readFileSync(`${DIR}/Dockerfile`, "utf8")
      .split("\n")
      .filter((l) => l.trim() && !l.startsWith("#"));
    expect(lines[0]).toMatch(/^FROM node:24(-|$)/);
    const user = lines.find((l) => l.startsWith("USER "))!;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(JSON.parse(lines.find((l) => l.startsWith("ENTRYPOINT "))!.slice(11))).toEqual([
      "node",
      "/opt/deploy-gate/cli.js",
    ]);
    expect(lines.filter((l) => /^RUN /.test(l))).toEqual([]);
  });
});
