// The Flagger integration a user copies (examples/flagger/): the core objects validated by Kubernetes'
// models (kubernetes-models), the webhook Deployment's command read by the gate's own parser, the url
// template filled as the server fills it, and the Canary's hooks (no typed model of Flagger's CRD is
// published on npm: its fields are checked against Flagger's webhooks doc, fluxcd/flagger
// docs/gitbook/usage/webhooks.md at 061c179: types pre-rollout and rollout, url, timeout, string metadata).
import { readFileSync } from "node:fs";
import { ConfigMap, Service } from "kubernetes-models/v1";
import { Deployment } from "kubernetes-models/apps/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseCli } from "../../src/cli/args.js";
import type { Options } from "../../src/commands/options.js";
import { parseListen } from "../../src/commands/webhook/server.js";
import { parseConfig } from "../../src/domain/config/load.js";
import { fillUrl } from "../../src/domain/webhook/flagger.js";
import { parseDuration } from "../../src/lib/duration.js";

// manifests are walked by path here, as kubectl would read them: untyped on purpose
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Y = any;
const docs = (file: string) =>
  parseAllDocuments(readFileSync(`examples/flagger/${file}`, "utf8")).map((d) => d.toJS() as Record<string, Y>);
const MODELS: Record<string, new (o: Y) => { validate(): void }> = { ConfigMap, Service, Deployment };
const hook = docs("webhook.yaml");
const canary = docs("canary.yaml")[0]!;
const byKind = (k: string) => hook.find((d) => d.kind === k)!;

describe("Flagger example", () => {
  it("the webhook's ConfigMap, Deployment and Service are valid Kubernetes objects; a planted fault is not", () => {
    for (const d of hook) expect(() => new MODELS[d.kind as string]!(d).validate(), d.kind).not.toThrow();
    const bad = structuredClone(byKind("Deployment"));
    bad.spec.template.spec.containers[0].ports[0].containerPort = "8080";
    expect(() => new Deployment(bad).validate()).toThrow(/containerPort must be integer/);
  });

  it("the Deployment runs `deploy-gate webhook` on the port its Service targets, with a deadline under the hooks' timeout", () => {
    const c = byKind("Deployment").spec.template.spec.containers[0];
    const opts = parseCli(c.args as string[], "/tmp") as Options;
    expect(opts.command).toBe("webhook");
    // {namespace} fills the url: only the canary's own namespace may be judged (and receive the API key)
    expect(opts.namespaces).toEqual([canary.metadata.namespace]);
    const port = parseListen(opts.listen!)!.port;
    expect(byKind("Service").spec.ports[0].targetPort).toBe(port);
    expect(c.readinessProbe.httpGet).toEqual({ path: "/healthz", port });
    for (const w of canary.spec.analysis.webhooks as { timeout: string }[])
      expect(opts.deadlineMs!).toBeLessThan(parseDuration(w.timeout)!);
    expect(c.env[0]).toMatchObject({ name: "DEPLOY_GATE_API_KEY", valueFrom: { secretKeyRef: { key: "api-key" } } });
  });

  it("the Canary calls it before traffic and at each step, naming an endpoint whose url becomes the canary Service", () => {
    const svc = byKind("Service").metadata;
    const cfg = parseConfig(byKind("ConfigMap").data["deploy-gate.yml"] as string, "deploy-gate.yml");
    const hooks = canary.spec.analysis.webhooks as { type: string; url: string; metadata: Record<string, string> }[];
    expect(hooks.map((w) => w.type).sort()).toEqual(["pre-rollout", "rollout"]);
    for (const w of hooks) {
      expect(new URL(w.url).host).toBe(`${svc.name}.${svc.namespace}`);
      const ep = cfg.endpoints[w.metadata.endpoint!]!;
      expect(fillUrl(ep.url!, { name: canary.metadata.name, namespace: canary.metadata.namespace })).toBe(
        `http://${canary.metadata.name}-canary.${canary.metadata.namespace}:${canary.spec.service.port}`,
      );
    }
    // Flagger's note: the rollout hooks' timeouts together stay under the analysis interval
    const rolloutMs = hooks
      .filter((w) => w.type === "rollout")
      .reduce((s, w) => s + parseDuration((w as Y).timeout)!, 0);
    expect(rolloutMs).toBeLessThan(parseDuration(canary.spec.analysis.interval)!);
  });
});
