// Plan lines a vLLM boot prints (reference §1.3), every era: the rules and the keywords that pre-filter
// them. domain/engine/plan.ts runs them with the other engines'. Pure.
import type { PlanRule } from "../plan-fields.js";
import { parseNumber } from "../../../lib/number.js";

const NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
// Searched independently: the merged KV line carries both the size and the concurrency.
export const VLLM_PLAN_RULES: readonly PlanRule[] = [
  [
    new RegExp(`GPU KV cache size: ${NUM} tokens`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`Maximum concurrency for ${NUM} tokens per request: ${NUM}x`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
      p.maxConcurrency = parseNumber(m[2]);
    },
  ],
  // V0/early V1 print `# GPU blocks: N`; pasted through a Markdown editor the `#` is often lost. Later V0
  // (executor_base.py `# %s blocks: %d, # CPU blocks: %d`) names the platform's device:
  // `# cuda blocks: N`, `# CUDA blocks: N`
  [
    // (V1's stats logger: `cache_config_info with initialization after num_gpu_blocks is: 15745`)
    new RegExp(
      `(?:^|# |\\s)GPU blocks: ${NUM}|num_gpu_blocks(?: is)?[:=] ?${NUM}|^# (?!CPU )\\w+ blocks: ${NUM}, # CPU blocks`,
    ),
    (p, m) => {
      p.gpuBlocks = parseNumber(m[1] ?? m[2] ?? m[3]);
    },
  ],
  [
    new RegExp(`Available KV cache memory: ${NUM} GiB`),
    (p, m) => {
      p.availableKvGiB = parseNumber(m[1]);
    },
  ],
  // --kv-cache-memory-bytes pins the pool and skips profiling: `Initial free memory F GiB, reserved R GiB memory for KV
  // Cache as specified by kv_cache_memory_bytes …`
  [
    new RegExp(`reserved ${NUM} GiB memory for KV Cache`),
    (p, m) => {
      p.availableKvGiB ??= parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`Model loading took ${NUM} GiB(?: memory)? and ${NUM} seconds`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
      p.modelLoadSeconds = parseNumber(m[2]);
    },
  ],
  // default_loader.py: the weights' own load time, the only one a CPU boot prints; on GPU the model runner's
  // `Model loading took … and N seconds` above comes after it and wins
  [
    new RegExp(`Loading weights took ${NUM} seconds`),
    (p, m) => {
      p.modelLoadSeconds ??= parseNumber(m[1]);
    },
  ],
  // V0 worker.py's memory profile: `model weights take XGiB; … the rest of the memory reserved for KV Cache is YGiB.`
  [
    new RegExp(`model weights take ${NUM} ?GiB`),
    (p, m) => {
      p.modelLoadGiB ??= parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`the rest of the memory reserved for KV Cache is ${NUM} ?GiB`),
    (p, m) => {
      p.availableKvGiB ??= parseNumber(m[1]);
    },
  ],
  // V0/early V1 printed GiB arithmetic labelled "GB".
  [
    new RegExp(`Loading model weights took ${NUM} GB`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`Graph capturing finished in ${NUM} secs?, took ${NUM} GiB`),
    (p, m) => {
      p.graphSeconds = parseNumber(m[1]);
      p.graphGiB = parseNumber(m[2]);
    },
  ],
  [
    new RegExp(`Estimated CUDA graph memory: ${NUM} GiB total`),
    (p, m) => {
      p.estimatedGraphGiB = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`torch\\.compile (?:took|takes) ${NUM} s in total`),
    (p, m) => {
      p.compileSeconds = parseNumber(m[1]);
    },
  ],
  // 2026: monitor.py times compilation and the first profiling/warm-up run as one figure
  [
    new RegExp(`torch\\.compile and initial profiling/warmup run together took ${NUM} s in total`),
    (p, m) => {
      p.compileSeconds = parseNumber(m[1]);
    },
  ],
  // model.py states the length at startup, before the KV figures repeat it
  [
    // (launch wrappers say it in vLLM's argument name: `Using model default max_model_len 2048`)
    new RegExp(`Using (?:model default )?max[ _]model[ _]len ${NUM}`),
    (p, m) => {
      p.maxModelLen ??= parseNumber(m[1]);
    },
  ],
  // the KV-shortfall error's own figures (kv_cache_utils.py): the length asked, the memory available, and the length
  // that would fit (V1), or the tokens the cache holds (V0)
  [
    new RegExp(`max seq len \\(${NUM}\\)`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`larger than the available KV cache memory \\(${NUM} GiB\\)`),
    (p, m) => {
      p.availableKvGiB = parseNumber(m[1]);
    },
  ],
  [
    new RegExp(`the estimated maximum model length is ${NUM}|tokens that can be stored in KV cache \\(${NUM}\\)`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1] ?? m[2]);
    },
  ],
  [
    new RegExp(`Auto-fit max_model_len: reduced from ${NUM} to ${NUM}`),
    (p, m) => {
      p.maxModelLen ??= parseNumber(m[2]);
    },
  ],
];

export const COMPILED = new RegExp(`Compiling a graph for .*? takes ${NUM} s`);
export const LOADED = /Directly load (?:the compiled graph\(s\) for .*? from the cache|AOT compilation from path)/;
/** Words one of the lines above always holds (a cheap pre-filter, and the host's journal grep): as
 *  regular-expression alternatives that read the same in JavaScript and in grep -E. */
export const VLLM_PLAN_KEYWORDS = [
  "KV cache",
  "KV Cache",
  "concurrency",
  "GPU blocks",
  "CPU blocks",
  "Model loading",
  "Loading weights took",
  "model weights",
  "Graph capturing",
  "CUDA graph memory",
  "torch\\.compile",
  "Auto-fit",
  "max model len",
  "max_model_len",
  "num_gpu_blocks",
  "max seq len",
  "Compiling a graph",
  "Directly load",
] as const;
