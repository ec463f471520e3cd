// verify.slo (opt-in `slo:`): latency under a bounded load, or the results of a `vllm bench serve` run
// (`slo.results`), judged against the declared limits and against the figures the previous deploy recorded
// on the host (.deploy-gate/slo/<endpoint>.json, written after a run that passes).
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { Endpoint } from "../../domain/config/schema.js";
import { figuresOf, judgeSlo, type LoadFigures, type Pct, type SloLimits } from "../../domain/load/figures.js";
import { HOST_STATE_DIR } from "../../domain/host-state.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { StageContext } from "../context.js";
import type { HttpProbes } from "./http-checks.js";
import { generatorCost, runLoad } from "./load.js";

export const CHECK = "verify.slo";

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : NaN);

/** The last JSON object of a file: `vllm bench serve --append-result` writes each run's object after the
 *  last, a newline between (vllm/benchmarks/serve.py: `outfile.write("\n")` then `json.dump`). */
function lastObject(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    const at = text.trimEnd().lastIndexOf("\n{");
    if (at < 0) throw e;
    return JSON.parse(text.slice(at + 1)) as Record<string, unknown>;
  }
}

/** A `vllm bench serve --save-result` JSON (vllm-project/vllm vllm/benchmarks/serve.py): `median_{m}_ms` and
 *  `p{N}_{m}_ms` for the metrics of --percentile-metrics (default ttft,tpot,itl: e2el only when named) at the
 *  --metric-percentiles (default 99: p95 only when named), completed and failed, output_throughput, duration
 *  in seconds; with --append-result the last run in the file. */
export function figuresFromVllmBench(text: string): LoadFigures {
  const j = lastObject(text);
  const pct = (m: string): Pct | null => {
    const p50 = num(j[`p50_${m}_ms`] ?? j[`median_${m}_ms`]);
    const p = { p50, p95: num(j[`p95_${m}_ms`]), p99: num(j[`p99_${m}_ms`]) };
    return Object.values(p).every(Number.isNaN) ? null : p;
  };
  const completed = num(j.completed);
  const failed = Number.isNaN(num(j.failed)) ? 0 : num(j.failed);
  const requests = completed + failed;
  return {
    requests,
    errors: failed,
    errorRate: requests ? Math.round((failed / requests) * 100) / 100 : 0,
    ttftMs: pct("ttft"),
    itlMs: pct("itl"),
    e2eMs: pct("e2el"),
    outputTokPerS: num(j.output_throughput),
    wallMs: Math.round(num(j.duration) * 1000),
  };
}

interface Distribution {
  median?: number;
  mean?: number;
  percentiles?: Record<string, number>;
  [p: string]: unknown;
}
type GuideMetric = { successful?: Distribution } | undefined;

/** A GuideLLM benchmarks report (`guidellm benchmark --output-path x.json`; vllm-project/guidellm
 *  src/guidellm/benchmark/schemas/report.py and metrics.py): its last benchmark's successful requests, each
 *  metric a StatusDistributionSummary whose `successful` DistributionSummary has `percentiles.p95` (older
 *  reports: `p95`); request_latency in seconds. `request_totals.incomplete` are requests cancelled when the
 *  benchmark ended (accumulator.py: status "cancelled" after they started), not errors: left out. */
export function figuresFromGuidellm(text: string): LoadFigures {
  const j = JSON.parse(text) as { benchmarks?: { metrics?: Record<string, unknown>; duration?: number }[] };
  const b = j.benchmarks?.at(-1);
  if (!b?.metrics) throw new Error("no benchmarks[].metrics in the report");
  const m = b.metrics;
  const at = (d: Distribution | undefined, p: string) =>
    num(d?.percentiles?.[p] ?? d?.[p] ?? (p === "p50" ? d?.median : undefined));
  const pct = (name: string, scale = 1): Pct | null => {
    const d = (m[name] as GuideMetric)?.successful;
    if (!d) return null;
    return { p50: at(d, "p50") * scale, p95: at(d, "p95") * scale, p99: at(d, "p99") * scale };
  };
  const totals = (m.request_totals ?? {}) as { successful?: number; errored?: number; incomplete?: number };
  const errors = num(totals.errored ?? 0);
  const requests = num(totals.successful ?? 0) + errors;
  return {
    requests,
    errors,
    errorRate: requests ? Math.round((errors / requests) * 100) / 100 : 0,
    ttftMs: pct("time_to_first_token_ms"),
    itlMs: pct("inter_token_latency_ms"),
    e2eMs: pct("request_latency", 1000),
    outputTokPerS: num((m.output_tokens_per_second as GuideMetric)?.successful?.mean),
    wallMs: Math.round(num(b.duration) * 1000),
  };
}

/** A results file: GuideLLM's report (a benchmarks array) or `vllm bench serve`'s result. */
export function figuresFromResults(text: string): { figures: LoadFigures; source: "guidellm" | "vllm-bench" } {
  return /"benchmarks"\s*:/.test(text)
    ? { figures: figuresFromGuidellm(text), source: "guidellm" }
    : { figures: figuresFromVllmBench(text), source: "vllm-bench" };
}

const show = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? "n/a" : String(x));
const line = (f: LoadFigures) =>
  `TTFT p95 ${show(f.ttftMs?.p95)} ms, inter-token p95 ${show(f.itlMs?.p95)} ms, end-to-end p95 ${show(f.e2eMs?.p95)} ms, ${f.errors} errors, ${f.outputTokPerS} tok/s`;

export interface SloInput {
  figures: LoadFigures;
  limits: SloLimits;
  previous: LoadFigures | null;
  tolerance: number;
  /** the load generator's own mean time per request against a loopback server; null for a results file */
  generatorMs: number | null;
  source: "load" | "vllm-bench" | "guidellm";
}

export function checkSlo(i: SloInput): Finding {
  const { broken, regressed } = judgeSlo(i.figures, i.limits, i.previous, i.tolerance);
  const f = i.figures;
  const evidence = [
    `${f.requests} requests in ${f.wallMs} ms (${i.source === "load" ? "the gate's load step" : i.source === "guidellm" ? "GuideLLM results" : "vllm bench serve results"})`,
    `TTFT ms p50/p95/p99 ${show(f.ttftMs?.p50)}/${show(f.ttftMs?.p95)}/${show(f.ttftMs?.p99)}; inter-token ${show(f.itlMs?.p50)}/${show(f.itlMs?.p95)}/${show(f.itlMs?.p99)}; end-to-end ${show(f.e2eMs?.p50)}/${show(f.e2eMs?.p95)}/${show(f.e2eMs?.p99)}`,
    ...(i.generatorMs !== null
      ? [
          `load generator's own cost: ${i.generatorMs.toFixed(2)} ms CPU per request (against a loopback server, same run)`,
        ]
      : []),
    i.previous ? `previous deploy: ${line(i.previous)}` : "no figures from a previous deploy on the host yet",
    ...regressed.map((r) => `regressed: ${r}`),
  ];
  const data = { figures: f, previous: i.previous, broken, regressed, generatorMs: i.generatorMs, source: i.source };
  if (!broken.length && !regressed.length) return pass(CHECK, `under load: ${line(f)}`, { evidence, data });
  return fail(CHECK, `latency under load: ${[...broken, ...regressed].join("; ")}`, {
    evidence,
    data,
    fix: `${broken.length ? "a declared limit in slo.limits is broken" : ""}${broken.length && regressed.length ? "; " : ""}${regressed.length ? `worse than the previous deploy by more than slo.tolerance (${Math.round(i.tolerance * 100)}%)` : ""}: compare this deploy's argv and image with the previous one (deploy-gate verify's verify.argv), or raise the limit in deploy-gate.yml if the change is intended`,
  });
}

const recordPath = (endpoint: string) => `${HOST_STATE_DIR}/slo/${endpoint}.json`;

async function previousFigures(ctx: StageContext): Promise<LoadFigures | null> {
  try {
    const r = await ctx.host.run(["cat", recordPath(ctx.name)], { timeoutMs: 10_000 });
    return r.code === 0 ? ((JSON.parse(r.stdout) as { figures: LoadFigures }).figures ?? null) : null;
  } catch {
    return null;
  }
}

export async function measureSlo(ctx: StageContext, h: HttpProbes | null | Error, timeoutMs: number): Promise<Finding> {
  const ep: Endpoint = ctx.endpoint;
  const slo = ep.slo;
  if (!slo)
    return skip(CHECK, "no slo: declared", {
      fix: "declare slo: { concurrency, requests, limits } to measure latency under load",
    });
  let figures: LoadFigures;
  let source: SloInput["source"] = "load";
  let generatorMs: number | null = null;
  if (slo.results) {
    const path = resolve(dirname(ctx.configFile), slo.results);
    try {
      ({ figures, source } = figuresFromResults(await readFile(path, "utf8")));
    } catch (e) {
      return fail(
        CHECK,
        `slo.results ${path} could not be read as GuideLLM or vllm bench serve results: ${(e as Error).message}`,
        {
          fix: "point slo.results at the JSON `vllm bench serve --save-result` (with --metric-percentiles 50,95,99) or `guidellm benchmark --output-path` writes",
        },
      );
    }
  } else {
    if (!ep.model || h === null || h instanceof Error)
      return fail(CHECK, `the load step could not run: ${h instanceof Error ? h.message : "no url or model"}`, {
        fix: "add url: and model: to the endpoint in deploy-gate.yml",
      });
    if (h.blocked) return fail(CHECK, `not measured: ${h.blocked}`, { fix: "see verify.liveness" });
    const spec = {
      concurrency: slo.concurrency,
      requests: slo.requests,
      promptTokens: slo.promptTokens,
      maxTokens: slo.maxTokens,
    };
    const run = await runLoad(h.routed.route, ep.model, spec, timeoutMs, ctx.progress);
    figures = figuresOf(run.samples, run.wallMs);
    generatorMs = (await generatorCost(spec)).cpuMs;
  }
  const previous = await previousFigures(ctx);
  const f = checkSlo({
    figures,
    limits: slo.limits,
    previous,
    tolerance: slo.tolerance,
    generatorMs,
    source,
  });
  if (f.status === "pass") {
    const record = JSON.stringify({ ref: ctx.ref, sha: ctx.sha, at: new Date(ctx.now()).toISOString(), figures });
    await ctx.host
      .run(["mkdir", "-p", `${HOST_STATE_DIR}/slo`], { timeoutMs: 10_000 })
      .then(() => ctx.host.writeFile(recordPath(ctx.name), record, 0o644, { timeoutMs: 10_000 }))
      .catch(
        (e: Error) => (f.evidence = [...(f.evidence ?? []), `the figures were not recorded on the host: ${e.message}`]),
      );
  }
  return f;
}
