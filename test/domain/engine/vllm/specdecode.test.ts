import { describe, expect, it } from "vitest";
import { readSpecDecode, readSpecMetrics } from "../../../../src/domain/engine/vllm/specdecode.js";

describe("readSpecDecode", () => {
  it("reads the current line: per-position list inside the comma list, Avg rate in percent", () => {
    const s = readSpecDecode(
      "(APIServer pid=1) INFO 09-20 08:07:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.41, Accepted throughput: 19.62 tokens/s, Drafted throughput: 42.10 tokens/s, Accepted: 196 tokens, Drafted: 421 tokens, Per-position acceptance rate: 0.760, 0.550, 0.330, Avg Draft acceptance rate: 46.6%",
    );
    expect(s).toEqual({ meanAcceptanceLength: 2.41, acceptanceRate: 0.466, perPosition: [0.76, 0.55, 0.33] });
  });

  it("reads the 2025-09 line (rate first, list last)", () => {
    const s = readSpecDecode(
      "SpecDecoding metrics: Draft acceptance rate: 88.8%, Mean acceptance length: 5.44, Accepted throughput: 3.10 tokens/s, Drafted throughput: 3.49 tokens/s, Accepted: 31 tokens, Drafted: 35 tokens, Per-position acceptance rate: 0.983, 0.967, 0.900",
    );
    expect(s).toEqual({ meanAcceptanceLength: 5.44, acceptanceRate: 0.888, perPosition: [0.983, 0.967, 0.9] });
  });

  it("reads the 2025-04 and the Speculative-metrics eras", () => {
    expect(
      readSpecDecode("SpecDecoding metrics: Draft acceptance rate: 100.0%, Accepted: 66 tokens, Drafted: 66 tokens"),
    ).toEqual({ meanAcceptanceLength: null, acceptanceRate: 1, perPosition: [] });
    expect(
      readSpecDecode(
        "Speculative metrics: Draft acceptance rate: 0.625, Number of accepted tokens: 40, Number of draft tokens: 64, ",
      )?.acceptanceRate,
    ).toBe(0.625);
  });

  it("falls back to the counts when the rate is nan", () => {
    const s = readSpecDecode(
      "SpecDecoding metrics: Mean acceptance length: 1.00, Accepted throughput: 0.00 tokens/s, Drafted throughput: 0.00 tokens/s, Accepted: 3 tokens, Drafted: 12 tokens, Per-position acceptance rate: nan, Avg Draft acceptance rate: nan%",
    );
    expect(s?.acceptanceRate).toBe(0.25);
  });

  it("ignores other lines", () => {
    expect(readSpecDecode("Engine 000: Avg prompt throughput: 1.0 tokens/s")).toBeNull();
  });
});

describe("readSpecMetrics", () => {
  it("derives rate, mean length and per-position rates from the counters, summed over engines", () => {
    const text = [
      "# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.",
      "# TYPE vllm:spec_decode_num_drafts_total counter",
      'vllm:spec_decode_num_drafts_total{engine="0",model_name="qwen"} 60.0',
      'vllm:spec_decode_num_drafts_total{engine="1",model_name="qwen"} 40.0',
      'vllm:spec_decode_num_drafts_created{engine="0",model_name="qwen"} 1.7e9',
      'vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="qwen"} 300.0',
      'vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="qwen"} 150.0',
      'vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="qwen",position="0"} 76.0',
      'vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="qwen",position="1"} 49.0',
      'vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="qwen",position="2"} 25.0',
      'vllm:kv_cache_usage_perc{engine="0",model_name="qwen"} 0.1',
    ].join("\n");
    expect(readSpecMetrics(text)).toEqual({
      meanAcceptanceLength: 2.5,
      acceptanceRate: 0.5,
      perPosition: [0.76, 0.49, 0.25],
    });
  });

  it("returns null when speculative decoding is off", () => {
    expect(readSpecMetrics('vllm:num_requests_running{engine="0"} 0.0\n')).toBeNull();
  });
});
