// The plan lines SGLang and llama-server print at boot, in vLLM's Plan fields, so verify.plan and
// verify.kv-capacity read every engine: SGLang's KV pool (`KV Cache is allocated. #tokens: N`, and the
// `max_total_num_tokens=N, …, context_len=L` summary), weights and graph memory; llama.cpp's KV cells
// (`llama_context: n_ctx = N`, shared by its slots) and the per-slot context (`n_ctx_per_seq = L`). Pure.
import type { PlanRule } from "./plan-fields.js";
import { parseNumber } from "../../lib/number.js";

const NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
/** llama.cpp prints MiB; the plan holds GiB */
const mib = (s: string | undefined): number | null => {
  const n = parseNumber(s);
  return n === null ? null : Math.round((n / 1024) * 1e6) / 1e6;
};

export const PEER_PLAN_RULES: readonly PlanRule[] = [
  // SGLang (GB there are GiB: its numbers are bytes / 2^30)
  [
    // newer builds put more fields (dtype) before #tokens and a KV size after it
    new RegExp(`KV Cache is allocated\\.[^#]{0,80}#tokens: ${NUM}`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`max_total_num_tokens=${NUM},.*?context_len=${NUM}`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
      p.maxModelLen = parseNumber(m[2]);
    },
  ],
  [
    new RegExp(`Load weight end\\..*? mem usage=${NUM} GB`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
    },
  ],
  // (2024 builds: the time alone, `Capture cuda graph end. Time elapsed: 2.19 s`)
  [
    new RegExp(`Capture cuda graph end\\. Time elapsed: ${NUM} s(?:\\. mem usage=${NUM} GB)?`),
    (p, m) => {
      p.graphSeconds = parseNumber(m[1]);
      if (m[2] !== undefined) p.graphGiB = parseNumber(m[2]);
    },
  ],
  // llama.cpp: `llama_context: n_ctx         = 16384` (older builds: `llama_new_context_with_model: n_ctx      = 4096`)
  [
    new RegExp(`^(?:\\S+ )?(?:[DIWE] )?(?:llama_context|llama_new_context_with_model): n_ctx += ${NUM}$`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    },
  ],
  // llama-kv-cache.cpp: `llama_kv_cache: size =  354.75 MiB (  8448 cells,  43 layers,  1/1 seqs), K (f16): …`
  // (`llama_kv_cache_unified:` in 2025 builds): the cells are the tokens the cache holds
  [
    new RegExp(`llama_kv_cache\\w*: size = +${NUM} MiB \\( *${NUM} cells,`),
    (p, m) => {
      p.kvTokens = parseNumber(m[2]);
      p.availableKvGiB = mib(m[1]);
    },
  ],
  // 2024 builds: `llama_new_context_with_model: KV self size  =  160.00 MiB, K (f16): …`
  [
    new RegExp(`KV self size += +${NUM} MiB`),
    (p, m) => {
      p.availableKvGiB = mib(m[1]);
    },
  ],
  // a slot's context (the longest request): 2026 `srv load_model: initializing, n_slots = 1, n_ctx_slot = 50176`,
  // 2024 ` -> Slot 0 - max context: 512`, mid-2024 (and the ik_llama.cpp fork) as LOG_INFO's k=v: `new slot | …
  // n_ctx_slot=32768`
  [
    new RegExp(`n_ctx_slot ?= ?${NUM}|Slot \\d+ - max context: ${NUM}`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1] ?? m[2]);
    },
  ],
  [
    new RegExp(`^(?:\\S+ )?(?:[DIWE] )?llama_context: n_ctx_per_seq += ${NUM}$`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
    },
  ],
];

/** Words one of the lines above always holds (the pre-filter and the host's grep; read alike by grep -E). */
export const PEER_PLAN_KEYWORDS = [
  "KV Cache is allocated",
  "max_total_num_tokens",
  "Load weight end",
  "Capture cuda graph end",
  "n_ctx",
  "llama_kv_cache",
  "KV self size",
  "max context",
] as const;
