// verify with no SSH host: an endpoint that is a URL alone (a Kubernetes Service, a canary behind Argo
// Rollouts or Flagger, a machine the gate cannot log into). Every check HTTP can prove runs from this
// machine; the KV pool and spec-decode engagement come from the engine's own /metrics; a one-token
// completion proves the engine generates; the checks that need the host are `skip` with the reason.
import type { Endpoint } from "../../domain/config/schema.js";
import { servedKv, servedProps, type ServedKv } from "../../domain/engine/served-metrics.js";
import { fail, skip, type Finding } from "../../domain/report/finding.js";
import type { HttpResult } from "../../ports/http/client.js";
import { runnerRoute } from "../../ports/http/route.js";
import { measureDecode } from "./decode-probe.js";
import { askProbes, httpFindingsOf, type HttpProbes } from "./http-checks.js";
import { checkKvCapacity } from "./kv-capacity.js";
import { checkModels, noAnswer } from "./models.js";
import { checkSpecDecode, specProbeRequest, trafficOf } from "./spec-decode.js";
import { sglangSpec, sglangSpecPlan, sglangSpecProbe } from "./sglang-spec.js";
import { DEFAULT_TIMEOUTS, type VerifyTimeouts } from "./timeouts.js";
import { podFindings, type PodSource } from "./pod-facts.js";

export interface HttpVerifyInput {
  name: string;
  endpoint: Endpoint & { url: string };
  apiKey: string | null;
  progress: (line: string) => void;
  /** the engine's pods through kubectl (kubernetes: on the endpoint): the host-only checks read them instead */
  kube?: PodSource;
}

export type HttpVerifyTimeouts = VerifyTimeouts;
export const HTTP_TIMEOUTS: HttpVerifyTimeouts = DEFAULT_TIMEOUTS;

/** What each host-only check would read, for its skip. */
const HOST_ONLY: Record<string, string> = {
  "verify.restarts": "the unit's NRestarts",
  "verify.container": "the container's creation time against the deploy",
  "verify.plan": "the boot log's plan lines",
  "verify.argv": "the live /proc/1/cmdline",
  "verify.env": "the container's environment",
  "verify.plan-lines": "the boot log's plan lines",
  "verify.graphs": "the boot log's CUDA graph lines",
  "verify.compile-cache": "the boot log's torch.compile lines",
  "verify.vram": "nvidia-smi or rocm-smi on the host",
};
const hostOnly = (): Finding[] =>
  Object.entries(HOST_ONLY).map(([check, what]) =>
    skip(check, `needs the serving host (reads ${what}); this endpoint is verified over HTTP alone`, {
      data: { overHttp: true },
    }),
  );

/** The host-only checks: from the pods where kubernetes: names them, else skip with what each would read. */
async function hostFacts(kube: Promise<Finding[]> | null): Promise<Finding[]> {
  if (!kube) return hostOnly();
  const fromPods = await kube;
  return [...fromPods, ...hostOnly().filter((f) => !fromPods.some((p) => p.check === f.check))];
}

/** The gate could not judge: exit 2, whatever else the report holds. */
const undecided = (f: Finding): Finding => ({ ...f, data: { ...f.data, undecided: true } });

/** The model /v1/models lists for this endpoint, and its max_model_len where the engine says it. */
function listed(
  models: HttpResult,
  want: string | undefined,
): { ids: string[]; model: string | null; maxLen: number | null } {
  let data: { id?: unknown; max_model_len?: unknown }[] = [];
  try {
    data = (JSON.parse(models.body) as { data?: typeof data }).data ?? [];
  } catch {
    /* no list: verify.models says so */
  }
  const ids = data.map((d) => String(d.id));
  const model = want ?? (ids.length === 1 ? ids[0]! : null);
  const len = data.find((d) => String(d.id) === model)?.max_model_len;
  return { ids, model, maxLen: typeof len === "number" && len > 0 ? len : null };
}

/** A flag's value declared in contracts.flags ("--flag value"), "" for a bare flag, null when not declared. */
function declared(ep: Endpoint, flag: string): string | null {
  for (const f of ep.contracts.flags) {
    const [name, ...rest] = f.trim().split(/\s+/);
    if (name?.replace(/_/g, "-") === flag) return rest.join(" ");
  }
  return null;
}

function kvFinding(ep: Endpoint, kv: ServedKv | null, metrics: HttpResult | null, maxLen: number | null): Finding {
  const why =
    metrics === null || metrics.status === null
      ? `/metrics did not answer (${metrics?.error ?? "not asked"})`
      : metrics.status !== 200
        ? `/metrics answered HTTP ${metrics.status}`
        : `/metrics gives no KV pool size (${kv?.source})`;
  if (!kv || kv.kvTokens === null) {
    const fix =
      kv?.engine === "sglang" || !kv?.engine
        ? "vLLM serves /metrics by default; start SGLang with --enable-metrics; llama-server's metrics have no pool size: verify it over SSH (host:) to read its boot log"
        : "verify it over SSH (host:) to read the pool from the boot log";
    return ep.contracts.kv
      ? fail("verify.kv-capacity", `KV capacity unproven over HTTP: ${why}`, { fix, data: { overHttp: true } })
      : skip("verify.kv-capacity", `not proven over HTTP: ${why}`, { fix, data: { overHttp: true } });
  }
  const f = checkKvCapacity({ kvTokens: kv.kvTokens, maxModelLen: maxLen }, null, ep.contracts.kv, kv.engine ?? "vllm");
  const from = `KV pool from /metrics: ${kv.source}${kv.engines > 1 ? ` (the smallest of ${kv.engines} engines)` : ""}`;
  return {
    ...f,
    evidence: [...(f.evidence ?? []), from],
    data: { ...f.data, maxModelLenFrom: "/v1/models or /metrics", kvFrom: kv.source },
  };
}

export async function runVerifyOverHttp(
  input: HttpVerifyInput,
  timeouts: Partial<HttpVerifyTimeouts> = {},
): Promise<Finding[]> {
  const t = { ...HTTP_TIMEOUTS, ...timeouts };
  const url = input.endpoint.url.replace(/\/+$/, "");
  const headers: Record<string, string> = input.apiKey ? { authorization: `Bearer ${input.apiKey}` } : {};
  const sentKey = Boolean(input.apiKey);
  const route = runnerRoute(url, headers);
  const kube = input.kube ? podFindings(input.kube, input.endpoint.contracts) : null;
  input.progress(`verify: ${input.name} over HTTP alone at ${url}`);
  const models = await route.send("GET", "/v1/models", undefined, t.modelsMs);
  const rest = (why: string) =>
    [
      "verify.liveness",
      "verify.kv-capacity",
      "verify.thinking",
      "verify.tools",
      "verify.spec-decode",
      "verify.decode",
    ].map((c) => skip(c, why));
  if (models.status === null)
    return [
      undecided(noAnswer("verify.models", "/v1/models", models, url, route.via)),
      ...rest("the endpoint did not answer"),
      ...(await hostFacts(kube)),
    ];
  // a refused key is the gate's input, not the engine's fault: the gate cannot judge the rest
  if (models.status === 401 || models.status === 403)
    return [
      undecided(checkModels(models, input.endpoint.model ?? "MODEL", url, route.via, sentKey)),
      ...rest(`/v1/models answered ${models.status}`),
      ...(await hostFacts(kube)),
    ];
  const list = listed(models, input.endpoint.model);
  if (!list.model)
    return [
      undecided(
        fail(
          "verify.models",
          `no model to verify: model: is not set and /v1/models lists ${list.ids.length ? list.ids.join(", ") : "none"}`,
          {
            data: { models: list.ids, status: models.status },
            fix: "name the served model: model: in deploy-gate.yml, or --model NAME",
          },
        ),
      ),
      ...rest("no model to ask for"),
      ...(await hostFacts(kube)),
    ];
  const ep = { ...input.endpoint, model: list.model };
  const asked = await askProbes(route, ep, t, null);
  const { thinking, tools } = asked;
  const ask = (body: Record<string, unknown>) => route.send("POST", "/v1/chat/completions", body, t.chatMs);
  const specConfig = declared(ep, "--speculative-config");
  const specAlgorithm = declared(ep, "--speculative-algorithm");
  const sglang = sglangSpecPlan((flag) => declared(ep, flag));
  const sent: (HttpResult | null)[] = [thinking, tools];
  // a fresh engine has drafted nothing; a one-token completion drafts nothing either. SGLang's gauge moves only at
  // a decode log: its probe goes alone, after the others (concurrent requests share batches)
  if (sglang && !asked.blocked) sent.push(await ask(sglangSpecProbe(ep.model, sglang)));
  else if (specConfig !== null && !thinking && !tools && !asked.blocked)
    sent.push(await ask(specProbeRequest(ep.model)));
  const metrics = await route.send("GET", "/metrics", undefined, t.metricsMs);
  let kv = metrics.status === 200 ? servedKv(metrics.body) : null;
  // llama-server's metrics carry no pool size: its /props does (the slots and each one's context)
  if (!kv?.kvTokens && (kv?.engine === "llama.cpp" || kv === null)) {
    const props = await route.send("GET", "/props", undefined, t.metricsMs);
    kv = (props.status === 200 ? servedProps(props.body) : null) ?? kv;
  }
  const maxLen = list.maxLen ?? kv?.maxModelLen ?? null;
  const probes: HttpProbes = { url, routed: { route, models, notes: [], close: async () => {} }, ...asked };
  // models, liveness, thinking, tools, structured, metrics (dashboards need the repository: skipped here)
  const [modelsF, liveF, thinkingF, toolsF, structuredF] = httpFindingsOf(ep, probes, [], sentKey).map(([, judge]) =>
    judge(),
  );
  const spec =
    sglang && kv?.engine === "sglang"
      ? sglangSpec(sglang, metrics)
      : specConfig === null && specAlgorithm === null
        ? skip(
            "verify.spec-decode",
            "no --speculative-config (or SGLang --speculative-algorithm) in contracts.flags: the live argv is not readable over HTTP",
          )
        : checkSpecDecode(specConfig ?? specAlgorithm, metrics, [], trafficOf(sent));
  const decode = await measureDecode(ep, probes, t.decodeMs, input.progress, maxLen);
  return [
    modelsF!,
    liveF!,
    kvFinding(ep, kv, metrics, maxLen),
    thinkingF!,
    toolsF!,
    structuredF!,
    spec,
    decode,
    ...(await hostFacts(kube)),
  ];
}
