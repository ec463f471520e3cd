// verify.slo: the load step over real HTTP against the engine double on loopback, the figures' arithmetic,
// the verdict against declared limits and the previous deploy's figures, and `vllm bench serve` results.
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
      requests: 50,
      errors: 5,
      errorRate: 0.1,
      ttftMs: { p50: 90, p95: 140, p99: 190 },
      itlMs: { p95: 18 },
      e2eMs: { p50: 1500, p95: 2250, p99: 3000 },
      outputTokPerS: 640,
      wallMs: 20000,
    });
    expect(figuresFromResults(JSON.stringify({ completed: 1, failed: 0, duration: 1 })).source).toBe("vllm-bench");
  });
});
