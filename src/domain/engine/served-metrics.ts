// An engine's own /metrics (Prometheus text), read for what verify over HTTP alone cannot get from a boot
// log: the KV pool and the context length. Names from each project's metric definitions: vLLM's
// `vllm:cache_config_info` Info gauge (its labels are the CacheConfig fields as text; the newest carry
// kv_cache_size_tokens, older ones num_gpu_blocks and block_size), SGLang's `sglang:max_total_num_tokens`
// and `sglang:context_len` gauges, llama-server's `llamacpp:*` counters (no pool size among them; its /props
// has the slots and their context). Pure.
import type { EngineKind } from "./kind.js";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const unescape = (v: string) => v.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));

/** Samples in exposition order; comments and lines that are not samples are left out. */
export function parsePrometheus(text: string): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const value = m[3] === "NaN" ? NaN : m[3] === "+Inf" ? Infinity : m[3] === "-Inf" ? -Infinity : Number(m[3]);
    if (Number.isNaN(value) && m[3] !== "NaN") continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(LABEL)) labels[l[1]!] = unescape(l[2]!);
    out.push({ name: m[1]!, labels, value });
  }
  return out;
}

export interface ServedKv {
  /** which engine answered, from its metric prefix; null when none of the three */
  engine: EngineKind | null;
  /** tokens one engine's KV pool holds (the smallest, with several data-parallel engines) */
  kvTokens: number | null;
  /** the context length the engine reports, where its metrics say it (SGLang) */
  maxModelLen: number | null;
  /** data-parallel engines seen */
  engines: number;
  /** where the figure came from, for the evidence */
  source: string;
}

const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : null);
const minOf = (xs: (number | null)[]) => {
  const ok = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  return ok.length ? Math.min(...ok) : null;
};

export function servedKv(text: string): ServedKv {
  const samples = parsePrometheus(text);
  const info = samples.filter((s) => s.name === "vllm:cache_config_info");
  if (info.length || samples.some((s) => s.name.startsWith("vllm:"))) {
    const sized = info.some((s) => int(s.labels.kv_cache_size_tokens) !== null);
    const tokens = info.map((s) => {
      const direct = int(s.labels.kv_cache_size_tokens);
      const blocks = int(s.labels.num_gpu_blocks);
      const size = int(s.labels.block_size);
      return direct ?? (blocks !== null && size !== null ? blocks * size : null);
    });
    return {
      engine: "vllm",
      kvTokens: minOf(tokens),
      maxModelLen: null,
      engines: info.length,
      source: info.length
        ? sized
          ? "vllm:cache_config_info kv_cache_size_tokens"
          : "vllm:cache_config_info num_gpu_blocks x block_size"
        : "no vllm:cache_config_info sample",
    };
  }
  if (samples.some((s) => s.name.startsWith("sglang:"))) {
    const pool = samples.filter((s) => s.name === "sglang:max_total_num_tokens");
    return {
      engine: "sglang",
      kvTokens: minOf(pool.map((s) => s.value)),
      maxModelLen: minOf(samples.filter((s) => s.name === "sglang:context_len").map((s) => s.value)),
      engines: pool.length,
      source: pool.length ? "sglang:max_total_num_tokens" : "no sglang:max_total_num_tokens sample",
    };
  }
  const llama = samples.some((s) => s.name.startsWith("llamacpp:"));
  return {
    engine: llama ? "llama.cpp" : null,
    kvTokens: null,
    maxModelLen: null,
    engines: 0,
    source: llama ? "llama-server's /metrics has no KV pool size" : "no vllm:, sglang: or llamacpp: metric",
  };
}

/** llama-server's GET /props (its get_props: default_generation_settings.n_ctx is one slot's context,
 *  total_slots the -np count): the pool is their product, one request's longest context is n_ctx. */
export function servedProps(text: string): ServedKv | null {
  let o: { default_generation_settings?: { n_ctx?: unknown }; total_slots?: unknown };
  try {
    o = JSON.parse(text) as typeof o;
  } catch {
    return null;
  }
  const nCtx = o?.default_generation_settings?.n_ctx;
  const slots = o?.total_slots;
  if (typeof nCtx !== "number" || typeof slots !== "number" || nCtx <= 0 || slots <= 0) return null;
  return {
    engine: "llama.cpp",
    kvTokens: nCtx * slots,
    maxModelLen: nCtx,
    engines: 1,
    source: `llama-server /props: n_ctx ${nCtx} per slot x ${slots} slot(s)`,
  };
}
