// verify.slo: the load step over real HTTP against the engine double on loopback, the figures' arithmetic,
// the verdict against declared limits and the previous deploy's figures, and `vllm bench serve` results.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { figuresOf, percentile, type LoadFigures } from "../../../src/domain/load/figures.js";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { generatorCost, runLoad } from "../../../src/stages/verify/load.js";
import { checkSlo, figuresFromResults, figuresFromVllmBench } from "../../../src/stages/verify/slo.js";
import { FULL_ARGS, serveDouble } from "../../sandbox/engine/loopback.js";

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

const figures = (over: Partial<LoadFigures> = {}): LoadFigures => ({
  requests: 20,
  errors: 0,
  errorRate: 0,
  ttftMs: { p50: 40, p95: 50, p99: 60 },
  itlMs: { p50: 10, p95: 12, p99: 15 },
  e2eMs: { p50: 700, p95: 800, p99: 900 },
  outputTokPerS: 300,
  wallMs: 5000,
  ...over,
});

describe("the figures", () => {
  it("interpolates percentiles between ranks as numpy does", () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(xs, 50)).toBe(5.5);
    expect(percentile(xs, 95)).toBeCloseTo(9.55);
    expect(percentile([7], 99)).toBe(7);
  });
  it("counts errors apart and tokens/s over the run's wall time", () => {
    const ok = { ok: true, error: null, ttftMs: 10, itlMs: [1, 3], e2eMs: 20, outputTokens: 50 };
    const f = figuresOf([ok, ok, { ...ok, ok: false, error: "HTTP 500", outputTokens: 0 }], 1000);
    expect(f).toMatchObject({ requests: 3, errors: 1, errorRate: 0.33, outputTokPerS: 100, ttftMs: { p50: 10 } });
    expect(f.itlMs!.p50).toBe(2);
  });
});

describe("the load step against the double", () => {
  it("streams every request and measures no faster than the double's configured pace", async () => {
    // 100 tokens/s decode (10 ms a token); TTFT = 20 ms + 100 prompt tokens at 8,000 tok/s
    const d = await serveDouble(FULL_ARGS, { FAKE_DECODE_TOK_S: "100" });
    closers.push(d.close);
    const spec = { concurrency: 4, requests: 8, promptTokens: 100, maxTokens: 16 };
    const lines: string[] = [];
    const { samples, wallMs } = await runLoad(runnerRoute(d.url, {}), "qwen", spec, 30_000, (l) => lines.push(l));
    const f = figuresOf(samples, wallMs);
    expect(f).toMatchObject({ requests: 8, errors: 0 });
    // the stream is re-anchored at its first token: the last can never come before its scheduled time
    expect(f.e2eMs!.p50).toBeGreaterThanOrEqual(15 * 10);
    expect(f.ttftMs!.p50).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe("verify: load 8/8 requests (4 at a time)");
  });
  it("measures its own cost per request against a loopback server that answers at once", async () => {
    const cost = await generatorCost({ concurrency: 2, requests: 4, promptTokens: 10, maxTokens: 16 });
    expect(cost.cpuMs).toBeGreaterThan(0);
    expect(cost.e2eMs).toBeGreaterThan(0);
  });
});

describe("the verdict", () => {
  const base = { limits: {}, previous: null, tolerance: 0.1, generatorMs: 0.4, source: "load" as const };
  it("passes within the limits and the previous figures, reporting the generator's cost", () => {
    const f = checkSlo({ ...base, figures: figures(), limits: { ttftP95Ms: 100 }, previous: figures() });
    expect(f.status).toBe("pass");
    expect(f.summary).toMatch(/TTFT p95 50 ms, inter-token p95 12 ms, end-to-end p95 800 ms, 0 errors, 300 tok\/s/);
    expect(f.evidence).toContainEqual(expect.stringMatching(/load generator's own cost: 0\.40 ms CPU per request/));
  });
  it("fails a broken limit and a regression against the previous deploy, naming both figures", () => {
    const f = checkSlo({
      ...base,
      figures: figures({ ttftMs: { p50: 40, p95: 130, p99: 140 } }),
      limits: { ttftP95Ms: 100 },
      previous: figures(),
    });
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/TTFT p95 ms 130 > 100/);
    expect(f.evidence).toContainEqual("regressed: TTFT p95 ms 130 vs 50 at the previous deploy (+160%)");
  });
});

describe("vllm bench serve results", () => {
  it("reads its percentiles, failures and output throughput", () => {
    const json = {
      duration: 10,
      completed: 98,
      failed: 2,
      total_output_tokens: 12000,
      output_throughput: 1200,
      median_ttft_ms: 80,
      p95_ttft_ms: 120,
      p99_ttft_ms: 150,
      median_itl_ms: 11,
      p95_itl_ms: 14,
      p99_itl_ms: 20,
      median_e2el_ms: 1500,
      p99_e2el_ms: 2100,
    };
    const f = figuresFromVllmBench(JSON.stringify(json));
    expect(f).toMatchObject({
      requests: 100,
      errors: 2,
      errorRate: 0.02,
      ttftMs: { p50: 80, p95: 120, p99: 150 },
      itlMs: { p95: 14 },
      outputTokPerS: 1200,
      wallMs: 10000,
    });
    expect(f.e2eMs!.p95).toBeNaN(); // run without --metric-percentiles 95: not in the file
  });
});

describe("GuideLLM results", () => {
  it("reads the last benchmark's successful percentiles (nested or flat), errors and output tok/s", () => {
    const report = {
      benchmarks: [
        { metrics: { request_totals: { successful: 5, errored: 0 } }, duration: 1 },
        {
          duration: 20,
          metrics: {
            request_totals: { successful: 45, errored: 4, incomplete: 1, total: 50 },
            time_to_first_token_ms: { successful: { median: 90, percentiles: { p50: 90, p95: 140, p99: 190 } } },
            inter_token_latency_ms: { successful: { p50: 12, p95: 18, p99: 25 } },
            request_latency: { successful: { percentiles: { p50: 1.5, p95: 2.25, p99: 3 } } },
            output_tokens_per_second: { successful: { mean: 640 } },
          },
        },
      ],
    };
    const { figures, source } = figuresFromResults(JSON.stringify(report));
    expect(source).toBe("guidellm");
    expect(figures).toMatchObject({
      requests: 49, // incomplete (cancelled at the end) are neither requests judged nor errors
      errors: 4,
      errorRate: 0.08,
      ttftMs: { p50: 90, p95: 140, p99: 190 },
      itlMs: { p95: 18 },
      e2eMs: { p50: 1500, p95: 2250, p99: 3000 },
      outputTokPerS: 640,
      wallMs: 20000,
    });
    expect(figuresFromResults(JSON.stringify({ completed: 1, failed: 0, duration: 1 })).source).toBe("vllm-bench");
  });
});

// Reports built from the real key names (their values are ours): vllm-project/vllm vllm/benchmarks/serve.py at
// 009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1 (the result dict, process_one_metric's `mean_/median_/std_/p{N}_{m}_ms`,
// main's result_json and --append-result); vllm-project/guidellm at ee7a77457ba668b4b5ccb40f110518829893b36a
// (src/guidellm/benchmark/schemas/report.py, benchmark.py, metrics.py, src/guidellm/schemas/statistics.py, base.py).
describe("results files in the shapes their tools write", () => {
  const vllmRun = (completed: number, ttftP99: number) => ({
    date: "20261203-064000",
    endpoint_type: "openai-chat",
    backend: "openai-chat",
    label: null,
    model_id: "Qwen/Qwen3-8B",
    tokenizer_id: "Qwen/Qwen3-8B",
    num_prompts: 200,
    request_rate: "inf",
    burstiness: 1.0,
    max_concurrency: 16,
    duration: 42.5,
    completed,
    failed: 200 - completed,
    total_input_tokens: 204800,
    total_output_tokens: 25600,
    request_throughput: 4.7,
    request_goodput: null,
    output_throughput: 602.4,
    total_token_throughput: 5421.2,
    latencies: [],
    queue_times: [],
    max_output_tokens_per_s: 880.0,
    max_concurrent_requests: 16.0,
    rtfx: 0.0,
    ...Object.fromEntries(
      ["ttft", "tpot", "itl"].flatMap((m, i) => [
        [`mean_${m}_ms`, 100 + i],
        [`median_${m}_ms`, 90 + i],
        [`std_${m}_ms`, 5],
        [`p99_${m}_ms`, m === "ttft" ? ttftP99 : 150 + i],
      ]),
    ),
  });

  it("vllm bench serve --save-result (default --percentile-metrics ttft,tpot,itl and --metric-percentiles 99)", () => {
    const f = figuresFromVllmBench(JSON.stringify(vllmRun(198, 310)));
    expect(f).toMatchObject({ requests: 200, errors: 2, outputTokPerS: 602.4, wallMs: 42500 });
    expect(f.ttftMs).toMatchObject({ p50: 90, p99: 310 });
    expect(f.ttftMs!.p95).toBeNaN();
    expect(f.e2eMs).toBeNull(); // e2el is not among the default percentile metrics
  });

  it("vllm bench serve --append-result: the file's last run", () => {
    const text = `${JSON.stringify(vllmRun(190, 500))}\n${JSON.stringify(vllmRun(200, 250))}`;
    const { figures, source } = figuresFromResults(text);
    expect(source).toBe("vllm-bench");
    expect(figures).toMatchObject({ requests: 200, errors: 0, ttftMs: { p99: 250 } });
  });

  // statistics.py's DistributionSummary with every field, its Percentiles p001..p999
  const dist = (median: number, p95: number, p99: number) => ({
    mean: median,
    median,
    mode: median,
    variance: 1,
    std_dev: 1,
    min: median / 2,
    max: p99 * 1.1,
    count: 40,
    total_sum: median * 40,
    percentiles: {
      p001: median / 2,
      p01: median / 2,
      p05: median / 2,
      p10: median / 2,
      p25: median,
      p50: median,
      p75: median,
      p90: p95,
      p95,
      p99,
      p999: p99,
    },
    pdf: null,
  });
  const status = (median: number, p95: number, p99: number) => ({
    successful: dist(median, p95, p99),
    errored: dist(median * 3, p95 * 3, p99 * 3),
    incomplete: dist(median * 5, p95 * 5, p99 * 5),
    total: dist(median, p95, p99),
  });
  const benchmark = (rate: number, ttftP95: number) => ({
    config: { strategy: { type_: "constant", rate } },
    scheduler_metrics: { measure_start_time: 1000, measure_end_time: 1030 },
    metrics: {
      request_totals: { successful: 40, errored: 2, incomplete: 3, total: 45 },
      requests_per_second: status(1.3, 1.5, 1.6),
      request_concurrency: status(4, 5, 6),
      request_latency: status(2.1, 2.8, 3.2),
      time_to_first_token_ms: status(120, ttftP95, ttftP95 + 40),
      inter_token_latency_ms: status(21, 25, 31),
      time_per_output_token_ms: status(22, 26, 32),
      output_tokens_per_second: status(512, 600, 640),
    },
    start_time: 1000,
    end_time: 1030,
    duration: 30,
    warmup_duration: 0,
    cooldown_duration: 0,
  });

  it("a GuideLLM report (schema version 2): the last benchmark's successful distributions", () => {
    const report = {
      metadata: { version: 2, guidellm_version: "0.6.0", python_version: "3.12.3", platform: "Linux" },
      config: { target: "http://127.0.0.1:8000", profile: "constant" },
      benchmarks: [benchmark(1, 900), benchmark(2, 180)],
    };
    const { figures, source } = figuresFromResults(JSON.stringify(report));
    expect(source).toBe("guidellm");
    expect(figures).toMatchObject({
      requests: 42,
      errors: 2,
      ttftMs: { p50: 120, p95: 180, p99: 220 },
      itlMs: { p50: 21, p95: 25, p99: 31 },
      e2eMs: { p50: 2100, p95: 2800, p99: 3200 },
      outputTokPerS: 512,
      wallMs: 30000,
    });
  });
});

describe("real reports kept in the field cache, when present", () => {
  // /work/main/.cache/field/reports/: real vllm bench serve or GuideLLM JSON, kept verbatim, never committed
  const dir = "/work/main/.cache/field/reports";
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")) : [];
  it.skipIf(!files.length)("each reads with TTFT percentiles and a request count", () => {
    for (const f of files) {
      const { figures } = figuresFromResults(readFileSync(`${dir}/${f}`, "utf8"));
      expect(figures.requests, f).toBeGreaterThan(0);
      expect(figures.ttftMs?.p50, f).toBeGreaterThan(0);
    }
  });
});
