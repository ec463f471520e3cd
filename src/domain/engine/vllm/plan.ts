// Plan lines a vLLM boot prints (reference §1.3), every era. Last value wins: a crash-looping unit boots
// several times and the newest boot is the one that counts.
import { messageOf, parseNumber } from "./lines.js";
import { PEER_PLAN_KEYWORDS, PEER_PLAN_RULES } from "../peer-plan.js";

export interface Plan {
  kvTokens: number | null;
  maxModelLen: number | null;
  maxConcurrency: number | null;
  gpuBlocks: number | null;
  availableKvGiB: number | null;
  modelLoadGiB: number | null;
  modelLoadSeconds: number | null;
  graphGiB: number | null;
  graphSeconds: number | null;
  estimatedGraphGiB: number | null;
  compileSeconds: number | null;
}

/** Compile-cache evidence: warm boots load graphs from the cache, cold ones compile them. */
export interface CompileCache {
  state: "hit" | "cold" | null;
  graphsCompiled: number;
  graphsLoaded: number;
  slowestGraphSeconds: number | null;
}

export function emptyPlan(): Plan {
  return {
    kvTokens: null, maxModelLen: null, maxConcurrency: null, gpuBlocks: null, availableKvGiB: null,
    modelLoadGiB: null, modelLoadSeconds: null, graphGiB: null, graphSeconds: null, estimatedGraphGiB: null,
    compileSeconds: null,
  };
}

const NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
type Setter = (plan: Plan, m: RegExpExecArray) => void;

// Searched independently: the merged KV line carries both the size and the concurrency.
const VLLM_RULES: ReadonlyArray<readonly [RegExp, Setter]> = [
  [new RegExp(`GPU KV cache size: ${NUM} tokens`), (p, m) => { p.kvTokens = parseNumber(m[1]); }],
  [new RegExp(`Maximum concurrency for ${NUM} tokens per request: ${NUM}x`), (p, m) => {
    p.maxModelLen = parseNumber(m[1]);
    p.maxConcurrency = parseNumber(m[2]);
  }],
  // V0/early V1 print `# GPU blocks: N`; pasted through a Markdown editor the `#` is often lost
  [new RegExp(`(?:^|# |\\s)GPU blocks: ${NUM}`), (p, m) => { p.gpuBlocks = parseNumber(m[1]); }],
  [new RegExp(`Available KV cache memory: ${NUM} GiB`), (p, m) => { p.availableKvGiB = parseNumber(m[1]); }],
  // --kv-cache-memory-bytes pins the pool and skips profiling: `Initial free memory F GiB, reserved R GiB memory for KV Cache as specified by kv_cache_memory_bytes …`
  [new RegExp(`reserved ${NUM} GiB memory for KV Cache`), (p, m) => { p.availableKvGiB ??= parseNumber(m[1]); }],
  [new RegExp(`Model loading took ${NUM} GiB(?: memory)? and ${NUM} seconds`), (p, m) => {
    p.modelLoadGiB = parseNumber(m[1]);
    p.modelLoadSeconds = parseNumber(m[2]);
  }],
  // V0/early V1 printed GiB arithmetic labelled "GB".
  [new RegExp(`Loading model weights took ${NUM} GB`), (p, m) => { p.modelLoadGiB = parseNumber(m[1]); }],
  [new RegExp(`Graph capturing finished in ${NUM} secs?, took ${NUM} GiB`), (p, m) => {
    p.graphSeconds = parseNumber(m[1]);
    p.graphGiB = parseNumber(m[2]);
  }],
  [new RegExp(`Estimated CUDA graph memory: ${NUM} GiB total`), (p, m) => { p.estimatedGraphGiB = parseNumber(m[1]); }],
  [new RegExp(`torch\\.compile (?:took|takes) ${NUM} s in total`), (p, m) => { p.compileSeconds = parseNumber(m[1]); }],
  [new RegExp(`Auto-fit max_model_len: reduced from ${NUM} to ${NUM}`), (p, m) => {
    p.maxModelLen ??= parseNumber(m[2]);
  }],
];

// SGLang's and llama.cpp's plan lines fill the same fields (engine/peer-plan.ts).
const RULES = [...VLLM_RULES, ...PEER_PLAN_RULES];

const COMPILED = new RegExp(`Compiling a graph for .*? takes ${NUM} s`);
const LOADED = /Directly load (?:the compiled graph\(s\) for .*? from the cache|AOT compilation from path)/;
// Cheap pre-filter: most lines of a long log are stats and access logs.
const KEYWORDS = /KV cache|KV Cache|concurrency|GPU blocks|Model loading|model weights|Graph capturing|CUDA graph memory|torch\.compile|Auto-fit|Compiling a graph|Directly load/;

export class PlanReader {
  readonly plan: Plan = emptyPlan();
  private compiled = 0;
  private loaded = 0;
  private slowest: number | null = null;

  push(line: string): void {
    if (!KEYWORDS.test(line) && !PEER_PLAN_KEYWORDS.test(line)) return;
    const msg = messageOf(line);
    for (const [re, set] of RULES) {
      const m = re.exec(msg);
      if (m) set(this.plan, m);
    }
    const c = COMPILED.exec(msg);
    if (c) {
      this.compiled++;
      const s = parseNumber(c[1]);
      if (s !== null && (this.slowest === null || s > this.slowest)) this.slowest = s;
    }
    if (LOADED.test(msg)) this.loaded++;
  }

  compileCache(): CompileCache {
    const state = this.compiled > 0 ? "cold" : this.loaded > 0 ? "hit" : null;
    return { state, graphsCompiled: this.compiled, graphsLoaded: this.loaded, slowestGraphSeconds: this.slowest };
  }
}

export function readPlan(lines: Iterable<string>): Plan {
  const reader = new PlanReader();
  for (const line of lines) reader.push(line);
  return reader.plan;
}
