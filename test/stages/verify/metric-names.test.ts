// verify.metrics: the metric names a repository's dashboards and alert rules use, against the live
// /metrics of the engine double on loopback (real HTTP); a renamed one names both names.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { checkMetricNames } from "../../../src/stages/verify/metric-names.js";
import { metricNamesIn, renameOf } from "../../../src/domain/engine/metric-names.js";
import { serveDouble } from "../../sandbox/engine/loopback.js";
import { liteHandler, type LiteEngine } from "../../sandbox/engine/lite-server.js";
import { llamaLite, llamaPlan } from "../../sandbox/engine/llama.js";
import { sglangLite, sglangPlan } from "../../sandbox/engine/sglang.js";

const fixture = (n: string) => readFileSync(new URL(`../../fixtures/dashboards/${n}`, import.meta.url), "utf8");
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function live() {
  const d = await serveDouble();
  closers.push(d.close);
  return runnerRoute(d.url, {}).send("GET", "/metrics", undefined, 10_000);
}

describe("metric names in dashboards and rules", () => {
  it("reads the engine metric names out of PromQL in JSON and YAML", () => {
    expect(metricNamesIn(fixture("vllm-old.json"))).toEqual([
      "vllm:gpu_cache_usage_perc",
      "vllm:time_per_output_token_seconds_bucket",
      "vllm:time_to_first_token_seconds_bucket",
      "vllm:num_requests_running",
      "vllm:my_fork_expert_slots",
    ]);
    expect(renameOf("vllm:time_per_output_token_seconds_bucket")).toMatchObject({
      now: "vllm:inter_token_latency_seconds_bucket",
    });
    expect(renameOf("vllm:num_requests_running")).toBeNull();
  });
});

describe("verify.metrics against the double's /metrics", () => {
  it("passes a rule file whose names all exist", async () => {
    const f = checkMetricNames([{ path: "alerts/vllm.yml", text: fixture("vllm-alerts.yml") }], await live(), "runner");
    expect(f.status, JSON.stringify(f)).toBe("pass");
    expect(f.summary).toMatch(/^2 metric names used by alerts\/vllm.yml all exist in \/metrics$/);
  });

  it("fails a dashboard written for an older engine: each renamed name with both names, the unknown one alone", async () => {
    const f = checkMetricNames([{ path: "dash/vllm.json", text: fixture("vllm-old.json") }], await live(), "runner");
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/^3 of 5 metric names used by dash\/vllm.json are not in \/metrics/);
    expect(f.evidence).toContainEqual(
      expect.stringMatching(/^dash\/vllm.json: vllm:gpu_cache_usage_perc renamed vllm:kv_cache_usage_perc \(/),
    );
    expect(f.evidence).toContainEqual(
      expect.stringMatching(
        /^dash\/vllm.json: vllm:time_per_output_token_seconds_bucket renamed vllm:inter_token_latency_seconds_bucket \(/,
      ),
    );
    expect(f.evidence).toContainEqual("dash/vllm.json: vllm:my_fork_expert_slots is not in /metrics");
    expect(f.fix).toMatch(/vllm:gpu_cache_usage_perc -> vllm:kv_cache_usage_perc/);
  });

  it("a declared file missing at the ref fails with its path", () => {
    const f = checkMetricNames(
      [{ path: "dash/gone.json", text: null }],
      { status: 200, body: "", error: null, durationMs: 1 },
      "runner",
    );
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/dash\/gone.json/);
  });
});

describe("verify.metrics against llama-server's and SGLang's /metrics", () => {
  // llama-server serves /metrics only with --metrics, else a 501 that says so (the reference's §3); SGLang
  // mounts it only with --enable-metrics, else FastAPI's 404
  async function lite(e: LiteEngine) {
    const server = createServer(liteHandler(e, () => true, false));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return runnerRoute(url, {}).send("GET", "/metrics", undefined, 10_000);
  }
  const rules = {
    path: "alerts/llama.yml",
    text: "groups:\n  - rules:\n      - alert: Busy\n        expr: llamacpp:requests_deferred > 0\n",
  };
  const llama = (...a: string[]) => llamaLite(llamaPlan(["-m", "/m.gguf", ...a], {}), "ok");

  it("llama-server with --metrics: its llamacpp: names pass", async () => {
    expect(checkMetricNames([rules], await lite(llama("--metrics")), "runner").status).toBe("pass");
  });

  it("llama-server without --metrics: its 501, and the fix names --metrics", async () => {
    const m = await lite(llama());
    expect(m.status).toBe(501);
    const f = checkMetricNames([rules], m, "runner");
    expect(f.summary).toMatch(/HTTP 501/);
    expect(f.fix).toMatch(/--metrics/);
  });

  it("SGLang without --enable-metrics: FastAPI's 404, and the fix names --enable-metrics", async () => {
    const m = await lite(sglangLite(sglangPlan(["--model-path", "/m"], {})));
    expect(m).toMatchObject({ status: 404, body: '{"detail":"Not Found"}' });
    expect(checkMetricNames([rules], m, "runner").fix).toMatch(/SGLang: --enable-metrics/);
  });
});
