// The engines' Prometheus metric names as dashboards and alert rules use them, and the vLLM names that
// were renamed or dropped (vllm-project/vllm: PR #18354 deprecated the gpu_ names for the KV cache and
// prefix cache, PR #29330 removed them; vllm:time_per_output_token_seconds was deprecated in 0.11 for
// vllm:inter_token_latency_seconds and removed by PR #32661; PR #15458 hid the 0.8 deprecations). Pure.

/** vllm:, sglang: and llamacpp: names in any text (PromQL inside JSON or YAML), in order, once each. */
export function metricNamesIn(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(/(?<![\w:])(?:vllm|sglang|llamacpp):[A-Za-z_][A-Za-z0-9_]*/g)) seen.add(m[0]);
  return [...seen];
}

/** Every name a /metrics body exposes: sample names and the HELP/TYPE names (a histogram's base name). */
export function exposedNames(body: string): Set<string> {
  const out = new Set<string>();
  for (const line of body.split("\n")) {
    const m = /^# (?:HELP|TYPE) (\S+)/.exec(line) ?? /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{|\s)/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}

interface Rename {
  now: string | null;
  why: string;
}
const RENAMES: Record<string, Rename> = {
  "vllm:gpu_cache_usage_perc": {
    now: "vllm:kv_cache_usage_perc",
    why: "deprecated by vLLM PR #18354, removed by PR #29330",
  },
  "vllm:gpu_prefix_cache_queries": {
    now: "vllm:prefix_cache_queries",
    why: "deprecated by vLLM PR #18354, removed by PR #29330",
  },
  "vllm:gpu_prefix_cache_hits": {
    now: "vllm:prefix_cache_hits",
    why: "deprecated by vLLM PR #18354, removed by PR #29330",
  },
  "vllm:time_per_output_token_seconds": {
    now: "vllm:inter_token_latency_seconds",
    why: "deprecated in vLLM 0.11, hidden in 0.12, removed by PR #32661",
  },
  "vllm:gpu_prefix_cache_hit_rate": {
    now: null,
    why: "deprecated in vLLM 0.8, hidden by PR #15458: rate(vllm:prefix_cache_hits) / rate(vllm:prefix_cache_queries)",
  },
  "vllm:cpu_prefix_cache_hit_rate": {
    now: null,
    why: "deprecated in vLLM 0.8 (no CPU KV offload in V1), hidden by PR #15458",
  },
  "vllm:cpu_cache_usage_perc": {
    now: null,
    why: "deprecated in vLLM 0.8 (no CPU KV offload in V1), hidden by PR #15458",
  },
  "vllm:num_requests_swapped": { now: null, why: "deprecated in vLLM 0.8 (no swapping in V1), hidden by PR #15458" },
};
const SUFFIX = /(_bucket|_sum|_count|_total|_created)$/;

/** The rename of a name (a histogram's _bucket/_sum/_count or a counter's _total kept), or null. */
export function renameOf(name: string): Rename | null {
  const direct = RENAMES[name];
  if (direct) return direct;
  const suffix = SUFFIX.exec(name)?.[1];
  const base = suffix ? RENAMES[name.slice(0, -suffix.length)] : undefined;
  if (!base) return null;
  return { now: base.now && base.now + suffix, why: base.why };
}
