// The engine's /metrics read for what verify over HTTP alone needs: the KV pool (vLLM's cache_config_info
// labels, SGLang's max_total_num_tokens) and which engine answered. Shapes written from each project's
// metric definitions (vLLM v1 metrics loggers' cache_config_info Info gauge, whose labels are the
// CacheConfig fields as text, kv_cache_size_tokens in the newest; SGLang's metrics collector gauges;
// llama-server's llamacpp:* counters, which carry no KV pool size).
import { describe, expect, it } from "vitest";
import { parsePrometheus, servedKv, servedProps } from "../../../src/domain/engine/served-metrics.js";

const VLLM_NEW = [
  "# HELP vllm:cache_config_info Information of the LLMEngine CacheConfig",
  "# TYPE vllm:cache_config_info gauge",
  'vllm:cache_config_info{block_size="16",cache_dtype="auto",enable_prefix_caching="True",engine="0",gpu_memory_utilization="0.9",kv_cache_size_tokens="118400",num_cpu_blocks="None",num_gpu_blocks="7400"} 1.0',
  'vllm:kv_cache_usage_perc{engine="0",model_name="qwen"} 0.0',
].join("\n");
const VLLM_OLD = [
  'vllm:cache_config_info{block_size="16",cache_dtype="auto",gpu_memory_utilization="0.9",num_gpu_blocks="2484",num_cpu_blocks="4096",swap_space="4"} 1.0',
].join("\n");

describe("served /metrics", () => {
  it("parses samples with escaped label values, timestamps and comments", () => {
    const s = parsePrometheus('# HELP x y\nfoo{a="b\\"c",d="e\\\\f"} 3.5 1700000000\nbar 2\nbad line\n');
    expect(s).toEqual([
      { name: "foo", labels: { a: 'b"c', d: "e\\f" }, value: 3.5 },
      { name: "bar", labels: {}, value: 2 },
    ]);
  });

  it("takes vLLM's kv_cache_size_tokens label where it is given, else num_gpu_blocks x block_size", () => {
    expect(servedKv(VLLM_NEW)).toMatchObject({
      engine: "vllm",
      kvTokens: 118400,
      source: expect.stringContaining("kv_cache_size_tokens"),
    });
    expect(servedKv(VLLM_OLD)).toMatchObject({
      engine: "vllm",
      kvTokens: 2484 * 16,
      source: expect.stringContaining("num_gpu_blocks"),
    });
  });

  it("a data-parallel vLLM holds the smallest engine's pool per request; None blocks are no figure", () => {
    const dp = [
      'vllm:cache_config_info{block_size="16",engine="0",num_gpu_blocks="7400"} 1.0',
      'vllm:cache_config_info{block_size="16",engine="1",num_gpu_blocks="7000"} 1.0',
    ].join("\n");
    expect(servedKv(dp)).toMatchObject({ kvTokens: 7000 * 16, engines: 2 });
    expect(servedKv('vllm:cache_config_info{block_size="16",num_gpu_blocks="None"} 1.0')).toMatchObject({
      engine: "vllm",
      kvTokens: null,
    });
  });

  it("reads SGLang's pool and context length, and knows llama-server by its counters", () => {
    const sg = [
      'sglang:max_total_num_tokens{model_name="qwen",tp_rank="0"} 471258.0',
      'sglang:context_len{model_name="qwen"} 32768.0',
      'sglang:num_running_reqs{model_name="qwen"} 0.0',
    ].join("\n");
    expect(servedKv(sg)).toMatchObject({ engine: "sglang", kvTokens: 471258, maxModelLen: 32768 });
    expect(servedKv("llamacpp:prompt_tokens_total 6886\nllamacpp:tokens_predicted_total 3469\n")).toMatchObject({
      engine: "llama.cpp",
      kvTokens: null,
    });
    expect(servedKv("process_cpu_seconds_total 1\n")).toMatchObject({ engine: null, kvTokens: null });
  });

  it("llama-server's /props: one slot's n_ctx x total_slots is the pool, n_ctx the longest request", () => {
    const props = JSON.stringify({
      default_generation_settings: { params: { temperature: 0.8 }, n_ctx: 4096 },
      total_slots: 4,
      model_path: "/models/qwen.gguf",
    });
    expect(servedProps(props)).toMatchObject({ engine: "llama.cpp", kvTokens: 16384, maxModelLen: 4096 });
    expect(servedProps('{"total_slots": 4}')).toBeNull();
    expect(servedProps('{"detail":"Not Found"}')).toBeNull();
    expect(servedProps("not json")).toBeNull();
  });
});
