// verify over HTTP alone: `verify --url URL`, or an endpoint that names url: and no host:/hosts:. Needs no
// git repository and no SSH (it runs in a Kubernetes Job, a Flagger webhook, an Ansible task): the config,
// when there is one, gives the contracts; the report's ref is the live endpoint itself.
import { existsSync } from "node:fs";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEFAULT_CONFIG, loadConfig } from "../domain/config/load.js";
import { endpointSchema, type Config, type Endpoint } from "../domain/config/schema.js";
import type { Report } from "../domain/report/finding.js";
import { kubectl } from "../ports/kube/kubectl.js";
import { runVerifyOverHttp, type HttpVerifyTimeouts } from "../stages/verify/over-http.js";
import type { PodSource } from "../stages/verify/pod-facts.js";
import { UsageError, type Options } from "./options.js";
import { buildReport } from "./shared/report.js";

export interface HttpTarget {
  name: string;
  endpoint: Endpoint & { url: string };
  config: Config | null;
  /** where the config's relative paths (kubernetes.manifest) start */
  configDir?: string;
}

/** The config file verify reads without a repository: --config, else deploy-gate.yml in the working directory. */
function configFileOf(opts: Options): string | null {
  if (opts.config) return isAbsolute(opts.config) ? opts.config : join(opts.cwd, opts.config);
  const here = join(opts.cwd, DEFAULT_CONFIG);
  return existsSync(here) ? here : null;
}

/** The endpoint verified over HTTP, or null when this verify goes over SSH (the endpoint names a host). */
export function httpTarget(opts: Options): HttpTarget | null {
  const file = configFileOf(opts);
  const t = targetIn(opts, file ? loadConfig(file) : null);
  return t && file ? { ...t, configDir: dirname(file) } : t;
}

function targetIn(opts: Options, config: Config | null): HttpTarget | null {
  const names = config ? Object.keys(config.endpoints) : [];
  const name = opts.endpoint ?? (names.length === 1 ? names[0]! : null);
  if (opts.endpoint && config && !config.endpoints[opts.endpoint])
    throw new UsageError(`--endpoint ${opts.endpoint} is not in the config; endpoints: ${names.join(", ")}`);
  const ep = name && config ? config.endpoints[name]! : null;
  if (!opts.url) {
    // service: or install: belong to a host the gate logs into (the action may give it): that verify is SSH's
    if (!ep || !ep.url || ep.host || ep.hosts || ep.service || ep.install || opts.hostOverride?.address) return null;
    return { name: name!, endpoint: { ...ep, url: ep.url, ...(opts.model ? { model: opts.model } : {}) }, config };
  }
  if (!ep && names.length > 1)
    throw new UsageError(
      `--url with a config of several endpoints: pass --endpoint NAME for its contracts (endpoints: ${names.join(", ")})`,
    );
  // no config: no contracts beyond what any OpenAI-compatible engine must do
  const base = ep ?? endpointSchema.parse({ script: DEFAULT_CONFIG, contracts: {} });
  const model = opts.model ?? base.model;
  return {
    name: name ?? new URL(opts.url).host,
    endpoint: { ...base, url: opts.url, ...(model ? { model } : {}) },
    config,
  };
}

/** kubernetes: on the endpoint (--selector overrides its selector): the pods kubectl reads, and the manifest. */
function podSource(opts: Options, target: HttpTarget): PodSource | null {
  const k = target.endpoint.kubernetes;
  if (!k) {
    if (opts.selector)
      throw new UsageError("--selector needs kubernetes: { namespace, selector, container } on the endpoint");
    return null;
  }
  const target_ = { namespace: k.namespace, selector: opts.selector ?? k.selector, container: k.container };
  let manifest = null;
  if (k.manifest) {
    const path = resolve(target.configDir ?? opts.cwd, k.manifest);
    try {
      manifest = { path: k.manifest, text: readFileSync(path, "utf8") };
    } catch (e) {
      throw new UsageError(
        `kubernetes.manifest ${k.manifest}: cannot read ${path} (${(e as NodeJS.ErrnoException).code}): fix the path, relative to the config file`,
      );
    }
  }
  return { kubectl: kubectl(), target: target_, manifest, rolloutStartMs: opts.rolloutStartMs ?? null };
}

export async function verifyOverHttpReport(
  opts: Options,
  target: HttpTarget,
  env: NodeJS.ProcessEnv,
  progress: (line: string) => void,
  now: () => number = Date.now,
  timeouts: Partial<HttpVerifyTimeouts> = {},
): Promise<Report> {
  const started = now();
  const apiKey = env.DEPLOY_GATE_API_KEY || null;
  const kube = podSource(opts, target);
  const findings = await runVerifyOverHttp(
    { name: target.name, endpoint: target.endpoint, apiKey, progress, ...(kube ? { kube } : {}) },
    timeouts,
  );
  const secrets = [env.DEPLOY_GATE_API_KEY, env.DEPLOY_GATE_SSH_PASSPHRASE].filter((s): s is string => Boolean(s));
  return buildReport(
    { config: target.config, secrets },
    { ...opts, endpoint: target.name },
    {
      findings,
      ref: { name: `live at ${target.endpoint.url}`, sha: null },
      durationMs: now() - started,
    },
  );
}
