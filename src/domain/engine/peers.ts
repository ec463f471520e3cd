// The other engines users run next to vLLM, read from their own log lines: SGLang (Python, its own
// `[date TPn]` prefix, uvicorn's readiness line) and llama.cpp's llama-server (C++, optional `E `/`I `
// level and timestamp prefixes). Which engine wrote a log decides the flags a fix names. Wordings are
// those of the engines' sources (sglang model_runner/scheduler, llama.cpp llama-model-loader, ggml-cuda,
// server.cpp, common/arg.cpp). Pure.
import type { EngineKind } from "./kind.js";

/**
 * llama.cpp's line prefix with `--log-prefix`/`--log-timestamps`: `0.00.123.456 E `; 2026 builds: `[pid] E `, and with
 * timestamps both, `[pid] 1.37.495.453 I `. A host embedding llama.cpp puts its own before it: WasmEdge's WASI-NN
 * plugin `[2026-01-01 10:00:00.000] [error] [WASI-NN] llama.cpp: `.
 */
const LLAMA = String.raw`^(?:\[[^\]]*\] \[\w+\] \[WASI-NN\] llama\.cpp: )?(?:\[\d+\] )?(?:\d+\.\d+\.\d+\.\d+ )?(?:[DIWE] )?`;

const LLAMA_LINE = new RegExp(
  `${LLAMA}(?:llama_model_load|llama_model_loader|load_tensors|gguf_init_from_file|ggml_cuda_init|llama_context|srv +\\w+|main: (?:HTTP server|loading model|server is listening|exiting)|build: \\d+ \\([0-9a-f]+\\)|usage: \\S*llama-server )`,
);
const SGLANG_LINE =
  /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: (?:DP|TP|EP|PP)\d+)*\] |sglang[/.](?:srt|launch_server)|server_args=ServerArgs\(|alloc_req_slots runs out of memory/;
const VLLM_LINE =
  /^\((?:APIServer|EngineCore\w*|VllmWorker\w*|Worker\w*) pid=\d+\) |vllm[/.](?:entrypoints|engine|v1|worker|executor)|^(?:INFO|WARNING|ERROR) \d\d-\d\d \d\d:\d\d:\d\d \[/;

/** The engine a line is evidently from, or null (most lines say nothing). */
export function familyOf(line: string): EngineKind | null {
  if (VLLM_LINE.test(line)) return "vllm";
  if (SGLANG_LINE.test(line)) return "sglang";
  if (LLAMA_LINE.test(line)) return "llama.cpp";
  return null;
}

/**
 * llama-server is up once it prints where it listens after loading (`main: server is listening on
 * http://H:P - starting the main loop`). Newer builds also print `main: HTTP server is listening, hostname:
 * …` before loading the model: that one is not readiness.
 */
const LLAMA_READY = new RegExp(`${LLAMA}main: server is listening on https?://`);

/**
 * 2024 builds logged JSON: `{"…","message":"model loaded"}`, then `all slots are idle` once serving; mid-2024 builds
 * the same LOG_INFO text as `INFO [ update_slots] all slots are idle | k=v` (`HTTP server listening` comes before the
 * model loads there: no readiness).
 */
const LLAMA_READY_2024 = /"message":\s*"model loaded"|^all slots are idle\b|^\s*INFO \[ *\w+\] all slots are idle \|/;

export function isPeerReadyMarker(line: string): boolean {
  return (
    (line.includes("server is listening on http") && LLAMA_READY.test(line)) ||
    ((line.includes("model loaded") || line.includes("all slots are idle")) && LLAMA_READY_2024.test(line))
  );
}

export type PeerFailureKind = "oom" | "kv-insufficient" | "engine-init-failed";

export interface PeerFailure {
  kind: PeerFailureKind;
  /** 5 root cause … 1 wrapper (as vLLM's signatures). */
  priority: number;
}

const ROOT: ReadonlyArray<readonly [RegExp, PeerFailureKind]> = [
  // llama.cpp: a weights/KV/compute buffer the GPU cannot hold
  [
    /cudaMalloc failed: out of memory|(?:failed|unable) to allocate (?:CUDA|ROCm|HIP|Vulkan|SYCL|Metal)\d* buffer|failed to allocate compute (?:pp )?buffers|_alloc_buffer: failed to allocate buffer of size|failed to allocate buffer for kv cache/,
    "oom",
  ],
  // llama.cpp: the model file (absent, unreadable, not GGUF, an architecture this build does not know)
  [
    new RegExp(`${LLAMA}gguf_init_from_file(?:_impl)?: (?:failed to open|failed to read magic|invalid magic)`),
    "engine-init-failed",
  ],
  [new RegExp(`${LLAMA}llama_model_load: error loading model: `), "engine-init-failed"],
  // Ollama keeps the bundled runner's last error from `error loading model` on (llm/status.go) and reports it as
  // `llama runner process has terminated: …` (2026: `llama-server process …`): the same load failure, its prefix gone
  [
    /^error loading model: |llama(?:-server| runner) process has terminated: (?:exit status \d+: )?error loading model: /,
    "engine-init-failed",
  ],
  // SGLang: the weights leave no room for its KV pool within --mem-fraction-static
  [/Not enough memory\. Please try to increase --mem-fraction-static/, "kv-insufficient"],
  // SGLang model_runner.py: the profiled pool size is negative (weights took more than --mem-fraction-static allows)
  [/max_total_tokens=\d+ is larger than the profiled value -\d+/, "kv-insufficient"],
  // SGLang's scheduler: no free request slot in req_to_token_pool for a new batch (mem_cache/common.py, raised while
  // serving; the scheduler, and with it the server, dies)
  [/alloc_req_slots runs out of memory/, "engine-init-failed"],
];

const WRAPPERS: ReadonlyArray<readonly [RegExp, number]> = [
  // SGLang's subprocess wrappers: the traceback above them is the cause
  [/(?:Scheduler|TokenizerManager|DataParallelController|Detokenizer(?:Manager)?) hit an exception/, 2],
  [/Received sigquit from a child process|Rank \d+ scheduler is dead/, 1],
  // SGLang's HTTP server warming itself up after uvicorn is up (`_wait_and_warmup`): it logs the traceback and kills
  // its own process tree, so a server that said it was up is down; the traceback's exception is the cause
  [/Initialization failed\. warmup error/, 2],
  // llama.cpp's way down after a failed load (case-sensitive: vLLM's `Failed to load model - not enough GPU memory` is
  // a cause)
  [
    /exiting due to model loading error|(?:^|: )failed to load model\b|failed to create context with model|failed to initialize the context|exception loading model/,
    1,
  ],
];

/** llama.cpp's own model-load error, also when another program relays it (Ollama's runner error). */
export const LLAMA_LOAD_ERROR = /(?:^|: )error loading model: /;

export function peerFailureOf(msg: string): PeerFailure | null {
  for (const [re, kind] of ROOT) if (re.test(msg)) return { kind, priority: 5 };
  for (const [re, priority] of WRAPPERS) if (re.test(msg)) return { kind: "engine-init-failed", priority };
  return null;
}

/**
 * A llama.cpp model-load line's cause: `gguf_init_from_file: failed to open GGUF file 'X'`, `error loading model: Y`.
 */
export function llamaLoadCause(decisive: string): {
  what: "missing" | "architecture" | "corrupt" | "other";
  path: string | null;
} {
  const path = /'(\/[^']+\.gguf)'|from (\/\S+\.gguf)/.exec(decisive);
  const p = path ? (path[1] ?? path[2])! : null;
  if (/failed to open|No such file|cannot open/i.test(decisive)) return { what: "missing", path: p };
  if (/unknown (?:model )?architecture|unknown pre-tokenizer/.test(decisive)) return { what: "architecture", path: p };
  if (
    /failed to read magic|invalid magic|not within the file bounds|wrong number of tensors|corrupted|truncated/.test(
      decisive,
    )
  )
    return { what: "corrupt", path: p };
  return { what: "other", path: p };
}
