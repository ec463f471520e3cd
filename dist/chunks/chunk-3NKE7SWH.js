#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  cleanLine,
  redactSecrets
} from "./chunk-7ICKPVQF.js";
import {
  editDistance
} from "./chunk-ZMUO5JYW.js";

// src/domain/engine/vllm/contracts.ts
var TOOL_CONFIG_GAPS = [
  /"?auto"? tool choice requires --enable-auto-tool-choice and --tool-call-parser/,
  /tool_choice=.*? requires --tool-call-parser to be set/,
  /tools param requires --jinja flag/,
  /Unsupported param: tool_choice/
];
function isToolConfigGap(body) {
  return TOOL_CONFIG_GAPS.some((re) => re.test(body.replace(/\\"/g, '"')));
}
function parseJson(body) {
  try {
    return JSON.parse(body);
  } catch {
    return void 0;
  }
}
function errorMessage(body) {
  const json = parseJson(body);
  const fromJson = typeof json?.error === "object" ? json.error.message : json?.error ?? json?.message;
  return typeof fromJson === "string" ? fromJson : body.slice(0, 300);
}
function firstChoice(body) {
  const json = parseJson(body);
  const choice = json?.choices?.[0];
  if (!choice?.message) return null;
  return { message: choice.message, finishReason: choice.finish_reason };
}
function httpFailure(result) {
  if (result.status >= 200 && result.status < 300) return null;
  const msg = errorMessage(result.body);
  if (isToolConfigGap(result.body)) {
    return {
      ok: false,
      gap: "tools-not-enabled",
      reason: `HTTP ${result.status}: ${msg} (a server config gap, not a model fault)`
    };
  }
  return { ok: false, gap: null, reason: `HTTP ${result.status}: ${msg}` };
}
function checkThinking(result) {
  const failed = httpFailure(result);
  if (failed) return failed;
  const choice = firstChoice(result.body);
  if (!choice) return { ok: false, gap: null, reason: "the response has no choices[0].message" };
  const { message } = choice;
  const reasoning = message.reasoning ?? message.reasoning_content;
  const content = typeof message.content === "string" ? message.content : "";
  if (content.includes("</think>")) {
    return {
      ok: false,
      gap: "reasoning-parser-missing",
      reason: "thinking arrived inline in content (a </think> tag): the server runs no --reasoning-parser"
    };
  }
  if (typeof reasoning !== "string" || reasoning.trim() === "") {
    return {
      ok: false,
      gap: "reasoning-parser-missing",
      reason: "reasoning (and reasoning_content) is empty or null: start the server with --reasoning-parser"
    };
  }
  return { ok: true, gap: null, reason: `reasoning present (${reasoning.length} chars), content free of </think>` };
}
function checkTools(result) {
  const failed = httpFailure(result);
  if (failed) return failed;
  const choice = firstChoice(result.body);
  if (!choice) return { ok: false, gap: null, reason: "the response has no choices[0].message" };
  const calls = Array.isArray(choice.message.tool_calls) ? choice.message.tool_calls : [];
  if (calls.length === 0) {
    return {
      ok: false,
      gap: null,
      reason: `no tool_calls (finish_reason ${JSON.stringify(choice.finishReason)}): the tool parser extracted nothing`
    };
  }
  for (const call of calls) {
    const args = call.function?.arguments;
    if (typeof args !== "string" || parseJson(args) === void 0) {
      return {
        ok: false,
        gap: null,
        reason: `tool call ${String(call.function?.name)} has arguments that are not JSON: ${String(args).slice(0, 120)}`
      };
    }
  }
  if (choice.finishReason !== "tool_calls") {
    return {
      ok: false,
      gap: null,
      reason: `finish_reason is ${JSON.stringify(choice.finishReason)}, expected "tool_calls"`
    };
  }
  return {
    ok: true,
    gap: null,
    reason: `${calls.length} tool call(s) with JSON arguments, finish_reason "tool_calls"`
  };
}

// src/domain/engine/vllm/failures.ts
var NO_GPU = /No (?:CUDA|HIP) GPUs are available|Failed to infer device type|Found no NVIDIA driver on your system|CUDA driver initialization failed|no CUDA-capable device is detected|hipErrorNoDevice|No HIP GPUs|torch\.cuda\.is_available\(\) (?:is|returned) False/;
var ARCH_UNSUPPORTED = /Model architectures? \[[^\]]*\] (?:are|is) not supported/;
var HOST_OOM = /(?:Memory cgroup out of memory|Out of memory): Killed process|has been killed by the OOM killer|Failed with result 'oom-kill'|^\s*Active: failed \(Result: oom-kill\)/;
var HF_OFFLINE = /LocalEntryNotFoundError|outgoing traffic has been disabled/;
var GPU_FAULT = /(?:CUDA|HIP) error: (?!out of memory)(?:an illegal memory access|device-side assert|unspecified launch failure|misaligned address|an illegal instruction|uncorrectable ECC|the launch timed out)|GGML_ASSERT\(.*\) failed|NVRM: Xid \([^)]*\): (?:13|31|43|48|63|64|74|79|92|94|95)\b|GPU has fallen off the bus/;
var GPU_UNSUPPORTED = /type fp8e4nv not supported in this architecture|fp8e4nv not supported/;
var INSTALL = /No module named '(?:vllm|sglang|torch|sgl_kernel|flashinfer|vllm\._C)\b[\w.]*'|error while loading shared libraries: \S+: cannot open shared object file|undefined symbol: \S+|Failed to spawn: `[^`]+`/;
var NCCL_CAUSE = /NCCL WARN (?:.*no (?:socket )?interface found|Bootstrap ?: ?.*(?:fail|error|timeout|abort|refused)|.*socketStartConnect.*failed|.*Connect to \S+ failed|.*(?:Call to \w+ failed|unhandled system error)|Error while (?:creating|attaching to) shared memory segment)|(?:^|\]: )(?:Bootstrap|NET\/Socket) ?: ?no (?:socket )?interface found/;
var PEER_ACCESS = /peer access is not supported between these two devices/;
var CUSTOM_AR_CHECK = /^Failed: Cuda error \S+:\d+ '/;
var RAY_SHM = /System memory request exceeds memory available in \/dev\/shm/;
var NCCL = new RegExp(
  `${NCCL_CAUSE.source}|NCCL error|nccl(?:Internal|System|UnhandledCuda|InvalidUsage|Remote)Error|DistBackendError|Watchdog caught collective operation timeout|ProcessGroupNCCL.*(?:timed? ?out|abort)|(?:store->get|TCPStore).*(?:Connection reset|timed out|refused)|DistNetworkError`
);
var CHAT_TEMPLATE = /chat_template is not set|default chat template is no longer allowed|jinja2\.exceptions\.\w+|TemplateSyntaxError|UndefinedError: |(?:Error|error) (?:in applying|applying|rendering) (?:the )?chat template|chat template (?:file|path) .*(?:not found|does not exist|invalid)/;
var PARSER = /invalid (?:tool call|reasoning) parser: |(?:Tool|Reasoning) parser '?[\w-]+'? (?:is )?not (?:found|registered|supported)|(?:tool[-_ ]call[-_ ]parser|reasoning[-_ ]parser): invalid choice|Error in extracting tool call|Error trying to handle streaming tool call/;
var ROOT_CAUSES = [
  [
    /(?:CUDA|HIP) out of memory\. Tried to allocate|OutOfMemoryError|out of memory occurred when warming up sampler|Failed to load model - not enough GPU memory|(?:CUDA|HIP) error: out of memory/,
    "oom"
  ],
  [/Constraints violated \(/, "dynamo-shape"],
  [
    /To serve at least one request with the models?'?s max seq len|No available memory for the cache blocks|is larger than the maximum number of tokens that can be stored in KV cache/,
    "kv-insufficient"
  ],
  // the startup budget check (V1): `Free memory on device (6.9/8.0 GiB) on startup is less than desired GPU memory
  // utilization (0.9, 7.2 GiB)`
  // (2026: the device named, `Free memory on device cuda:0 (0.88/23.56 GiB) …`)
  [/Free memory on device [^(]{0,40}\(.*\) on startup is less than desired GPU memory utilization/, "oom"],
  [NO_GPU, "engine-init-failed"],
  [ARCH_UNSUPPORTED, "engine-init-failed"],
  [HOST_OOM, "oom"],
  [GPU_FAULT, "engine-init-failed"],
  [GPU_UNSUPPORTED, "engine-init-failed"],
  [HF_OFFLINE, "engine-init-failed"],
  [INSTALL, "engine-init-failed"],
  [NCCL, "engine-init-failed"],
  [CUSTOM_AR_CHECK, "engine-init-failed"],
  // launch choices the engine rejects or that fail on the first request: the chat template and the parsers
  [CHAT_TEMPLATE, "engine-args"],
  [PARSER, "engine-args"]
];
var WRAPPER = /Engine core initialization failed|Engine process failed to start|EngineDeadError|WorkerProc initialization failed|Frontend process failed during engine core initialization|died unexpectedly, shutting down client|Executor failed\./;
var WORKER_DIED = /Worker proc \S+ died unexpectedly/;
var ENGINE_FATAL = /EngineCore failed to start|EngineCore encountered a fatal error|EngineCore hit an exception|WorkerProc hit an exception|WorkerProc failed(?: to start)?\.|Application startup failed/;
var WORKER_FAILED = /Worker failed with error/;
var EXCEPTION = /^(?:[A-Za-z_][\w.]*\.)?(?:[A-Z]\w*Error|(?:[A-Z]\w*)?Exception)(?::|$)/;
var NCCL_SETUP = /no (?:socket )?interface found/;
function failureOf(msg, level) {
  if (level === "DEBUG" || level === "INFO" || level === "WARNING") return null;
  if (NCCL_SETUP.test(msg) && NCCL_CAUSE.test(msg) || PEER_ACCESS.test(msg))
    return { kind: "engine-init-failed", priority: 5.5 };
  for (const [re, kind] of ROOT_CAUSES) if (re.test(msg)) return { kind, priority: 5 };
  if (WORKER_FAILED.test(msg)) return { kind: "engine-init-failed", priority: 4 };
  if (RAY_SHM.test(msg)) return { kind: "engine-init-failed", priority: 4 };
  if (WRAPPER.test(msg)) return { kind: "engine-init-failed", priority: 1 };
  if (WORKER_DIED.test(msg)) return { kind: "engine-init-failed", priority: 2.5 };
  if (ENGINE_FATAL.test(msg)) return { kind: "engine-init-failed", priority: 2 };
  if (EXCEPTION.test(msg.trim())) return { kind: "engine-init-failed", priority: 3 };
  return null;
}
function outranks(next, held) {
  if (!held) return true;
  if (next.priority !== held.priority) return next.priority > held.priority;
  return next.priority < 5;
}

// src/domain/diagnosis/auth-mismatch.ts
function authMismatchAdvice(f) {
  return {
    summary: `the engine refused the gate's requests: ${f.decisive ?? "/v1/models answered 401/403"}`,
    fix: "The server runs with --api-key (or VLLM_API_KEY): give the gate the same key in the env secret DEPLOY_GATE_API_KEY (never in argv or deploy-gate.yml), or remove --api-key from the serve script if the endpoint should be open."
  };
}
function authMismatchDiagnosis(d, reason) {
  const a = authMismatchAdvice({ decisive: reason });
  return {
    ...d,
    class: "auth-mismatch",
    decisive: reason,
    summary: a.summary,
    fix: a.fix,
    evidence: [reason, ...d.evidence].slice(0, 16)
  };
}

// src/domain/engine/peers.ts
var LLAMA = String.raw`^(?:\[[^\]]*\] \[\w+\] \[WASI-NN\] llama\.cpp: )?(?:\[\d+\] )?(?:\d+\.\d+\.\d+\.\d+ )?(?:[DIWE] )?`;
var LLAMA_LINE = new RegExp(
  `${LLAMA}(?:llama_model_load|llama_model_loader|load_tensors|gguf_init_from_file|ggml_cuda_init|llama_context|srv +\\w+|main: (?:HTTP server|loading model|server is listening|exiting)|build: \\d+ \\([0-9a-f]+\\)|usage: \\S*llama-server )`
);
var SGLANG_LINE = /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: (?:DP|TP|EP|PP)\d+)*\] |sglang[/.](?:srt|launch_server)|server_args=ServerArgs\(|alloc_req_slots runs out of memory/;
var VLLM_LINE = /^\((?:APIServer|EngineCore\w*|VllmWorker\w*|Worker\w*) pid=\d+\) |vllm[/.](?:entrypoints|engine|v1|worker|executor)|^(?:INFO|WARNING|ERROR) \d\d-\d\d \d\d:\d\d:\d\d \[/;
function familyOf(line) {
  if (VLLM_LINE.test(line)) return "vllm";
  if (SGLANG_LINE.test(line)) return "sglang";
  if (LLAMA_LINE.test(line)) return "llama.cpp";
  return null;
}
var LLAMA_READY = new RegExp(`${LLAMA}main: server is listening on https?://`);
var LLAMA_READY_2024 = /"message":\s*"model loaded"|^all slots are idle\b|^\s*INFO \[ *\w+\] all slots are idle \|/;
function isPeerReadyMarker(line) {
  return line.includes("server is listening on http") && LLAMA_READY.test(line) || (line.includes("model loaded") || line.includes("all slots are idle")) && LLAMA_READY_2024.test(line);
}
var ROOT = [
  // llama.cpp: a weights/KV/compute buffer the GPU cannot hold
  [
    /cudaMalloc failed: out of memory|(?:failed|unable) to allocate (?:CUDA|ROCm|HIP|Vulkan|SYCL|Metal)\d* buffer|failed to allocate compute (?:pp )?buffers|_alloc_buffer: failed to allocate buffer of size|failed to allocate buffer for kv cache/,
    "oom"
  ],
  // llama.cpp: the model file (absent, unreadable, not GGUF, an architecture this build does not know)
  [
    new RegExp(`${LLAMA}gguf_init_from_file(?:_impl)?: (?:failed to open|failed to read magic|invalid magic)`),
    "engine-init-failed"
  ],
  [new RegExp(`${LLAMA}llama_model_load: error loading model: `), "engine-init-failed"],
  // Ollama keeps the bundled runner's last error from `error loading model` on (llm/status.go) and reports it as
  // `llama runner process has terminated: …` (2026: `llama-server process …`): the same load failure, its prefix gone
  [
    /^error loading model: |llama(?:-server| runner) process has terminated: (?:exit status \d+: )?error loading model: /,
    "engine-init-failed"
  ],
  // SGLang: the weights leave no room for its KV pool within --mem-fraction-static
  [/Not enough memory\. Please try to increase --mem-fraction-static/, "kv-insufficient"],
  // SGLang model_runner.py: the profiled pool size is negative (weights took more than --mem-fraction-static allows)
  [/max_total_tokens=\d+ is larger than the profiled value -\d+/, "kv-insufficient"],
  // SGLang's scheduler: no free request slot in req_to_token_pool for a new batch (mem_cache/common.py, raised while
  // serving; the scheduler, and with it the server, dies)
  [/alloc_req_slots runs out of memory/, "engine-init-failed"]
];
var WRAPPERS = [
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
    1
  ]
];
var LLAMA_LOAD_ERROR = /(?:^|: )error loading model: /;
function peerFailureOf(msg) {
  for (const [re, kind] of ROOT) if (re.test(msg)) return { kind, priority: 5 };
  for (const [re, priority] of WRAPPERS) if (re.test(msg)) return { kind: "engine-init-failed", priority };
  return null;
}
function llamaLoadCause(decisive) {
  const path = /'(\/[^']+\.gguf)'|from (\/\S+\.gguf)/.exec(decisive);
  const p = path ? path[1] ?? path[2] : null;
  if (/failed to open|No such file|cannot open/i.test(decisive)) return { what: "missing", path: p };
  if (/unknown (?:model )?architecture|unknown pre-tokenizer/.test(decisive)) return { what: "architecture", path: p };
  if (/failed to read magic|invalid magic|not within the file bounds|wrong number of tensors|corrupted|truncated/.test(
    decisive
  ))
    return { what: "corrupt", path: p };
  return { what: "other", path: p };
}

// src/domain/diagnosis/oom.ts
var UNIT_GIB = {
  B: 1 / 2 ** 30,
  KiB: 1 / 2 ** 20,
  MiB: 1 / 2 ** 10,
  GiB: 1,
  TiB: 1024,
  KB: 1 / 2 ** 20,
  MB: 1 / 2 ** 10,
  GB: 1
};
var Q = String.raw`(\d[\d,]*(?:\.\d+)?) ?(B|KiB|MiB|GiB|TiB|KB|MB|GB)`;
var TRIED = new RegExp(
  `Tried to allocate ${Q}|allocating ${Q} on device \\d+: cudaMalloc failed|failed to allocate \\w+ buffer of size (\\d+)()\\b`
);
var NEW_TOTAL = new RegExp(`total capac(?:i)?ty of ${Q} of which ${Q} is free`);
var OLD_TOTAL = new RegExp(`${Q} total capacity`);
var OLD_FREE = new RegExp(`${Q} free`);
function gib(m, at = 1) {
  if (!m) return null;
  const n = Number(m[at].replace(/,/g, ""));
  const f = UNIT_GIB[m[at + 1]];
  return f === void 0 || !Number.isFinite(n) ? null : n * f;
}
var round = (n) => n === null ? null : Math.round(n * 1e4) / 1e4;
var BUDGET = /Free memory on device [^(]{0,40}\((\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) GiB\) on startup is less than desired GPU memory utilization \([\d.]+, (\d+(?:\.\d+)?) GiB\)/;
function readOomGap(text) {
  const b = BUDGET.exec(text);
  if (b) {
    const [free2, total2, tried2] = [Number(b[1]), Number(b[2]), Number(b[3])];
    return { triedGiB: tried2, freeGiB: free2, totalGiB: total2, shortfallGiB: round(Math.max(0, tried2 - free2)) };
  }
  const t = TRIED.exec(text);
  const at = t === null ? 1 : t[1] !== void 0 ? 1 : t[3] !== void 0 ? 3 : 5;
  const tried = t !== null && at === 5 ? Number(t[5]) / 2 ** 30 : gib(t, at);
  if (tried === null) return null;
  const modern = NEW_TOTAL.exec(text);
  const total = modern ? gib(modern, 1) : gib(OLD_TOTAL.exec(text));
  const free = modern ? gib(modern, 3) : gib(OLD_FREE.exec(text));
  return {
    triedGiB: round(tried),
    freeGiB: round(free),
    totalGiB: round(total),
    shortfallGiB: free === null ? null : round(Math.max(0, tried - free))
  };
}
var giB = (n) => n === null || n === void 0 ? "?" : String(Math.round(n * 100) / 100);
function gapText(o) {
  return o ? `asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free of ${giB(o.totalGiB)} GiB (short ${giB(o.shortfallGiB)} GiB)` : "out of GPU memory";
}

// src/domain/diagnosis/peer-advice.ts
var WARMUP_FAILED = /Initialization failed\. warmup error/;
var REQ_SLOTS = /alloc_req_slots runs out of memory/;
function sglang(cls, f) {
  switch (cls) {
    case "oom":
      return {
        summary: `GPU out of memory: ${gapText(f.oom)}${f.phase === "capturing-graphs" ? ", while capturing CUDA graphs" : ""}`,
        fix: "SGLang keeps --mem-fraction-static of the GPU for weights and the KV pool; activations and CUDA graphs live in the rest: lower --mem-fraction-static (e.g. by 0.05), lower --cuda-graph-max-bs or --chunked-prefill-size, or --disable-cuda-graph. For the weights themselves: raise --tp-size or use a quantized checkpoint."
      };
    case "kv-insufficient":
      return {
        summary: "no room for SGLang's KV pool: the weights fill --mem-fraction-static",
        fix: "Raise --mem-fraction-static (the pool is what that fraction of the GPU leaves after the weights), lower --context-length, or raise --tp-size so each GPU holds fewer weights."
      };
    case "engine-init-failed":
      if (f.decisive && WARMUP_FAILED.test(f.decisive)) {
        return {
          summary: `SGLang's warm-up request to its own server failed after uvicorn started, and SGLang shut itself down: ${f.decisive}`,
          fix: "Read the exception under that line (the warm-up's HTTP status). A 502/503/407 there is usually an HTTP proxy from http_proxy/https_proxy in the engine's environment catching the request to its own address: set no_proxy=localhost,127.0.0.1,0.0.0.0 for the engine. --skip-server-warmup skips the request (the first real one then pays the warm-up)."
        };
      }
      if (f.decisive && REQ_SLOTS.test(f.decisive)) {
        return {
          summary: `SGLang's scheduler ran out of request slots and died: ${f.decisive}`,
          fix: "The request pool (req_to_token_pool) holds fewer slots than the batch asked for: lower --max-running-requests (SGLang's own advice; the line prints the slots left as available_size). The pool is sized from the KV tokens over the context length: a larger --mem-fraction-static or a shorter --context-length gives it more slots."
        };
      }
      return {
        summary: `engine initialization failed: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `Scheduler hit an exception` and `Received sigquit from a child process` only wrap it: the cause is the traceback above them."
      };
    default:
      return null;
  }
}
function llamacpp(cls, f) {
  switch (cls) {
    case "oom":
      return {
        summary: `GPU out of memory while llama.cpp allocated its buffers: ${f.decisive ?? "no cause line found"}`,
        fix: "Offload fewer layers (-ngl / --n-gpu-layers below the model's count), shrink the KV cache (-c / --ctx-size, -np / --parallel, --cache-type-k q8_0 --cache-type-v q8_0 with flash attention), or use a smaller quant."
      };
    case "engine-init-failed": {
      const d = f.decisive ?? "";
      const cause = llamaLoadCause(d);
      const at = cause.path ? ` ${cause.path}` : "";
      if (cause.what === "missing") {
        return {
          summary: `llama.cpp could not open the model file${at}`,
          fix: `Check the -m path${at ? ` (${at.trim()})` : ""} as the container sees it: the -v mount that should provide it, the file name, and that the unit's user may read it.`
        };
      }
      if (cause.what === "architecture") {
        return {
          summary: `this llama.cpp build does not know the model: ${d}`,
          fix: "Use a newer llama.cpp image (the model's architecture or pre-tokenizer was added later), or a GGUF converted for this build."
        };
      }
      if (cause.what === "corrupt") {
        return {
          summary: `the model file${at} is not a complete GGUF: ${d}`,
          fix: `Download the GGUF again (a cut download or a split file's first part alone reads like this) and check its size and sha256${at ? ` (${at.trim()})` : ""}.`
        };
      }
      return {
        summary: `llama.cpp failed to start: ${d || "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `exiting due to model loading error` and `failed to load model` only wrap it."
      };
    }
    default:
      return null;
  }
}
function peerAdvice(cls, engine, f) {
  if (f.decisive && [NO_GPU, NCCL, GPU_FAULT, HOST_OOM, PEER_ACCESS, RAY_SHM].some((re) => re.test(f.decisive)))
    return null;
  return engine === "sglang" ? sglang(cls, f) : llamacpp(cls, f);
}

// src/domain/diagnosis/advice.ts
function oomAdvice(f) {
  const d = f.decisive ?? "";
  if (HOST_OOM.test(d)) {
    return [
      "the kernel's OOM killer ended the engine: host RAM (or the unit's memory limit) ran out, not GPU memory",
      "Raise the unit's MemoryMax= / the container's --memory, or lower the engine's host-RAM use (--swap-space, --cpu-offload-gb, KV offloading, fewer API server processes); journalctl -k shows what else held memory."
    ];
  }
  if (/error: out of memory/.test(d) && !f.oom) {
    return [
      "CUDA error: out of memory without an allocation size (typically pin_memory of host buffers)",
      "This is usually the memlock limit, not VRAM: run the container with --ulimit memlock=-1:-1, or give a unit that runs the engine itself LimitMEMLOCK=infinity (and raise the host's memlock via PAM limits)."
    ];
  }
  if (/warming up sampler/.test(d)) {
    return ["out of memory while warming up the sampler", "Lower --max-num-seqs or --gpu-memory-utilization."];
  }
  if (/Free memory on device/.test(d)) {
    return [
      "the GPU has less free memory at startup than --gpu-memory-utilization asks for (another process holds VRAM)",
      "Free the GPU (nvidia-smi / rocm-smi shows the holder; a previous engine still stopping is common) or lower --gpu-memory-utilization to fit the free memory."
    ];
  }
  if (/Failed to load model - not enough GPU memory/.test(d)) {
    return [
      "the weights do not fit in the GPU memory budget",
      "Lower --gpu-memory-utilization to free memory for weights, raise --tensor-parallel-size, or use a quantized checkpoint."
    ];
  }
  const o = f.oom;
  const gap = gapText(o);
  if (f.phase === "capturing-graphs") {
    return [
      `GPU out of memory: ${gap}, while capturing CUDA graphs`,
      `${o ? `Asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free (short ${giB(o.shortfallGiB)} GiB): g` : "G"}raph capture needs memory outside the KV pool: lower --gpu-memory-utilization (or pin --kv-cache-memory-bytes) to leave room, capture fewer sizes (--max-num-seqs, compilation_config cudagraph_capture_sizes), or --enforce-eager to skip graphs.`
    ];
  }
  return [
    `GPU out of memory: ${gap}`,
    `${o ? `Asked ${giB(o.triedGiB)} GiB with ${giB(o.freeGiB)} GiB free (short ${giB(o.shortfallGiB)} GiB): l` : "L"}ower --gpu-memory-utilization / --max-num-seqs / --max-model-len, or pin the KV pool with --kv-cache-memory-bytes. A plan line that printed fine does not mean the boot fits.`
  ];
}
function loopText(attempts, failedExits = 0) {
  const ended = attempts.filter((a) => a.endedAt !== null);
  if (ended.length === 0 && failedExits > 0)
    return `${failedExits} failed exit(s) shown, their starts before the window`;
  const durations = ended.map((a) => a.durationS === null ? "?" : `${a.durationS}s`).join(", ");
  return `${ended.length} attempt(s) ended${durations ? ` after ${durations}` : ""}`;
}
function advice(cls, f) {
  const engine = f.engine ?? (f.decisive && LLAMA_LOAD_ERROR.test(f.decisive) ? "llama.cpp" : null);
  const peer = engine === "sglang" || engine === "llama.cpp" ? peerAdvice(cls, engine, f) : null;
  if (peer) return peer;
  const unit = f.unit ?? "the unit";
  switch (cls) {
    case "oom": {
      const [summary, fix] = oomAdvice(f);
      return { summary, fix };
    }
    case "kv-insufficient": {
      const k = f.kv;
      return {
        summary: !k ? "no memory left for the KV cache" : k.capacityTokens ? `KV cache too small for one max-length request: max model len ${k.maxModelLen} tokens, the cache holds ${k.capacityTokens}` : `KV cache too small for one max-length request: needs ${giB(k.neededGiB)} GiB, ${giB(k.availableGiB)} GiB available`,
        fix: `Raise --gpu-memory-utilization, lower --max-model-len${k?.estimatedMaxLen ? ` (the engine estimates ${k.estimatedMaxLen} fits)` : ""}, or pin --kv-cache-memory-bytes. Under expert offload utilization buys arena, not KV: pin the pool.`
      };
    }
    case "dynamo-shape": {
      const d = f.dynamo;
      const what = d?.symbol ? `${d.symbol} specialised to the constant ${d.constant ?? "?"}` : "a shape was specialised to a constant";
      return {
        summary: `torch.compile/dynamo shape specialisation: ${what}`,
        fix: "Shape specialisation, not memory: try --enforce-eager (skips torch.compile and CUDA graphs, a real cost), VLLM_DISABLE_COMPILE_CACHE=1 or VLLM_USE_AOT_COMPILE=1, or change --max-num-seqs so the compiled shapes fit. Do not add memory."
      };
    }
    case "engine-init-failed": {
      if (f.decisive && PEER_ACCESS.test(f.decisive)) {
        return {
          summary: `the engine's GPUs cannot reach each other's memory (no peer access): ${f.decisive}`,
          fix: "These GPUs have no P2P path (PCIe topology, a VM, consumer cards; `nvidia-smi topo -m` shows the links): start the engine with --disable-custom-all-reduce (vLLM and SGLang: the custom all-reduce needs peer access) and set NCCL_P2P_DISABLE=1 so NCCL goes through host memory."
        };
      }
      if (f.decisive && RAY_SHM.test(f.decisive)) {
        return {
          summary: `Ray's object store wants more shared memory than /dev/shm holds: ${f.decisive}`,
          fix: "Give the container more /dev/shm: --ipc=host, or --shm-size above the request the line names (Kubernetes: an emptyDir with medium: Memory mounted at /dev/shm); on the host itself, free or enlarge /dev/shm."
        };
      }
      if (f.decisive && NCCL_CAUSE.test(f.decisive)) {
        return {
          summary: `NCCL could not connect the engine's ranks: ${f.decisive}`,
          fix: "NCCL found no network interface to bootstrap on (or could not reach the other rank): set NCCL_SOCKET_IFNAME to the interface the ranks share (ip -br addr; e.g. NCCL_SOCKET_IFNAME=eth0, or lo on one host), and in a container use --network host or give it that interface; read NCCL_DEBUG=INFO output for the interface it tried."
        };
      }
      if (f.decisive && NCCL.test(f.decisive)) {
        return {
          summary: `NCCL/distributed failure between the engine's workers: ${f.decisive}`,
          fix: "NCCL needs shared memory and peer access: run a container with --ipc=host (or a large --shm-size; an engine the unit runs itself uses the host's /dev/shm: check its size), check the GPUs see each other (NCCL_P2P_DISABLE=1 to test), and read NCCL_DEBUG=INFO output for the failing rank."
        };
      }
      if (f.decisive && GPU_FAULT.test(f.decisive)) {
        const bus = /Xid|fallen off the bus/.test(f.decisive);
        return {
          summary: bus ? `the GPU failed under the engine (driver: ${f.decisive})` : `the engine crashed on a GPU fault: ${f.decisive}`,
          fix: bus ? "A hardware or driver fault, not the serve script: read dmesg/journalctl -k for the Xid, reset the GPU (nvidia-smi -r) or reboot the host, and check its power and cooling before redeploying." : "A crash inside a GPU kernel, not a memory limit: note the request that triggered it, try the previous image or without the newest kernel flags (CUDA graphs, custom all-reduce, FP8 KV), and rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel."
        };
      }
      if (f.decisive && GPU_UNSUPPORTED.test(f.decisive)) {
        return {
          summary: `this GPU lacks what a flag asks for: ${f.decisive}`,
          fix: "FP8 needs compute capability 8.9+ (Ada, Hopper): drop --kv-cache-dtype fp8 (and FP8 quantization) on this GPU, or move the endpoint to one that has it."
        };
      }
      if (f.decisive && HF_OFFLINE.test(f.decisive)) {
        return {
          summary: "the model is not in the Hugging Face cache and the hub is offline (HF_HUB_OFFLINE / local_files_only)",
          fix: "Put the model in the cache the engine reads (huggingface-cli download on a machine with access, into its HF_HOME: the one a container mounts), or point the engine at a local model directory, or allow the download (unset HF_HUB_OFFLINE)."
        };
      }
      if (f.decisive && ARCH_UNSUPPORTED.test(f.decisive)) {
        const arch = /\[([^\]]*)\]/.exec(f.decisive)?.[1] ?? "the model's";
        return {
          summary: `this vLLM does not know the model's architecture (${arch})`,
          fix: "Use a vLLM new enough for this model (image or venv; its release notes list the architecture), or a model this vLLM supports; no flag fixes this (--trust-remote-code does not add an architecture to vLLM)."
        };
      }
      if (f.decisive && INSTALL.test(f.decisive)) return installAdvice(f.decisive);
      if (f.decisive && NO_GPU.test(f.decisive)) {
        return {
          summary: "the engine sees no usable GPU",
          fix: "Give the container the GPUs (an engine the unit runs itself: the unit's user must reach /dev/nvidia* or /dev/kfd and /dev/dri) and check the host's driver: NVIDIA: --device nvidia.com/gpu=all (CDI) or --gpus all, and nvidia-smi on the host; AMD: the whole /dev/dri (render nodes alone hide the GPUs) and /dev/kfd; and CUDA_VISIBLE_DEVICES/HIP_VISIBLE_DEVICES."
        };
      }
      return {
        summary: `engine initialization failed: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `Engine core initialization failed` is only the wrapper, the cause is the EngineCore/worker traceback above it."
      };
    }
    case "clean-exit":
      return {
        summary: `${unit} exited cleanly (status 0) with no traceback in the window, before readiness`,
        fix: "vLLM's API server exits 0 after an EngineCore fatal error and the container is already removed: widen the journal window (journalctl -o json, relative --since) to find the traceback, and check NRestarts. With Restart=on-failure the unit stays silently dead: use Restart=always."
      };
    case "container-removed":
      return {
        summary: `a healthy engine (ready) exited 0 afterwards: ${unit} was stopped from outside`,
        fix: "Suspect an outside actor before the engine: a leftover probe or runner script doing `podman rm -f`, or another deploy. `pgrep -af` the scripts you launched and stop strays by PID."
      };
    case "crash-loop":
      return {
        summary: `crash loop: ${loopText(f.attempts, f.failedExits)}${f.startLimit ? "; systemd hit the start limit and gave up" : ""}`,
        fix: `Every attempt dies the same way: the shape does not fit. Read the first attempt's journal for the cause (\`systemctl show -p NRestarts ${unit}\`).${f.startLimit ? ` Then \`systemctl reset-failed ${unit}\` before starting it again.` : ""}`
      };
    case "tools-not-enabled":
      return {
        summary: "tool calls refused: auto tool choice is not enabled on the server (a config gap, not a model fault)",
        fix: "Start vLLM with --enable-auto-tool-choice --tool-call-parser <parser> (llama.cpp: --jinja)."
      };
    case "auth-mismatch":
      return authMismatchAdvice(f);
    case "ready":
      return { summary: `the engine reached readiness (${f.decisive ?? "Application startup complete."})`, fix: null };
    case "booting":
      return { summary: `still booting${f.phase ? ` (phase: ${f.phase})` : ""}; no failure yet`, fix: null };
    case "engine-args":
      if (f.decisive && CHAT_TEMPLATE.test(f.decisive)) {
        return {
          summary: `the chat template failed: ${f.decisive} (a server config problem, not a tool-choice gap)`,
          fix: "Give the server a template that renders these messages: --chat-template FILE (or the model's own tokenizer_config chat_template); template kwargs go in the request's chat_template_kwargs, not engine flags."
        };
      }
      if (f.decisive && PARSER.test(f.decisive)) {
        const which = /reasoning/i.test(f.decisive) ? "--reasoning-parser" : "--tool-call-parser";
        return {
          summary: `the ${which.slice(2)} failed: ${f.decisive}`,
          fix: `Set ${which} to a parser this vLLM has and that matches the model's output format (vllm serve --help lists the choices).`
        };
      }
      return {
        summary: `the engine refused its command line: ${f.decisive ?? "no cause line found"}`,
        fix: "Correct the engine flag the decisive line names in the serve script."
      };
    case "runtime-error":
    case "unit-error":
    case "script-error":
      return {
        summary: `${cls}: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix what the decisive line names, then deploy again."
      };
    case "unknown":
      return {
        summary: "no vLLM boot line, failure signature or unit event found",
        fix: 'Check the window and the source: capture with `journalctl -o json --since "20 min ago"` filtered on CONTAINER_NAME or the unit (relative times only).'
      };
  }
}
function installAdvice(decisive) {
  if (/No module named/.test(decisive)) {
    return {
      summary: `the interpreter that ran the engine cannot import it: ${decisive}`,
      fix: "The unit or script runs a Python without the engine installed (the system python3, another venv): start it with the venv's own binary or interpreter (ExecStart=/path/to/venv/bin/vllm serve \u2026, or /path/to/venv/bin/python -m \u2026); systemd and nohup do not see an activated venv or conda env."
    };
  }
  if (/error while loading shared libraries/.test(decisive)) {
    return {
      summary: `the dynamic loader cannot find a library the engine needs: ${decisive}`,
      fix: "systemd does not read ~/.bashrc: give the unit Environment=LD_LIBRARY_PATH=/usr/local/cuda/lib64 (the directory holding it), or register it with ldconfig; check with ldd on the binary."
    };
  }
  if (/undefined symbol/.test(decisive)) {
    return {
      summary: `a compiled extension was built against another torch or CUDA than the one installed: ${decisive}`,
      fix: "Reinstall the engine and its kernels (vllm, sgl_kernel, flash-attn) for the torch in this venv, in one pip/uv install, or use the engine's image; do not upgrade torch under them."
    };
  }
  return {
    summary: `uv found no such command in the project it ran from: ${decisive}`,
    fix: "uv run resolves the project from the working directory: set WorkingDirectory= in the unit to the project (or uv run --project DIR), or run the venv's bin/vllm directly."
  };
}

// src/domain/engine/vllm/lines.ts
var PROC = String.raw`\(([A-Za-z_][\w ]*?(?: rank=\d+)?) pid=(\d+)\) `;
var LEVEL = String.raw`(DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[?([^\]\s]+):\d+\] `;
var PREFIX = new RegExp(`^(?:${PROC})?(?:${LEVEL})?`);
var SOME_PREFIX = new RegExp(`^(?:${PROC}|${LEVEL})`);
function hasPrefix(line) {
  return SOME_PREFIX.test(line);
}
var MAY_PREFIX = /^(?:\(|DEBUG |INFO |WARNING |ERROR |CRITICAL )/;
var lastRaw = null;
var lastLine = null;
function parseLine(raw) {
  if (raw === lastRaw) return lastLine;
  const line = cleanLine(raw);
  const parsed = MAY_PREFIX.test(line) ? prefixed(line) : { proc: null, pid: null, level: null, file: null, msg: line };
  lastRaw = raw;
  lastLine = parsed;
  return parsed;
}
function prefixed(line) {
  const m = PREFIX.exec(line);
  return {
    proc: m[1] ?? null,
    pid: m[2] === void 0 ? null : Number(m[2]),
    level: m[3] ?? null,
    file: m[4] ?? null,
    msg: m[0].length === 0 ? line : line.slice(m[0].length)
  };
}
function messageOf(raw) {
  return parseLine(raw).msg;
}

// src/domain/engine/vllm/phase.ts
var PHASES = [
  [/Application startup complete/, "ready"],
  [
    /Starting vLLM (?:API )?server|Available routes are|^Route: |Started server process|Waiting for application startup|init engine \(profile|Supported(?:_| )tasks/,
    "starting-api"
  ],
  [
    /Capturing CUDA graph|Graph capturing finished|CUDA graph memory|Profiling CUDA graph|CUDA graph pool memory|Capture cuda graph begin/,
    "capturing-graphs"
  ],
  [
    /Compiling a graph|Dynamo bytecode transform|torch\.compile t|Directly load (?:the compiled|AOT)|Cache the graph|saved AOT compiled/,
    "compiling"
  ],
  [
    // (case folded for `Profiling …`; `\b`: Ollama's `OLLAMA_KV_CACHE_TYPE:` env dump is no llama.cpp line)
    /Memory profiling takes|Available KV cache memory|\bllama_kv_cache|KV Cache is allocated|GPU KV cache size|#? ?GPU blocks:|Maximum concurrency for|Initial profiling\/warmup|profiling/i,
    "profiling-kv"
  ],
  [
    /Starting to load model|Loading (?:safetensors|pt) checkpoint shards|Loading weights|Loading model weights|Model loading took|load_model|Using model weights format|llama_model_loader: |load_tensors: |Load weight begin/,
    "loading-weights"
  ]
];
function bootPhase(line) {
  const msg = messageOf(line);
  for (const [re, phase] of PHASES) if (re.test(msg)) return phase;
  return null;
}
var VLLM_SERVING = /Starting vLLM (?:API )?server (?:\d+ )?on https?:\/\//;
function isReadyMarker(line) {
  return line.includes("Application startup complete.") || line.includes("Starting vLLM ") && VLLM_SERVING.test(line) || isPeerReadyMarker(line);
}

// src/domain/engine/plan-fields.ts
function emptyPlan() {
  return {
    kvTokens: null,
    maxModelLen: null,
    maxConcurrency: null,
    gpuBlocks: null,
    availableKvGiB: null,
    modelLoadGiB: null,
    modelLoadSeconds: null,
    graphGiB: null,
    graphSeconds: null,
    estimatedGraphGiB: null,
    compileSeconds: null
  };
}

// src/lib/number.ts
function parseNumber(text) {
  if (text === void 0) return null;
  const n = Number(text.replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

// src/domain/engine/peer-plan.ts
var NUM = String.raw`(\d[\d,]*(?:\.\d+)?)`;
var mib = (s) => {
  const n = parseNumber(s);
  return n === null ? null : Math.round(n / 1024 * 1e6) / 1e6;
};
var PEER_PLAN_RULES = [
  // SGLang (GB there are GiB: its numbers are bytes / 2^30)
  [
    // newer builds put more fields (dtype) before #tokens and a KV size after it
    new RegExp(`KV Cache is allocated\\.[^#]{0,80}#tokens: ${NUM}`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`max_total_num_tokens=${NUM},.*?context_len=${NUM}`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
      p.maxModelLen = parseNumber(m[2]);
    }
  ],
  [
    new RegExp(`Load weight end\\..*? mem usage=${NUM} GB`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
    }
  ],
  // (2024 builds: the time alone, `Capture cuda graph end. Time elapsed: 2.19 s`)
  [
    new RegExp(`Capture cuda graph end\\. Time elapsed: ${NUM} s(?:\\. mem usage=${NUM} GB)?`),
    (p, m) => {
      p.graphSeconds = parseNumber(m[1]);
      if (m[2] !== void 0) p.graphGiB = parseNumber(m[2]);
    }
  ],
  // llama.cpp: `llama_context: n_ctx         = 16384` (older builds: `llama_new_context_with_model: n_ctx      = 4096`)
  [
    new RegExp(`^(?:\\S+ )?(?:[DIWE] )?(?:llama_context|llama_new_context_with_model): n_ctx += ${NUM}$`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    }
  ],
  // llama-kv-cache.cpp: `llama_kv_cache: size =  354.75 MiB (  8448 cells,  43 layers,  1/1 seqs), K (f16): …`
  // (`llama_kv_cache_unified:` in 2025 builds): the cells are the tokens the cache holds
  [
    new RegExp(`llama_kv_cache\\w*: size = +${NUM} MiB \\( *${NUM} cells,`),
    (p, m) => {
      p.kvTokens = parseNumber(m[2]);
      p.availableKvGiB = mib(m[1]);
    }
  ],
  // 2024 builds: `llama_new_context_with_model: KV self size  =  160.00 MiB, K (f16): …`
  [
    new RegExp(`KV self size += +${NUM} MiB`),
    (p, m) => {
      p.availableKvGiB = mib(m[1]);
    }
  ],
  // a slot's context (the longest request): 2026 `srv load_model: initializing, n_slots = 1, n_ctx_slot = 50176`,
  // 2024 ` -> Slot 0 - max context: 512`, mid-2024 (and the ik_llama.cpp fork) as LOG_INFO's k=v: `new slot | …
  // n_ctx_slot=32768`
  [
    new RegExp(`n_ctx_slot ?= ?${NUM}|Slot \\d+ - max context: ${NUM}`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1] ?? m[2]);
    }
  ],
  [
    new RegExp(`^(?:\\S+ )?(?:[DIWE] )?llama_context: n_ctx_per_seq += ${NUM}$`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
    }
  ]
];
var PEER_PLAN_KEYWORDS = [
  "KV Cache is allocated",
  "max_total_num_tokens",
  "Load weight end",
  "Capture cuda graph end",
  "n_ctx",
  "llama_kv_cache",
  "KV self size",
  "max context"
];

// src/domain/engine/vllm/plan.ts
var NUM2 = String.raw`(\d[\d,]*(?:\.\d+)?)`;
var VLLM_PLAN_RULES = [
  [
    new RegExp(`GPU KV cache size: ${NUM2} tokens`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`Maximum concurrency for ${NUM2} tokens per request: ${NUM2}x`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
      p.maxConcurrency = parseNumber(m[2]);
    }
  ],
  // V0/early V1 print `# GPU blocks: N`; pasted through a Markdown editor the `#` is often lost. Later V0
  // (executor_base.py `# %s blocks: %d, # CPU blocks: %d`) names the platform's device:
  // `# cuda blocks: N`, `# CUDA blocks: N`
  [
    // (V1's stats logger: `cache_config_info with initialization after num_gpu_blocks is: 15745`)
    new RegExp(
      `(?:^|# |\\s)GPU blocks: ${NUM2}|num_gpu_blocks(?: is)?[:=] ?${NUM2}|^# (?!CPU )\\w+ blocks: ${NUM2}, # CPU blocks`
    ),
    (p, m) => {
      p.gpuBlocks = parseNumber(m[1] ?? m[2] ?? m[3]);
    }
  ],
  [
    new RegExp(`Available KV cache memory: ${NUM2} GiB`),
    (p, m) => {
      p.availableKvGiB = parseNumber(m[1]);
    }
  ],
  // --kv-cache-memory-bytes pins the pool and skips profiling: `Initial free memory F GiB, reserved R GiB memory for KV
  // Cache as specified by kv_cache_memory_bytes …`
  [
    new RegExp(`reserved ${NUM2} GiB memory for KV Cache`),
    (p, m) => {
      p.availableKvGiB ??= parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`Model loading took ${NUM2} GiB(?: memory)? and ${NUM2} seconds`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
      p.modelLoadSeconds = parseNumber(m[2]);
    }
  ],
  // default_loader.py: the weights' own load time, the only one a CPU boot prints; on GPU the model runner's
  // `Model loading took … and N seconds` above comes after it and wins
  [
    new RegExp(`Loading weights took ${NUM2} seconds`),
    (p, m) => {
      p.modelLoadSeconds ??= parseNumber(m[1]);
    }
  ],
  // V0 worker.py's memory profile: `model weights take XGiB; … the rest of the memory reserved for KV Cache is YGiB.`
  [
    new RegExp(`model weights take ${NUM2} ?GiB`),
    (p, m) => {
      p.modelLoadGiB ??= parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`the rest of the memory reserved for KV Cache is ${NUM2} ?GiB`),
    (p, m) => {
      p.availableKvGiB ??= parseNumber(m[1]);
    }
  ],
  // V0/early V1 printed GiB arithmetic labelled "GB".
  [
    new RegExp(`Loading model weights took ${NUM2} GB`),
    (p, m) => {
      p.modelLoadGiB = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`Graph capturing finished in ${NUM2} secs?, took ${NUM2} GiB`),
    (p, m) => {
      p.graphSeconds = parseNumber(m[1]);
      p.graphGiB = parseNumber(m[2]);
    }
  ],
  [
    new RegExp(`Estimated CUDA graph memory: ${NUM2} GiB total`),
    (p, m) => {
      p.estimatedGraphGiB = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`torch\\.compile (?:took|takes) ${NUM2} s in total`),
    (p, m) => {
      p.compileSeconds = parseNumber(m[1]);
    }
  ],
  // 2026: monitor.py times compilation and the first profiling/warm-up run as one figure
  [
    new RegExp(`torch\\.compile and initial profiling/warmup run together took ${NUM2} s in total`),
    (p, m) => {
      p.compileSeconds = parseNumber(m[1]);
    }
  ],
  // model.py states the length at startup, before the KV figures repeat it
  [
    // (launch wrappers say it in vLLM's argument name: `Using model default max_model_len 2048`)
    new RegExp(`Using (?:model default )?max[ _]model[ _]len ${NUM2}`),
    (p, m) => {
      p.maxModelLen ??= parseNumber(m[1]);
    }
  ],
  // the KV-shortfall error's own figures (kv_cache_utils.py): the length asked, the memory available, and the length
  // that would fit (V1), or the tokens the cache holds (V0)
  [
    new RegExp(`max seq len \\(${NUM2}\\)`),
    (p, m) => {
      p.maxModelLen = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`larger than the available KV cache memory \\(${NUM2} GiB\\)`),
    (p, m) => {
      p.availableKvGiB = parseNumber(m[1]);
    }
  ],
  [
    new RegExp(`the estimated maximum model length is ${NUM2}|tokens that can be stored in KV cache \\(${NUM2}\\)`),
    (p, m) => {
      p.kvTokens = parseNumber(m[1] ?? m[2]);
    }
  ],
  [
    new RegExp(`Auto-fit max_model_len: reduced from ${NUM2} to ${NUM2}`),
    (p, m) => {
      p.maxModelLen ??= parseNumber(m[2]);
    }
  ]
];
var COMPILED = new RegExp(`Compiling a graph for .*? takes ${NUM2} s`);
var LOADED = /Directly load (?:the compiled graph\(s\) for .*? from the cache|AOT compilation from path)/;
var VLLM_PLAN_KEYWORDS = [
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
  "Directly load"
];

// src/domain/engine/plan.ts
var RULES = [...VLLM_PLAN_RULES, ...PEER_PLAN_RULES];
var PLAN_KEYWORDS = [...VLLM_PLAN_KEYWORDS, ...PEER_PLAN_KEYWORDS];
var KEYWORDS = new RegExp(PLAN_KEYWORDS.join("|"));
var PlanReader = class {
  plan = emptyPlan();
  compiled = 0;
  loaded = 0;
  slowest = null;
  /** Takes one line; true when it set a plan figure. */
  push(line) {
    if (!KEYWORDS.test(line)) return false;
    const msg = messageOf(line.includes("**") ? line.replace(/\*\*/g, "") : line);
    let read = false;
    for (const [re, set] of RULES) {
      const m = re.exec(msg);
      if (m) {
        set(this.plan, m);
        read = true;
      }
    }
    const c = COMPILED.exec(msg);
    if (c) {
      this.compiled++;
      const s = parseNumber(c[1]);
      if (s !== null && (this.slowest === null || s > this.slowest)) this.slowest = s;
    }
    if (LOADED.test(msg)) this.loaded++;
    return read;
  }
  compileCache() {
    const state = this.compiled > 0 ? "cold" : this.loaded > 0 ? "hit" : null;
    return { state, graphsCompiled: this.compiled, graphsLoaded: this.loaded, slowestGraphSeconds: this.slowest };
  }
};

// src/domain/engine/vllm/specdecode.ts
var LINE = /(?:SpecDecoding|Speculative) metrics: /;
var FLOAT = String.raw`(-?\d[\d,]*(?:\.\d+)?|nan)`;
var MEAN = new RegExp(`Mean acceptance length: ${FLOAT}`);
var AVG_PCT = new RegExp(`Avg Draft acceptance rate: ${FLOAT}%`);
var DRAFT_RATE = new RegExp(`(?<!Avg )Draft acceptance rate: ${FLOAT}(%?)`);
var ACCEPTED = new RegExp(`(?:Accepted: |Number of accepted tokens: )${FLOAT}`);
var DRAFTED = new RegExp(`(?:Drafted: |Number of draft tokens: )${FLOAT}`);
var PER_POS = /Per-position acceptance rate: ((?:\d+(?:\.\d+)?|nan)(?:, (?:\d+(?:\.\d+)?|nan))*)/;
function isSpecLine(line) {
  return LINE.test(messageOf(line));
}
function readSpecDecode(line) {
  const msg = messageOf(line);
  if (!LINE.test(msg)) return null;
  const mean = parseNumber(MEAN.exec(msg)?.[1]);
  let rate = null;
  const avg = AVG_PCT.exec(msg);
  const draft = DRAFT_RATE.exec(msg);
  if (avg) rate = pct(parseNumber(avg[1]));
  else if (draft) rate = draft[2] === "%" ? pct(parseNumber(draft[1])) : parseNumber(draft[1]);
  if (rate === null) {
    const acc = parseNumber(ACCEPTED.exec(msg)?.[1]);
    const drafted = parseNumber(DRAFTED.exec(msg)?.[1]);
    if (acc !== null && drafted) rate = acc / drafted;
  }
  const per = PER_POS.exec(msg)?.[1]?.split(", ").map(Number).filter((n) => Number.isFinite(n)) ?? [];
  return { meanAcceptanceLength: mean, acceptanceRate: rate, perPosition: per };
}
function pct(n) {
  return n === null ? null : n / 100;
}
var SAMPLE = /^(vllm:spec_decode_\w+?)(?:_total)?(?:\{([^}]*)\})? ([^\s]+)/;
function readSpecMetrics(prometheusText) {
  const sums = /* @__PURE__ */ new Map();
  const perPos = /* @__PURE__ */ new Map();
  let seen = false;
  for (const line of prometheusText.split("\n")) {
    const m = SAMPLE.exec(line.trim());
    if (!m || m[1].endsWith("_created")) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    seen = true;
    const name = m[1].replace(/^vllm:spec_decode_/, "");
    if (name === "num_accepted_tokens_per_pos") {
      const pos = Number(/position="(\d+)"/.exec(m[2] ?? "")?.[1]);
      if (Number.isInteger(pos)) perPos.set(pos, (perPos.get(pos) ?? 0) + value);
    } else sums.set(name, (sums.get(name) ?? 0) + value);
  }
  if (!seen) return null;
  const drafts = sums.get("num_drafts") ?? 0;
  const draftTokens = sums.get("num_draft_tokens") ?? 0;
  const accepted = sums.get("num_accepted_tokens") ?? 0;
  const v0Rate = sums.get("draft_acceptance_rate");
  const positions = [...perPos.keys()].sort((a, b) => a - b);
  return {
    meanAcceptanceLength: drafts > 0 ? 1 + accepted / drafts : null,
    acceptanceRate: draftTokens > 0 ? accepted / draftTokens : v0Rate ?? null,
    perPosition: drafts > 0 ? positions.map((p) => perPos.get(p) / drafts) : []
  };
}

// src/domain/diagnosis/below-engine.ts
var PATH = String.raw`(?<path>/[^\s:"']*)`;
var LOGRUS = /^time="[^"]*" level=(?<level>\w+) msg="(?<msg>(?:[^"\\]|\\.)*)"/;
var RULES2 = [
  // podman 4.3/5.x `-v SRC:DST` with SRC absent; docker: `invalid mount config for type "bind": bind source path does
  // not exist: SRC`
  [
    new RegExp(`Error: statfs ${PATH}: no such file or directory`),
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-mount-source", path: g.path })
  ],
  [
    new RegExp(`Error: statfs ${PATH}: permission denied`),
    "runtime-error",
    "podman",
    (g) => ({ what: "mount-permission", path: g.path })
  ],
  [
    new RegExp(`bind source path does not exist: ${PATH}`),
    "runtime-error",
    "docker",
    (g) => ({ what: "missing-mount-source", path: g.path.replace(/\.$/, "") })
  ],
  // devices: podman `Error: stat /dev/kfd: no such file or directory`; docker `error gathering device information while
  // adding custom device "/dev/kfd": no such file or directory`
  [
    /Error: (?:stat|lstat) (?<path>\/dev\/\S+): no such file or directory/,
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-device", path: g.path })
  ],
  [
    /adding custom device "(?<path>[^"]+)": no such file or directory/,
    "runtime-error",
    "docker",
    (g) => ({ what: "missing-device", path: g.path })
  ],
  [
    /unresolvable CDI devices (?<path>\S+)|could not select device driver "[^"]*" with capabilities: \[\[gpu\]\]/,
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-gpu-runtime", ...g.path ? { path: g.path } : {} })
  ],
  // images: local-only name (podman tries https://localhost/v2/), short names, pulls refused
  [
    /Error: initializing source docker:\/\/(?<image>\S+?): /,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image })
  ],
  [
    /Error: short-name "(?<image>[^"]+)" did not resolve to an alias/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image })
  ],
  [
    /Error: (?:unable to find image ')?(?<image>[^\s':]+(?::[\w.-]+)?)'?: image not known/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image })
  ],
  [
    /reading manifest (?<tag>\S+) in (?<repo>\S+): (?:manifest unknown|requested access to the resource is denied|unauthorized)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: `${g.repo}:${g.tag}` })
  ],
  // (docker's `Unable to find image 'X' locally` is the pull starting, not a failure)
  [
    /pull access denied for (?<image>[^\s,]+), repository does not exist|manifest for (?<image2>\S+) not found: manifest unknown/,
    "runtime-error",
    "docker",
    (g) => ({ what: "image-not-found", image: g.image ?? g.image2 })
  ],
  // ports: podman rootful (4.3 here), rootless (rootlessport / pasta), docker
  [
    /cannot listen on the (?:TCP|UDP) port: listen (?:tcp|udp)[46]? [\w.[\]:]*?:(?<port>\d+): bind: address already in use/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) })
  ],
  [
    /rootlessport listen (?:tcp|udp) [\w.[\]:]*?:(?<port>\d+): bind: address already in use/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) })
  ],
  [
    /pasta failed with exit code \d+:.*?Failed to bind port (?<port>\d+)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) })
  ],
  [
    /Bind for [\w.[\]:]*?:(?<port>\d+) failed: port is already allocated|failed to bind host port for [\w.[\]:]*?:(?<port2>\d+):\S+ address already in use/,
    "runtime-error",
    "docker",
    (g) => ({ what: "port-in-use", port: Number(g.port ?? g.port2) })
  ],
  // options podman (cobra) refuses: `Error: unknown flag: --memroy`, `unknown shorthand flag: 'x' in -x`, `invalid
  // argument "x" for "--memory" flag`
  [
    /(?:Error: |^)unknown (?:shorthand )?flag: (?<option>'\w' in -\S+|--?[\w-]+)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "unknown-option", option: g.option })
  ],
  [
    /Error: invalid argument "(?<argument>[^"]*)" for "(?<option>[^"]+)" flag/,
    "runtime-error",
    "podman",
    (g) => ({ what: "bad-option-value", option: g.option, argument: g.argument })
  ],
  // container name taken (a leftover without --replace/rm -f); docker says `Conflict. The container name "/X" is
  // already in use`
  [
    /the container name "\/?(?<container>[^"]+)" is already in use/i,
    "runtime-error",
    "podman",
    (g) => ({ what: "name-in-use", container: g.container })
  ],
  // the NVIDIA container toolkit's hook: the host driver is not loaded or not installed
  [
    /nvidia-container-cli: (?:initialization error: )?(?<msg>.*(?:driver not loaded|driver.*not found|NVML|nvml error).*)$/,
    "runtime-error",
    "docker",
    () => ({ what: "gpu-driver" })
  ],
  // an image built for another CPU architecture (crun's JSON error line, runc's)
  [/[Ee]xec format error/, "runtime-error", "crun", () => ({ what: "exec-format" })],
  // OCI runtime: crun (podman) and runc (docker)
  [
    /executable file `(?<command>[^`]+)` not found in \$PATH|exec: "(?<command2>[^"]+)": executable file not found in \$PATH/,
    "runtime-error",
    "crun",
    (g) => ({ what: "oci-command-not-found", command: g.command ?? g.command2 })
  ],
  [
    /OCI permission denied|(?:crun|runc): .*Permission denied|OCI runtime create failed: .*permission denied/i,
    "runtime-error",
    "crun",
    () => ({ what: "oci-permission-denied" })
  ],
  [
    /(?:Error: )?(?:crun|runc)(?: create failed)?: (?<msg>.+)|OCI runtime (?:create )?(?:failed|error)/,
    "runtime-error",
    "crun",
    () => ({ what: "oci-error" })
  ],
  // systemd running the unit (src/core/execute.c): exec, user, chdir …, and the exit status it logs
  [
    /^(?<unit>\S+\.service): Failed to locate executable (?<executable>\S+): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "exec", unit: g.unit, executable: g.executable, errno: g.errno })
  ],
  // the file was found but execve() failed: with ENOENT its #! interpreter is what is missing (systemd 252, for real)
  [
    /^(?<unit>\S+\.service): Failed to execute (?:command|(?<executable>\S+)): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({
      what: "exec",
      step: "execve",
      unit: g.unit,
      ...g.executable ? { executable: g.executable } : {},
      errno: g.errno
    })
  ],
  // EnvironmentFile= without its `-`: the start fails before any Exec*= runs (systemd 252: then "Failed to run
  // 'start-pre' task")
  [
    /^(?<unit>\S+\.service): Failed to load environment files: (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "environment-file", unit: g.unit, errno: g.errno })
  ],
  // TimeoutStartSec= ran out (Type=notify waits for READY=1, which vLLM never sends): systemd SIGTERMs a healthy boot
  [
    /^(?<unit>\S+\.service): (?<step>start|start-pre|start-post) operation timed out\. Terminating\.$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "start-timeout", unit: g.unit, step: g.step })
  ],
  [
    /^(?<unit>\S+\.service): Failed to determine user credentials: (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "user", unit: g.unit, errno: g.errno })
  ],
  [
    /^(?<unit>\S+\.service): Failed at step (?<step>[A-Z_]+) spawning (?<executable>\S+): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      unit: g.unit,
      step: g.step,
      executable: g.executable,
      errno: g.errno
    })
  ],
  [
    /^(?<unit>\S+\.service): Main process exited, code=exited, status=(?<status>2\d\d)\/(?<step>[A-Z_]+)/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      unit: g.unit,
      step: g.step
    })
  ],
  // systemctl status: the last exit in the unit's header, `Process: 1234 ExecStart=/x … (code=exited, status=203/EXEC)`
  // (and `Main PID: 1234 (code=exited, …)`, which names no executable: below the Process: line); systemd's own exit
  // codes (200-243, systemd exit-status.h) say the unit never ran
  [
    /^\s*(?<head>Process|Main PID): \d+ (?:ExecStart(?:Pre|Post)?=(?<executable>[^\s(]+)(?: [^(]*)?)?\(code=exited, status=(?<status>2\d\d)\/(?<step>[A-Z_]+)\)/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      step: g.step,
      status: g.head === "Process" ? "header" : "main-pid",
      ...g.executable ? { executable: g.executable } : {}
    })
  ],
  [
    /Unit (?<unit>\S+?) not found\.?$|Unit (?<unit2>\S+) could not be found/,
    "unit-error",
    "systemd",
    (g) => ({ what: "unit-not-found", unit: g.unit ?? g.unit2 })
  ],
  [
    /^(?<unit>\S+\.service): Service has no ExecStart=|Unit (?<unit2>\S+) has a bad unit file setting/,
    "unit-error",
    "systemd",
    (g) => ({ what: "bad-unit-file", unit: g.unit ?? g.unit2 })
  ],
  // the serve script's bash: `FILE: line N: MSG` (unbound variable, command not found, runtime syntax errors)
  [
    /^(?<file>\S+): line (?<line>\d+): (?<variable>\$?[\w[\]@*#?-]+): unbound variable$/,
    "script-error",
    "bash",
    (g) => ({ what: "unbound-variable", file: g.file, line: Number(g.line), variable: g.variable })
  ],
  [
    // (a command that is a terminal's escape code, `$'\E[01'`, is a coloured message bash was made to run: NOISE)
    /^(?<file>\S+): line (?<line>\d+): (?<command>\S+): command not found$/,
    "script-error",
    "bash",
    (g) => ({ what: "command-not-found", file: g.file, line: Number(g.line), command: g.command })
  ],
  [
    /^(?<file>\S+): line (?<line>\d+): (?<command>\S+): (?<errno>No such file or directory|Permission denied)$/,
    "script-error",
    "bash",
    (g) => ({ what: "script-path", file: g.file, line: Number(g.line), path: g.command, errno: g.errno })
  ],
  [
    /^(?<file>\S+): line (?<line>\d+): .*(?:syntax error|bad substitution|unexpected EOF|division by 0|invalid arithmetic operator|bad array subscript|ambiguous redirect|parameter null or not set|readonly variable)/,
    "script-error",
    "bash",
    (g) => ({ what: "runtime-syntax", file: g.file, line: Number(g.line) })
  ],
  // a script saved with CRLF line endings: its #! line asks for `bash\r`. GNU env quotes the name it could not run
  // (coreutils quote(): `'bash\r'`, `‘bash\r’` in a UTF-8 locale; a paste may show the CR as a space: the kernel
  // strips a #! line's trailing spaces, so only a CR leaves one there); bash says `/bin/bash^M: bad interpreter`
  [
    /^(?:\S+: )?['‘"](?<interpreter>[^'’"\s]+?)(?:\\r|\^M| )['’"]: No such file or directory|(?<interpreter2>\/\S+?)\^M: bad interpreter/,
    "script-error",
    "bash",
    (g) => ({ what: "crlf", command: g.interpreter ?? g.interpreter2 })
  ],
  // bash 5.2 running a script whose #! interpreter does not exist (a CRLF file's `bash\r`, a wrong path):
  // `bash: line 1: ./serve.sh: cannot execute: required file not found`
  [
    /^(?:\S+: )?(?:line \d+: )?(?<file>\S+): cannot execute: required file not found$/,
    "script-error",
    "bash",
    (g) => ({ what: "interpreter-missing", file: g.file })
  ],
  // a script's own ERR trap (`trap 'echo "[ERROR] in line $LINENO: exit code $?"' ERR`): what failed is the line
  // before it, so this decides only when nothing said more (priority 1.5, under every engine line)
  [
    /^`?\[?(?:ERROR|FATAL|Error)\]?:? .{0,60}?\bline (?<line>\d+)\b.{0,60}?\bexit (?:code|status)[:= ]*(?<status>\d+)/,
    "script-error",
    "bash",
    (g) => ({ what: "trapped-error", line: Number(g.line), errno: g.status })
  ],
  // the engine's argparse (`{prog}: error: …`, exit 2) and newer vLLM's config validation before any boot line
  [
    /^(?:usage: )?(?<prog>[\w./ -]*?): error: (?<msg>(?:argument |unrecognized arguments|the following arguments are required|ambiguous option|expected one argument|invalid choice).*)$/,
    "engine-args",
    "engine",
    (g) => ({
      what: "usage",
      argument: /argument (\S+?):/.exec(g.msg)?.[1] ?? /unrecognized arguments: (.+)/.exec(g.msg)?.[1] ?? g.msg
    })
  ],
  // pydantic's own line under that header names what is wrong (`Value error, User-specified max_model_len …`)
  // (an architecture it does not know is not a flag problem: engine-init-failed, engine/vllm/failures.ts)
  [
    /^Value error, (?!Model architectures? \[)(?<msg>.+?)(?: \[type=value_error\b.*)?$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg })
  ],
  [
    /ValidationError: \d+ validation errors? for (?<cls>\w*(?:Config|Args))\b/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-validation", argument: g.cls })
  ],
  // a value a flag sets that the model or GPU cannot take, said in a plain exception (vLLM's LoRA and dtype checks,
  // SGLang's context length)
  [
    /^(?:\w+\.)*NotImplementedError: (?<msg>(?:Prefix caching|Chunked prefill|Speculative decoding|LoRA|CUDA graphs?) (?:is|are) not (?:yet )?supported.*)$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg })
  ],
  [
    /^(?:\w+\.)*(?:ValueError|RuntimeError): (?<msg>(?:User-specified (?:max_model_len|context_length) \(\d+\) is greater than|LoRA rank \d+ is greater than max_lora_rank|Bfloat16 is only supported on GPUs with compute capability).*)$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg })
  ],
  // a model that ships its own code: transformers and vLLM both name the flag
  [
    /\b\w{1,100}Error: .*(?:trust_remote_code=True|--trust-remote-code)|Please pass the argument `trust_remote_code=True`/,
    "engine-args",
    "engine",
    () => ({ what: "missing-flag", argument: "--trust-remote-code" })
  ],
  // llama-server's argument parser (common/arg.cpp): an unknown flag, a value it cannot take (builds before
  // common/arg.cpp, common.cpp's gpt_params_parse: `error: unknown argument: %s`)
  [
    /^(?:E )?error: (?:invalid|unknown) argument: (?<argument>\S+)/,
    "engine-args",
    "engine",
    (g) => ({ what: "usage", argument: g.argument })
  ],
  [
    /^(?:E )?error while handling (?:argument|environment variable) "(?<argument>[^"]+)"/,
    "engine-args",
    "engine",
    (g) => ({ what: "usage", argument: g.argument })
  ],
  // the engine's own listen socket taken (host network, or a second server in the container): llama-server, uvicorn
  [
    /[Cc]ouldn't bind HTTP server socket, hostname: \S+, port: (?<port>\d+)/,
    "runtime-error",
    "engine",
    (g) => ({ what: "port-in-use", port: Number(g.port) })
  ],
  [
    /error while attempting to bind on address \('[^']*', (?<port>\d+)\)/,
    "runtime-error",
    "engine",
    (g) => ({ what: "port-in-use", port: Number(g.port) })
  ],
  // vLLM's own server socket (create_server_socket, before the engine starts): the port is in its argv, not here
  [/^OSError: \[Errno 98\] Address already in use$/, "runtime-error", "engine", () => ({ what: "port-in-use" })]
];
var GENERIC_RUNTIME = /^(?:Error: |docker: Error response from daemon: |Error response from daemon: )(?<msg>.+)$/;
var NOISE = /forwarding signal \d+ to container|no container with (?:name or )?ID .* found|: no such container$|resource_tracker|leaked (?:semaphore|shared_memory) objects?|Exception ignored in|KeyboardInterrupt|asyncio\.exceptions\.CancelledError|^CancelledError|Shutting down|Waiting for application shutdown|Application shutdown complete|Finished server process|Terminated$|See '(?:podman|docker) \w+ --help'|: \$'[^']*\\E[^']*': command not found$/;
function isNoise(msg) {
  return NOISE.test(msg);
}
var PRIORITY = { "oci-error": 4, "config-validation": 4, "trapped-error": 1.5 };
function belowOf(text) {
  let msg = text.trim();
  const logrus = LOGRUS.exec(msg);
  if (logrus) {
    if (logrus.groups.level !== "error" && logrus.groups.level !== "fatal") return null;
    msg = logrus.groups.msg.replace(/\\"/g, '"');
  }
  if (msg === "" || isNoise(msg)) return null;
  for (const [re, kind, layer, facts] of RULES2) {
    const m = re.exec(msg);
    if (!m) continue;
    const f = facts(m.groups ?? {});
    const nested = f.what === "trapped-error" && /\b(?:ba)?sh -c /.test(msg);
    const priority = f.status === "header" ? 4 : f.status === "main-pid" ? 3.9 : nested ? 1.4 : PRIORITY[f.what] ?? 5;
    return { kind, layer, priority, facts: f };
  }
  const g = GENERIC_RUNTIME.exec(msg);
  if (g)
    return {
      kind: "runtime-error",
      layer: msg.includes("daemon") ? "docker" : "podman",
      priority: 4,
      facts: { what: "runtime" }
    };
  return null;
}

// src/domain/diagnosis/traceback.ts
var START = /^\s*Traceback \(most recent call last\):/;
var FRAME = /^\s*File "[^"]*", line \d+/;
var SKELETON = /^\s*(?:raise\b|[~^]+\s*$|\.\.\.<\d+ lines>\.\.\.|\.\.\.\s*$|re-raise|The above exception was the direct cause|During handling of the above exception|Process [\w-]+:\s*$)/;
var MAX_CONTENT = 200;
var RAISE = /^\s*raise\s+[\w.]+\(/;
var ORDINARY = /* @__PURE__ */ new Set(["DEBUG", "INFO", "WARNING"]);
var TracebackAssembler = class {
  current = null;
  seen = /* @__PURE__ */ new Set();
  sourceNext = false;
  /** The newest finished-or-open traceback. */
  last = null;
  /** Inside a traceback every line counts (content, or an ordinary record that ends it). */
  get inside() {
    return this.current !== null;
  }
  /** Takes one line; true when it is a traceback's skeleton (a frame, its source line, `raise …`), never a cause. */
  push(raw) {
    const { msg, level } = parseLine(raw);
    if (START.test(msg)) {
      if (!this.current) this.open();
      return true;
    }
    if (!this.current) return RAISE.test(msg);
    if (isNoise(msg) || /^\s*warnings\.warn\(/.test(msg)) return false;
    if (level !== null && ORDINARY.has(level)) {
      this.current = null;
      return false;
    }
    if (FRAME.test(msg)) {
      this.current.frames++;
      this.sourceNext = true;
      return true;
    }
    if (this.sourceNext && /^\s{2,}\S/.test(msg)) {
      this.sourceNext = false;
      return true;
    }
    this.sourceNext = false;
    const text = msg.trim();
    if (text === "" || SKELETON.test(msg)) return text !== "";
    if (this.seen.has(text)) return false;
    this.seen.add(text);
    this.current.content.push(text);
    if (this.current.content.length > MAX_CONTENT) this.current.content.shift();
    return false;
  }
  open() {
    this.current = { content: [], frames: 0 };
    this.seen = /* @__PURE__ */ new Set();
    this.last = this.current;
  }
};
function decisiveOf(tb) {
  for (let i = tb.content.length - 1; i >= 0; i--) if (!WRAPPER.test(tb.content[i])) return tb.content[i];
  return tb.content[tb.content.length - 1] ?? null;
}

// src/domain/diagnosis/unit-events.ts
var UNIT = String.raw`(?<unit>[\w@.:\\-]+\.service)`;
var PATTERNS = [
  [new RegExp(`^${UNIT}: Deactivated successfully`), "deactivated"],
  // (systemd before ~230 writes `main process exited`)
  [new RegExp(`^${UNIT}: [Mm]ain process exited, code=\\w+, status=(?<status>\\d+)`), "main-exited"],
  // a failed ExecStartPre=/ExecStartPost=, or a one-shot's ExecStart= where systemd tracks it as the control process
  // (service.c logs the line at notice level only for a failure; older ones without the comma)
  [new RegExp(`^${UNIT}: Control process exited, code=\\w+,? status=(?<status>[1-9]\\d*)`), "main-exited"],
  [new RegExp(`^${UNIT}: Failed with result '(?<result>[\\w-]+)'`), "failed"],
  [new RegExp(`^${UNIT}: Scheduled restart job, restart counter is at (?<counter>\\d+)`), "restart-scheduled"],
  // service.c's hold-off line: no counter (systemd 236+ prints `Scheduled restart job, …` after it, older ones not)
  [new RegExp(`^${UNIT}: Service hold-off time over, scheduling restart`), "restart-scheduled"],
  [new RegExp(`^${UNIT}: Start request repeated too quickly`), "start-limit-hit"],
  [/^Started (?<unit>[\w@.:\\-]+\.service)?/, "started"],
  [/^Stopping (?<unit>[\w@.:\\-]+\.service)?/, "stopping"],
  [/^Stopped (?<unit>[\w@.:\\-]+\.service)?/, "stopped"]
];
function unitEventOf(text, opts) {
  if (!opts.fromSystemd && !text.includes(".service")) return null;
  for (const [re, kind] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const g = m.groups ?? {};
    const unit = g.unit ?? opts.unit ?? null;
    if (!opts.fromSystemd && !g.unit) return null;
    if (unit && !unit.endsWith(".service")) return null;
    if (/libpod|conmon/.test(text) && !g.unit) return null;
    const ev = { kind, unit, ts: opts.ts ?? 0, text };
    if (g.status !== void 0) ev.status = Number(g.status);
    if (g.result !== void 0) ev.result = g.result;
    if (g.counter !== void 0) ev.counter = Number(g.counter);
    if (kind === "failed" && g.result === "start-limit-hit") ev.kind = "start-limit-hit";
    return ev;
  }
  return null;
}
var MAIN_PID_EXIT = /^\s*Main PID: \d+ \(code=exited, status=(?<status>\d+)/;
var EXEC_START_FAILED = /^\s*Process: \d+ ExecStart=.*\(code=exited, status=(?<status>[1-9]\d*)(?:\/\w+)?\)\s*$/;
var ACTIVE = /^\s*Active: (?<state>activating \(auto-restart\)|failed) \(Result: (?<result>[\w-]+)\)/;
function statusHeaderEventOf(text, ts = 0) {
  const m = MAIN_PID_EXIT.exec(text) ?? EXEC_START_FAILED.exec(text);
  if (m) return { kind: "main-exited", unit: null, ts, status: Number(m.groups.status), text: text.trim() };
  const a = ACTIVE.exec(text)?.groups;
  if (!a) return null;
  if (a.state !== "failed") return { kind: "restart-scheduled", unit: null, ts, text: text.trim() };
  const kind = a.result === "start-limit-hit" ? "start-limit-hit" : "failed";
  return { kind, unit: null, ts, result: a.result, text: text.trim() };
}
function attemptsOf(events) {
  const out2 = [];
  let cur = null;
  const end = (ts) => {
    if (!cur || cur.endedAt !== null) return;
    cur.endedAt = ts;
    cur.durationS = cur.startedAt && ts ? Math.round((ts - cur.startedAt) / 1e5) / 10 : null;
  };
  for (const ev of events) {
    if (ev.kind === "started") {
      cur = { startedAt: ev.ts, endedAt: null, durationS: null, exitStatus: null, stopped: false };
      out2.push(cur);
    } else if (!cur) continue;
    else if (ev.kind === "stopping") cur.stopped = true;
    else if (ev.kind === "main-exited") {
      cur.exitStatus = ev.status ?? null;
      end(ev.ts);
    } else if (ev.kind === "deactivated" || ev.kind === "failed" || ev.kind === "stopped") {
      if (ev.kind === "deactivated" && cur.exitStatus === null) cur.exitStatus = 0;
      end(ev.ts);
    }
  }
  return out2;
}
function mainUnit(events) {
  const counts = /* @__PURE__ */ new Map();
  for (const ev of events) if (ev.unit) counts.set(ev.unit, (counts.get(ev.unit) ?? 0) + 1);
  let best = null;
  for (const [u, n] of counts) if (best === null || n > counts.get(best)) best = u;
  return best;
}

// src/domain/diagnosis/signature.ts
var CRASH_RESULTS = /* @__PURE__ */ new Set(["exit-code", "signal", "core-dump", "watchdog", "oom-kill"]);
function signatureOf(events, opts) {
  const { ready } = opts;
  const attempts = attemptsOf(events);
  const startLimit = events.find((e) => e.kind === "start-limit-hit");
  const ended = attempts.filter((a) => a.endedAt !== null && !a.stopped);
  const uncounted = events.filter((e) => e.kind === "restart-scheduled" && e.counter === void 0).length;
  const counter = Math.max(uncounted, ...events.map((e) => e.counter ?? 0));
  const failedExit = events.some((e) => e.kind === "main-exited" && e.status !== 0 || e.kind === "failed");
  const exitSeen = events.some((e) => e.kind === "main-exited" || e.kind === "failed" || e.kind === "deactivated");
  const lastStartAt = events.map((e) => e.kind).lastIndexOf("started");
  const current = events.slice(Math.max(0, lastStartAt));
  const lastEnd = [...current].reverse().find((e) => e.kind === "main-exited" || e.kind === "failed" || e.kind === "deactivated");
  const failedOnce = !ready && lastEnd !== void 0 && (lastEnd.kind === "failed" && CRASH_RESULTS.has(lastEnd.result ?? "") || lastEnd.kind === "main-exited" && lastEnd.status !== 0) && !current.some((e) => e.kind === "stopping" && e.seq <= lastEnd.seq);
  const repeated = Boolean(startLimit) || ended.length >= 2 || counter >= 2 || !ready && counter >= 1 && (failedExit || !exitSeen) || !ready && opts.nRestarts >= 2;
  const stopped = attempts.at(-1)?.stopped === true;
  return {
    attempts,
    startLimit,
    refusedStart: startLimit !== void 0 && attempts.length === 0 && !loopedBefore(events, startLimit),
    repeated,
    loop: repeated || failedOnce,
    loopLine: startLimit?.text ?? exitLine(events),
    failedExits: failedExitCount(events),
    exitAfter: (seq) => stopped ? void 0 : current.find((e) => e.seq >= seq && isCleanExit(e)),
    stoppedAfter: (seq) => events.some((e) => e.seq >= seq && e.kind === "stopping")
  };
}
function exitLine(events) {
  const newest = [...events].reverse();
  const lastExit = newest.find((e) => e.kind === "main-exited") ?? newest.find((e) => isCleanExit(e) || e.kind === "failed");
  const named = newest.find(
    (e) => e.kind === "main-exited" && e.status === lastExit?.status && /^Process: \d+ ExecStart=/.test(e.text)
  );
  return named?.text ?? lastExit?.text ?? null;
}
function loopedBefore(events, limit) {
  const before = events.slice(0, events.indexOf(limit));
  return before.some(
    (e) => e.kind === "restart-scheduled" || e.kind === "failed" || e.kind === "main-exited" && e.status !== 0
  );
}
function failedExitCount(events) {
  const exits = events.filter((e) => e.kind === "main-exited" && e.status !== 0).length;
  return exits > 0 ? exits : events.filter((e) => e.kind === "failed").length;
}
function isCleanExit(e) {
  return e.kind === "deactivated" || e.kind === "main-exited" && e.status === 0;
}

// src/domain/diagnosis/kube-advice.ts
function kubeAdvice(m) {
  const f = m.facts;
  switch (f.what) {
    case "kube-oom-killed":
      return {
        summary: "Kubernetes killed the container for going over its memory limit (OOMKilled, exit 137): host RAM, not GPU memory",
        fix: "Raise the container's resources.limits.memory (vLLM holds the weights in host RAM while loading, plus --swap-space and any CPU offload per GPU), or lower the engine's host-RAM use (--swap-space 0, no --cpu-offload-gb, fewer API server processes)."
      };
    case "kube-evicted-memory":
      return {
        summary: "Kubernetes evicted the pod: its node ran low on memory (host RAM, not GPU memory)",
        fix: "Give the container a memory request that covers what the engine holds in host RAM (resources.requests.memory, close to the limit), or lower the engine's host-RAM use (--swap-space 0, no --cpu-offload-gb); pods that use more than they request are evicted first."
      };
    case "kube-evicted":
      return {
        summary: `Kubernetes evicted the pod: its node ran low on ${f.argument ?? "a resource"}`,
        fix: f.argument === "ephemeral-storage" ? "The model download and the compile caches filled the node's disk: put the Hugging Face cache (HF_HOME) and ~/.cache on a volume (a PersistentVolumeClaim, or a hostPath with room), or request ephemeral-storage for the pod." : "Request the resource the node ran low on in the pod spec, or move the pod to a node with room; kubectl describe node shows the pressure."
      };
    case "kube-crash-loop":
      return {
        summary: "Kubernetes restarts the container in a loop (CrashLoopBackOff): the engine exits at every start",
        fix: "Read why the engine exits: kubectl logs POD --previous (the log of the run that died), then explain that log; kubectl describe pod POD shows the last exit code."
      };
    case "kube-image":
      return {
        summary: `Kubernetes could not pull the image${f.image ? ` ${f.image}` : ""}`,
        fix: "Fix the image name or tag in the pod spec (the tag must exist in the registry), or give the pod an imagePullSecret for a private registry; kubectl describe pod shows the registry's answer under Events."
      };
    case "kube-container-config":
      return {
        summary: "Kubernetes could not create or start the container from its spec",
        fix: "Read the Events of kubectl describe pod POD for the missing secret, configmap or volume, or the wrong command, and fix the pod spec."
      };
    case "kube-missing-ref":
      return {
        summary: `the pod refers to a ${f.argument} that does not exist in its namespace`,
        fix: `Create the ${f.argument} in the pod's namespace (kubectl create secret generic \u2026 / kubectl create configmap \u2026), or fix the name in the pod spec's env/envFrom/volumes.`
      };
    case "kube-unschedulable":
      return {
        summary: `no node can take the pod${f.argument ? `: not enough ${f.argument} free on any node` : ""}`,
        fix: f.argument && /gpu/i.test(f.argument) ? `Free a GPU (another pod holds them: kubectl get pods -A -o wide), lower resources.limits["${f.argument}"] in the pod spec (tensor parallel size must match it), or add a GPU node; a node without the device plugin (nvidia-device-plugin / GPU operator) advertises no ${f.argument} at all.` : "Read the scheduler's message (taints, node selectors, resources) and fix the pod spec or add capacity."
      };
    case "kube-mount":
      return {
        summary: `Kubernetes could not mount the volume${f.path ? ` ${f.path}` : ""} into the pod`,
        fix: "Check that the PersistentVolumeClaim, secret or host path the volume names exists and is bound in the pod's namespace (kubectl get pvc), then restart the pod."
      };
    case "kube-probe-kill":
      return {
        summary: "Kubernetes killed the container because a startup or liveness probe failed while the engine was still loading",
        fix: "Give the engine time to load: add a startupProbe on /health with failureThreshold x periodSeconds longer than the boot (weights download, torch.compile, CUDA graphs), or raise the liveness probe's initialDelaySeconds."
      };
    default:
      return {
        summary: "Kubernetes could not run the pod",
        fix: "Read kubectl describe pod POD's Events and fix what they name."
      };
  }
}

// src/domain/diagnosis/below-engine-advice.ts
var HELP = {
  vllm: "vllm serve --help lists the flags this image's vLLM accepts",
  sglang: "python -m sglang.launch_server --help lists the flags this image's SGLang accepts",
  "llama.cpp": "llama-server --help lists the flags this image's llama.cpp accepts"
};
var LAYER_NAME = {
  engine: "the engine's argument parser",
  podman: "podman",
  docker: "docker",
  crun: "the OCI runtime (crun/runc)",
  runc: "the OCI runtime (runc)",
  systemd: "systemd",
  bash: "the serve script (bash)",
  kubernetes: "Kubernetes"
};
function layerName(m) {
  return LAYER_NAME[m.layer];
}
function installOf(path, ctx) {
  if (!path) return null;
  return ctx.install?.find((e) => e.to === path) ?? null;
}
function scriptName(file, ctx) {
  const e = installOf(file, ctx);
  return e ? `${e.from} (installed as ${e.to})` : file ?? "the serve script";
}
var cfg = (ctx) => ctx.configFile ?? "deploy-gate.yml";
function nearestImage(image, local) {
  if (!local || local.length === 0) return null;
  const base = (s) => s.replace(/:[\w.-]+$/, "").replace(/^(?:localhost|docker\.io)\//, "").replace(/^library\//, "");
  const want = base(image);
  let best = null;
  let bestD = Infinity;
  for (const l of local) {
    const d = editDistance(want, base(l));
    if (d < bestD) [best, bestD] = [l, d];
  }
  return best !== null && bestD <= Math.max(3, Math.floor(want.length / 3)) ? best : null;
}
function configValue(msg) {
  const short = msg.length > 240 ? `${msg.slice(0, 240)}\u2026` : msg;
  const flag = /\b(max_model_len|context_length|max_lora_rank|max_num_batched_tokens|max_num_seqs|gpu_memory_utilization|tensor_parallel_size|quantization|dtype|kv_cache_dtype|served_model_name|tokenizer)\b/.exec(
    msg
  )?.[1] ?? (/Bfloat16 is only supported/.test(msg) ? "dtype" : void 0);
  const feature = /^(Prefix caching|Chunked prefill|Speculative decoding|LoRA|CUDA graphs?) (?:is|are) not (?:yet )?supported/.exec(
    msg
  )?.[1];
  if (feature) {
    const off = {
      "Prefix caching": "--enable-prefix-caching (or pass --no-enable-prefix-caching)",
      "Chunked prefill": "--enable-chunked-prefill",
      "Speculative decoding": "--speculative-config",
      LoRA: "--enable-lora",
      "CUDA graph": "CUDA graphs (--enforce-eager)",
      "CUDA graphs": "CUDA graphs (--enforce-eager)"
    };
    return {
      summary: `this engine does not support ${feature.toLowerCase()} for this model: ${short}`,
      fix: `Turn off ${off[feature] ?? feature} in the serve script for this model.`
    };
  }
  return {
    summary: `the engine refused its configuration before booting: ${short}`,
    fix: flag ? `Correct --${flag.replace(/_/g, "-")} in the serve script (the decisive line says what it must be).` : "Correct the engine flag the decisive line names in the serve script."
  };
}
function belowAdvice(m, ctx = {}) {
  const f = m.facts;
  if (m.layer === "kubernetes") return kubeAdvice(m);
  const unit = ctx.service ?? f.unit ?? "the unit";
  switch (f.what) {
    case "missing-mount-source":
      return {
        summary: `${layerName(m)} refused the bind mount: its source ${f.path} does not exist on the host`,
        fix: `Create ${f.path} on the host (mkdir -p ${f.path}, then put the model files there), or fix the -v source in the serve script; a cache dir needs mkdir -p before podman run.`
      };
    case "mount-permission":
      return {
        summary: `${layerName(m)} may not read the bind mount source ${f.path}`,
        fix: `Give the user the unit runs as access to ${f.path} (ls -ld ${f.path}; rootless podman runs as that user), or mount another path.`
      };
    case "missing-device":
      return {
        summary: `${layerName(m)} could not add the device ${f.path}: it does not exist on the host`,
        fix: `Check the GPU driver on the host (ls -l ${f.path}); drop --device ${f.path} from the serve script if this host has no such device.`
      };
    case "gpu-driver":
      return {
        summary: "the NVIDIA container toolkit could not reach the host's GPU driver (not loaded or not installed)",
        fix: "On the host: nvidia-smi must work first (load the driver: modprobe nvidia, or reinstall it after a kernel update, then reboot); the container starts once it does."
      };
    case "exec-format":
      return {
        summary: `${layerName(m)} could not run the image's program: it is built for another CPU architecture`,
        fix: "Use the image built for this host's architecture (uname -m; e.g. --platform linux/amd64 or the -arm64 tag), or rebuild it for this host."
      };
    case "missing-gpu-runtime":
      return {
        summary: `${layerName(m)} cannot give the container a GPU${f.path ? ` (${f.path})` : ""}`,
        fix: "Install and configure the GPU container toolkit on the host (nvidia-ctk cdi generate for podman's CDI), or pass the devices with --device."
      };
    case "image-not-found": {
      const near = nearestImage(f.image, ctx.localImages);
      const have = ctx.localImages && ctx.localImages.length > 0 ? ` Images on the host: ${ctx.localImages.slice(0, 6).join(", ")}.` : "";
      return {
        summary: `${layerName(m)} could not find or pull the image ${f.image}`,
        fix: near ? `The host has ${near}: fix the image name in the serve script (${f.image} -> ${near}).` : `Load the image on the host (podman load -i FILE, or podman pull ${f.image} with a fully qualified name and registry access), or fix the image name in the serve script.${have}`
      };
    }
    case "port-in-use":
      if (m.layer === "engine") {
        return {
          summary: `the engine could not listen on ${f.port ? `port ${f.port}` : "its --port"}: another process already listens on it (an earlier engine still alive, another user's server, or the container shares the host's network)`,
          fix: `${ctx.portOwner ? `Port ${f.port} is held by ${ctx.portOwner}: stop that (by its PID or container name)` : `Find the holder (ss -ltnp 'sport = :${f.port ?? "PORT"}' on the host) and stop it`}, or start the engine on another --port in the serve script.`
        };
      }
      return {
        summary: `${layerName(m)} could not publish port ${f.port}: another process already listens on it`,
        fix: ctx.portOwner ? `Port ${f.port} is held by ${ctx.portOwner}: stop that (by its PID or container name) or publish the engine on another port in the serve script (-p).` : `Find the holder (ss -ltnp 'sport = :${f.port}' on the host) and stop it, or publish the engine on another port in the serve script (-p).`
      };
    case "unknown-option":
      return {
        summary: `${layerName(m)} refused an option it does not know: ${f.option}`,
        fix: `Remove or correct ${f.option} in the serve script's podman run line (podman run --help lists what this host's podman accepts).`
      };
    case "bad-option-value":
      return {
        summary: `${layerName(m)} refused the value "${f.argument}" of ${f.option}`,
        fix: `Correct the value of ${f.option} in the serve script.`
      };
    case "name-in-use":
      return {
        summary: `${layerName(m)} could not create the container: the name ${f.container} is taken by a leftover container`,
        fix: `Remove the leftover first: add \`podman rm -f ${f.container}\` before podman run in the serve script (or ExecStartPre=-/usr/bin/podman rm -f ${f.container}), or use podman run --replace.`
      };
    case "oci-command-not-found":
      return {
        summary: `the OCI runtime could not find the container's command ${f.command}`,
        fix: `The image has no ${f.command} on its PATH: fix the command (or --entrypoint) after the image name in the serve script, or use the image that ships it.`
      };
    case "oci-permission-denied":
      return {
        summary: "the OCI runtime was denied running the container (permission denied)",
        fix: "Check the container's entrypoint is executable in the image, and the host's SELinux/AppArmor labels on mounted paths (:z/:Z on -v)."
      };
    case "oci-error":
    case "runtime":
      return {
        summary: `${layerName(m)} could not start the container`,
        fix: "Fix what the decisive line names in the serve script's podman run line, then deploy again."
      };
    case "exec": {
      const e = installOf(f.executable, ctx);
      if (f.errno === "Permission denied") {
        return {
          summary: `systemd could not execute ${f.executable}: permission denied (not executable)`,
          fix: e ? `Set mode: "0755" on the install: entry ${e.from} -> ${e.to} in ${cfg(ctx)} (it is "${e.mode}").` : `Make ${f.executable} executable (install it with mode 0755), or start it through bash in ExecStart=.`
        };
      }
      if ((e || f.step === "execve") && f.errno === "No such file or directory") {
        return {
          summary: `systemd could not execute ${f.executable}: its #! interpreter is missing on the host`,
          fix: `Fix the first line of ${e?.from ?? f.executable} (the #! interpreter must exist on the host, e.g. #!/bin/bash) and save it with LF line endings, not CRLF.`
        };
      }
      if (!f.errno && f.status) {
        return {
          summary: `systemd could not execute ${f.executable ?? "the unit's ExecStart"} (status=203/EXEC)`,
          fix: `Check that ${f.executable ?? "ExecStart='s path"} exists on the host, is executable (mode 0755 on its install: entry) and starts with a #! line whose interpreter exists, saved with LF line endings; journalctl -u ${unit} shows systemd's own line saying which.`
        };
      }
      const writes = ctx.install?.filter((x) => x.to !== f.executable && /\.(?:sh|bash)$|\/bin\//.test(x.to)).map((x) => x.to) ?? [];
      return {
        summary: `systemd could not execute ${f.executable ?? "the unit's ExecStart"}${f.errno ? `: ${f.errno.toLowerCase()}` : ""}`,
        fix: f.executable && !f.executable.startsWith("/") ? `ExecStart=${f.executable} is not on systemd's PATH: use the absolute path of the script in the unit file.${writes.length ? ` install: writes ${writes.join(", ")}.` : ""}` : `ExecStart= names ${f.executable ?? "a path"} that does not exist on the host${writes.length ? `; install: writes ${writes.join(", ")}: make ExecStart= and the install: entry's to: the same path` : ": fix ExecStart= in the unit file or add an install: entry that writes it"}.`
      };
    }
    case "user":
      return {
        summary: `systemd could not run ${unit} as its User=${ctx.unitUser ? ctx.unitUser : ""}: the user does not exist on the host`,
        fix: `Create the user on the host (useradd --system ${ctx.unitUser ?? "NAME"}) or fix User= in the unit file.`
      };
    case "step":
      return {
        summary: `systemd could not run ${unit}: failed at step ${f.step}`,
        fix: `Fix the unit setting behind step ${f.step} (systemd.exec(5)); systemctl status ${unit} shows the same line.`
      };
    case "unit-not-found": {
      const quadlet = ctx.install?.find((x) => /\.(?:container|kube|pod)$/.test(x.to));
      if (quadlet) {
        return {
          summary: `systemd has no unit ${f.unit}: the quadlet ${quadlet.to} that install: wrote generated none`,
          fix: `Quadlets need podman 4.4 or later on the host (podman --version), whose generator makes ${f.unit} at systemctl daemon-reload; check /usr/lib/systemd/system-generators/podman-system-generator --dryrun for its errors, or install a plain unit instead.`
        };
      }
      return {
        summary: `systemd has no unit ${f.unit}`,
        fix: `service: in ${cfg(ctx)} names ${f.unit}, which the host does not have: install the unit file to /etc/systemd/system/${f.unit} (an install: entry) or correct service:.`
      };
    }
    case "environment-file":
      return {
        summary: `systemd could not load an EnvironmentFile= of ${f.unit} (${f.errno?.toLowerCase()}): the unit never ran its engine`,
        fix: `Create the file the unit's EnvironmentFile= names on the host (or add it to install:), or write EnvironmentFile=-/path so a missing file is allowed.`
      };
    case "bad-unit-file":
      return {
        summary: `systemd refused the unit file of ${f.unit}`,
        fix: `Fix the unit file (systemd-analyze verify ${f.unit} shows every bad line).`
      };
    case "start-timeout":
      return {
        summary: `systemd stopped ${f.unit} because its ${f.step} did not finish within TimeoutStartSec= (the engine's own traceback after it is the SIGTERM, not the cause)`,
        fix: `Give the boot the time it needs: TimeoutStartSec= above the longest boot (weights, compile, graphs; e.g. TimeoutStartSec=30min) in ${f.unit}'s [Service]; with Type=notify, the engine must also send READY=1, which vLLM does not: use Type=simple or Type=exec.`
      };
    case "start-limit-hit":
      return {
        summary: `systemd refused to start ${unit}: start-limit-hit (it was restarted too often before this deploy)`,
        fix: `systemctl reset-failed ${unit}, then deploy again; move StartLimitIntervalSec=/StartLimitBurst= to [Unit] if they are in [Service].`
      };
    case "unbound-variable":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.variable} is not set (set -u)`,
        fix: `Set ${f.variable} where the unit runs ${scriptName(f.file, ctx)}: give it a default in the script (${f.variable}="\${${f.variable}:-VALUE}") or set it in the unit (Environment=${f.variable}=VALUE or EnvironmentFile=); a login shell's variables are not in systemd's environment.`
      };
    case "crlf":
      return {
        summary: `the serve script has Windows line endings: its #! line asks for "${f.command}\\r", which does not exist`,
        fix: "Save the script with LF line endings: dos2unix FILE or sed -i 's/\\r$//' FILE, and keep it so (a .gitattributes line `*.sh text eol=lf`, or git config core.autocrlf input)."
      };
    case "interpreter-missing":
      return {
        summary: `bash could not run ${f.file}: the interpreter its #! line names does not exist`,
        fix: `Check the first line of ${f.file}: the #! interpreter must exist on the host (e.g. #!/bin/bash), and the file must have LF line endings (a CRLF file asks for "bash\\r"): dos2unix ${f.file} or sed -i 's/\\r$//' ${f.file}.`
      };
    case "trapped-error":
      return {
        summary: `the serve script stopped at its line ${f.line}: a command there exited with status ${f.errno} (the script's ERR trap said so)`,
        fix: `Read the command at line ${f.line} of the serve script and the lines the log shows just before this one: they are that command's own error.`
      };
    case "command-not-found":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.command} is not a command on the unit's PATH`,
        fix: `Fix ${f.command} at line ${f.line} of ${scriptName(f.file, ctx)} (a typo, or install it); systemd's PATH is /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin, use an absolute path otherwise.`
      };
    case "script-path":
      return {
        summary: `the serve script stopped at line ${f.line}: ${f.path}: ${f.errno?.toLowerCase()}`,
        fix: `Create ${f.path} on the host or fix line ${f.line} of ${scriptName(f.file, ctx)}.`
      };
    case "runtime-syntax":
      return {
        summary: `the serve script failed at line ${f.line} at run time (bash -n cannot see this one)`,
        fix: `Fix line ${f.line} of ${scriptName(f.file, ctx)}: the decisive line is bash's own error.`
      };
    case "usage":
      return {
        summary: `the engine refused its command line before booting (usage error${f.argument ? ` on ${f.argument}` : ""})`,
        fix: `Correct ${f.argument ?? "the engine arguments"} in the serve script's engine arguments (${HELP[ctx.engine ?? "vllm"]}).`
      };
    case "config-value":
      return configValue(f.argument ?? "");
    case "missing-flag":
      return {
        summary: `the model needs ${f.argument}, which the serve script does not pass`,
        fix: `Add ${f.argument} to the engine arguments in the serve script: the model ships its own Python code, which the engine runs only with this flag (read that code first: it runs with the engine's rights).`
      };
    case "config-validation":
      return {
        summary: `the engine refused its configuration (${f.argument} validation) before booting`,
        fix: "Correct the engine flags the validation error names in the serve script."
      };
    default:
      return { summary: `${layerName(m)} failed`, fix: "Fix what the decisive line names, then deploy again." };
  }
}

// src/domain/diagnosis/kube.ts
var POD_ROW = /^(?<pod>[a-z0-9][-a-z0-9.]*)\s+(?<ready>\d+\/\d+)\s+(?:Init:)?(?<status>[A-Za-z]+)\s+(?<restarts>\d+)(?:\s+\([^)]*\))?\s+\S+/;
var REASON = /^\s*Reason:\s+(?<status>[A-Za-z]+)\s*$/;
var KUBELET_SYNC = /failed to \\?"StartContainer\\?" for \\?"[^"\\]+\\?" with (?<status>[A-Za-z]+): /;
var EVENT = /(?:^|\s)(?:Warning|Normal)\s+(?<reason>[A-Z][A-Za-z]+)\s/;
var by = (kind, priority, what, extra = {}) => ({
  kind,
  priority,
  below: {
    // the class comes from KubeMatch.kind; below carries the layer and the facts the fix names
    kind: "runtime-error",
    layer: "kubernetes",
    priority,
    facts: { what, ...extra }
  }
});
function statusOf(status) {
  switch (status) {
    case "OOMKilled":
      return by("oom", 5, "kube-oom-killed");
    case "CrashLoopBackOff":
    case "Error":
      return by("crash-loop", 1, "kube-crash-loop");
    case "ImagePullBackOff":
    case "ErrImagePull":
    case "InvalidImageName":
    case "ErrImageNeverPull":
      return by("runtime-error", 4, "kube-image");
    case "Evicted":
      return by("runtime-error", 4, "kube-evicted");
    case "CreateContainerConfigError":
    case "CreateContainerError":
    case "RunContainerError":
    case "ContainerCannotRun":
    case "StartError":
      return by("runtime-error", 4, "kube-container-config");
    default:
      return null;
  }
}
function eventOf(reason, line) {
  if (reason === "FailedScheduling") {
    const res = /Insufficient (?<resource>[\w./-]*\w)/.exec(line)?.groups?.resource;
    return by("runtime-error", 5, "kube-unschedulable", res ? { argument: res } : {});
  }
  if (reason === "Failed" || reason === "BackOff") {
    const pull = /Failed to pull image "(?<image>[^"]+)"/.exec(line);
    if (pull) return by("runtime-error", 5, "kube-image", { image: pull.groups.image });
    const back = /Back-off pulling image "(?<image>[^"]+)"/.exec(line);
    if (back) return by("runtime-error", 4, "kube-image", { image: back.groups.image });
    const missing = /Error: (?<kindOf>secret|configmap) "(?<name>[^"]+)" not found/.exec(line);
    if (missing)
      return by("runtime-error", 5, "kube-missing-ref", {
        argument: `${missing.groups.kindOf} ${missing.groups.name}`
      });
    if (/Back-off restarting failed container/.test(line)) return by("crash-loop", 1, "kube-crash-loop");
    return null;
  }
  if (reason === "FailedMount" || reason === "FailedAttachVolume") {
    const vol = /for volume "(?<vol>[^"]+)"/.exec(line)?.groups?.vol;
    return by("runtime-error", 5, "kube-mount", vol ? { path: vol } : {});
  }
  if (reason === "Evicted") return evictionOf(line);
  if (reason === "Killing" && /failed (?:startup|liveness) probe/.test(line))
    return by("runtime-error", 4, "kube-probe-kill");
  return null;
}
function evictionOf(line) {
  const res = /low on resource: (?<resource>[\w-]+)/.exec(line)?.groups?.resource;
  if (res === "memory") return by("oom", 5, "kube-evicted-memory");
  return by("runtime-error", 5, "kube-evicted", res ? { argument: res } : {});
}
var NODES_AVAILABLE = /\b\d+\/\d+ nodes are available: /;
function isScheduled(text) {
  return EVENT.exec(text)?.groups?.reason === "Scheduled" || /\bSuccessfully assigned \S+ to \S/.test(text);
}
var MAYBE = /Reason:|Warning|Normal|\d\/\d|low on resource|StartContainer/;
function kubeOf(text) {
  if (!MAYBE.test(text)) return null;
  const sync = text.includes("StartContainer") ? KUBELET_SYNC.exec(text)?.groups?.status : void 0;
  if (sync) return statusOf(sync);
  const reason = REASON.exec(text)?.groups?.status;
  if (reason) return statusOf(reason);
  const row = POD_ROW.exec(text.trim())?.groups;
  if (row) return statusOf(row.status);
  const ev = EVENT.exec(text)?.groups?.reason;
  if (ev) return eventOf(ev, text);
  if (NODES_AVAILABLE.test(text)) return eventOf("FailedScheduling", text);
  return /^\s*Message:\s+The node was low on resource: /.test(text) ? evictionOf(text) : null;
}

// src/domain/diagnosis/prefilter-automaton.ts
var SIGMA = 128;

// src/domain/diagnosis/prefilter-table.generated.ts
var PREFILTER_TABLE = "AAANAAQAABsABAAALgAAAAA6AAAAAFwAAAAAXgAAAABfAAAAAGEAAAAAYgAAAABjAAAAAGQAAAAAZQAAAABmAAAAAGcAAAAAaAAAAABpAAAAAGoAAAAAawAAAABsAAAAAG0AAAAAbgAAAABvAAAAAHAAAAAAcgAAAABzAAAAAHQAAAAAdQAAAAB2AAAAAHcAAAAAeAAAAwBzAAAEACAAAAUAchAABgBtEAAHAGEAAAgAIAAACABjAAAIAGQAAAgAbAAACABwAAAIAHUAAAgAdgAACQBhAAAJAGkAAAoAYQAACgBoAAAKAG8AAAoAcAAACgByAAAKAHUAAAsAZQAACwBpAAALAG8AAAsAeQAADABuAAAMAHIAAAwAcwAADAB2AAAMAHgAAA0AYQAADQBpAAANAGwAAA0AbwAADQBwAAANAHIAAA4AZwAADgBwAAAOAHIAAA8AYQAADwBpAAAPAHQAABAAbQAAEABuAAARAGkAABIAZQAAEgBpAAASAHUAABIAdgAAEwBlAAATAGkAABMAbAAAEwBvAAAUAGEAABQAZQAAFABvAAAVAF8AABUAYwAAFQBlAAAVAG8AABUAdQAAFQB2AAAWAGMAABYAbwAAFgBwAAAWAHUAABcAYQAAFwBlAAAXAG8AABcAcgAAFwB1AAAYAGEAABgAZQAAGABvAAAYAHUAABkAYQAAGQBjAAAZAGUAABkAaAAAGQB0AAAZAHUAABkAeQAAGgBjAAAaAGUAABoAaAAAGgBvAAAaAHIAABsAbgAAGwBzAAAcAGEAABwAZQAAHQBhAAAdAG8AAB4AZQAAHwBlAAAgAGwAACAAbgAAIwBsAAAkAGMAACUAdAAAJgBkAAAnAGwAACcAcgAAKABwAAApAHQAACoAYQAAKwBkAAAsAG4AAC0AYwAALQBuAAAtAHAAAC4AYQAALwBkAAAvAG0AAC8AbgAALwB1AAAwAHUAADEAYQAAMQBpAAAxAHUAADIAZAAAMwBmAAA0AGUAADQAcgAANABzAAA1AGMAADYAbgAANwBnAAA4AHIAADkAdAAAOgBpAAA7AGMAADsAZQAAOwBpAAA8AGkAADwAbAAAPQBuAAA+AGEAAD8AcgAAQAA4AABBAGUAAEEAbwAAQgBtAABCAHUAAEMAdQAARABhAABFAHMAAEYAcAAARgB0AABHAHQAAEgAYQAASQBpAABJAHQAAEkAdgAASgBuAABLAHkAAEwAbAAATQBiAABOACAAAE8AYQAAUABiAABRAGEAAFIAYQAAUgBjAABSAGcAAFIAdwAAUwBpAABTAG4AAFMAeAAAVABtAABUAHQAAFUAZAAAVgBjAABXAGMAAFgAcgAAWQAgAABZAGQAAFkAcgAAWQB0AABaAG0AAFsAaQAAWwByAABcAGkAAF0AbQAAXgBlAABfAHQAAGAAcgAAYABzAABhAGUAAGIAZAAAYwBvAABkAGwAAGUAaQAAZgBhAABmAGMAAGYAcwAAZgB0AABnAG8AAGcAdQAAaABuAABpAHYAAGoAaAAAawBlAABrAHIAAGwAbwAAbAB1AABtAGEAAG0AbwAAbQByAABuAGMAAG4AcAAAbwBzAABwAHAAAHEAbQAAcQByAAByAGEAAHMAIAAAcwBvAABzAHIAAHQAYQAAdAB1AAB1AGQAAHUAaQAAdQBrAAB1AHIAAHYAaQAAdwBsAAB4AHIAAHkAaQAAeQByAAB5AHQAAHoAcgAAewBjAAB8AHIAAH0AaQAAfgBvAAB/AGwAAIAAbwAAgQBpAACCAGkAAIMAIAAAgwBvAACEAGUAAIUAbAAAhgBvAACHAGkAAIgAIAAAiQBkAACKAGgAAIsAYwAAiwBuAACMAHQAAI0AdAAAjgBlAACPAG0AAI8AcAAAkABjAACQAG0AAJAAcwAAkAB0AACRAGwAAJIAIAAAkwBzAACUAHQAAJUAbhAClgBhAACXAGEAAJgAZAAAmQBlAACaAHQAAJsAawAAnABhAACdAGkAAJ4AaQAAngBvAACfAGkAAKAAYwAAoQBlAACiAGMAAKMAdAAApABsAAClAGwAAKYAaQAApwBnAACoAHcAAKkAZQAAqgBlAACrAG4AAKwAbAAArQBmAACuACAAAK8AcAAAsAAgAACxACAAALEAZQAAsgAgAACzAHAAALQAZwAAtQB0AAC2AGUAALcAYQAAuABqAAC5AGIAALoAbAAAuwBlAAC8AGMAALwAcwAAvQBrAAC+AHAAAL8AbQAAwABkAADBAGEAAMIAXwAAwwAgAADEAG4AAMUAaQAAxgAgAADGAF8AAMYAaQAAxwBvAADIAHIAAMkAZQAAygB0AADLAGwgAMwAZAAAzQBhAADNAGMAAM0AaAAAzQBtAADNAG4AAM0AcwAAzgBlAADPAG0AANAAIAAA0QBfAADSAGQAANMAbQAA1AAgAADVAC0AANUAawAA1gByAADXACAAANcAZwAA1wBvAADYAHMAANkAdAAA2gByAADbAG0AANwAYwAA3ABmAADdAGwAAN4AcwAA3wBkAADgAGUAAOEAZQAA4QBvAADiAHIAAOMAdAAA5AB0AADlAGMQAuYAZQAA5wBlAADoACAAAOkAdgAA6gByAADrAHQAAOwAcgAA7AB0AADtAHIAAO4AZQAA7wBjAADwAHAAAPEAdAAA8gBzAADzAHAAAPQAbQAA9QBuAAD2AGEAAPcAbAAC+ABjAAD5AGMAAPoAcwAA+wBlAAD8AHQAAP0AbgAA/gBlAAD/AG4AAAABdQAAAQFzAAACAXQAAAMBbQAAAwFuAAAEAWMAAAUBawAABgEgAAAHAXYAAAgBbgAACQEgAAAKAW8AAAsBbgAADAF2AAANAW4AAA4BcwAADwFjAAAQAWEAABEBaQAAEgEtAAATAWwAABQBdQAAFQEgAAAWAWUAABcBZQAAGAFvAAAZAXUAABoBIAAAGgFfAAAbAT0AABwBYQAAHQFpAAAeAXUAAB8BbwAAIAF0AAAhAWEAACIBZAAAIwFiAAAkAWgAACUBaQAAJwEgAAAnAW0AACgBdQAAKQEgAAAqAWMAACsBYgAAKwFuAAAsAWUAAC0BbQAALgFuAAAvAW0AADABcmACMQFtAAAyAXQAADMBcAAANAF1AAA1ASAAADUBaQAANgFlAAA3AWUAADgBcwAAOQE6AAA6AWEAADsBNAAAPAEgAAA9AXQAAD4BXwAAPwFfAABAAWIAAEABawAAQQFoAABCAW4AAEMBZQAARAFyAABFAWEAAEYBLwAARwFlAABIASAAAEgBaQAASQFyAABKAWwAAEsBYQAATAFvAABNAWUAAE4BbAAATwFhAABQAWUAAFEBZQAAUgFvAABTAWEAAFQBIAAAVAFfAABUAWkAAFUBbAAAVgFzAABXAW8AAFgBIAAAWQFmAABaAWMAAFoBcwAAWwF0AABcAW0AAF0BcgAAXgFpAABfAWwAAGABeAIAYgFjAABjAXYAAGQBbwAAZAF1AABlAWkAAGYBbwAAZwF2AABoAXUAAGkBcwAAagFhAABrAWUAAGsBcwAAbAFnAABtAWkAAG4BOgAAbwFwAABvAXIAAHABawAAcQFpAAByAWEAAHMBbwAAdAFvAAB1AWYAAHYBZQAAdwFhAAB4ASAAAHkBYQAAegFlAAB7AWkAAHwBIAAAfQFlgAB+AWkAAH8BaQAAgAFyAACBAXUAAIIBeQAAgwFsAACEAWUAAIYBZAAAhwFkAACIAScBAIkBZQAAigF0AACLAXQAAIwBdAAAjQEgAACNAWYAAI4BZQAAjwFhAACQAWUAAJEBbwAAkgFlAACTAXQAAJQBbAAAlQFpAACWASAAAJcBbAAAmQFoAACaAWUAAJsBdAAAnAFmAACdASAQAJ4BbwAAnwFzAACgAWcAAKEBZQAAogFpAACjAWkAAKQBaQAApQFpAACmAWgAAKcBZQAAqAFmAACpAWkAAKoBZQAAqwFzAACsAWMAAK0BcwAArgFlAACvAWcAALABbAAAsQFfAACyAWQAALMBYwAAtAFmAAC1AWEAALYBbgAAtwFmAAC3AWgAALcBcwAAuAEgAAC5AWwAALoBdAAAuwFyAAC8AXQAAL0BdAAAvgFlAAC/AW4AAMABbAAAwQFyAADCAW4AAsMBcgAAxAFpAADFASAAAMYBbAAAxwFsAADIAWMAAMkBZAAAyQFlAADJAWcAAMoBYQAAywFsAADMAXUAAM0BdAAAzgFhAADPAWUAANABcgAC0QFvAADSAWUAANMBYQAA1AEgAADUAToAANUBYQAA1gFlAADXAXQAANgBdAAA2QFjAADZAXMAANoBbgAA2wFkAADcAW4AAN0BaAAA3gEgEADfAXIAAOABbgAA4QFtAADiAWUAAOMBYQAA5AFpAADlAWwAAOYBdgAA5wEgAADoAW8AAOkBcgAA6gFyAADrAW4AAOwBMQAA7QEgAADtAXAAAO4BZQAA7wFhAADwAWYAAPEBaQAA8gEyAADzAWEAAPQBZAAA9QFlAAD2AWMAAPcBbAAA+AFkAAD5AWQAAvoBXwAA+wF3AAD8AW0AAPwBdAAA/QFuAAD+AWUAAP8BZQAAAAJuAAABAnAAAAICZQAAAwJvAAAEAmUAAAUCbwAABgJ1AAAHAnkAAAgCYwAACQIgAAAJAl8AAAsCdAAADAJhAAANAm4AAA4CZAAADwJwAAAQAmQAABECaQAAEgJjAAATAiAAABQCbEAAFQJuAAAWAnUAABcCcAAAGAJhAAAZAiAAABoCZQAAGwJ1AAAcAmkAAB0CbAAAHgJ0AAAfAmYAACACaQAAIQJtAAAiAnIgACMCIAAAJAJhAAAlAm4AAiYCcwAAJwJsAAAoAmEAACoCbgAAKwJ2AAAsAnYAAC0CcgAALgJpAAAvAmUAADACOgAAMQIgAAAyAnUAADQCcgAANQItAAA2AmkAADcCYwAANwJlAAA3AmkAADgCLwAAOQJzEAA6Ai0AADoCZAAAOwJtAAA8AnMAAD0CcgAAPgJtAAA/Am8AAEACYQAAQQJuAABCAnQAAEMCbAAARAIuAABFAmIAAEYCXwAARwJpAABJAncAAEoCbwAASwIgAABMAiAAAE0CbwAATgJuAABPAm4AAFACbgAAUQJkAABSAnIAAFMCbwAAVAJjAABVAiAQAFYCdQAAVwJfAABYAnQAAFkCOgAAWgIgAABbAm8AAFwCcgAAXQJ5AABeAmEAAF8CaQAAYAJiAABhAmkAAGICbwAAYwJ0AABkAm8AAGUCdAAAZgJsAABnAiAAAGgCZQAAaQJlAABqAmUAAGsCeAAAbAJkAABtAmkAAG4CcgAAcAJhAABxAm4AAHICbgAAcwJvAAB0Am8AAHUCYQAAdgJyAAB3AnIAAHgCcgAAeQJsAAB6AnQAAHsCbgAAfAJsAAB9AmMAAH4CdAAAgAIgAACBAiAAAIECYwAAgQJkAACCAmcAAIMCaQAAgwJsAACDAnIAAIMCdwAAhAIgEACFAnQAAIYCZEAAhwJpAACIAmEAAIgCbwAAiQJvAACKAnQAAIsCZwAAjAIgAACMAjoAAI0CIAAAjgJlAACQAmQAAJECdgAAkgJlAACTAm4AAJQCcwAAlQJuAACWAm8AAJcCIAAAmAJjAACZAiAAAJoCcgAAmwJvAACcAiAAAJ0CLgABngJuAACfAnUAAKACbgAAoQJsAACiAmEAAKMCZAAApAIuAAClAnIAAKYCIAAApwJ0AAKoAmgAAKkCZgAAqgIgAQCsAmsAAKwCbQAArQJlAACuAm8AAK8CZQAAsAJnAACxAm4AALICcgAAswIgAAC0AmkAALQCcgAAtQJzAAC2Am4AALcCcQAAuAJ0AAC5Am0AALoCIAAAuwJzAAC8AmwAALwCdwAAvQJsAAC+AmwAAr8CaQAAwAJ0AADBAmEAAMICIAAAwwJ1AADEAmQAAMUCaAAAxgJhAADIAm8AAMkCcAAAygJ1AADLAi0AAMwCeAAAzQJyAADOAm4AAM8CbAAA0AJsAADRAmkAANICIAAA0wJuAADUAmUAANYCZgAA1wJjAADZAnMAANoCaQAA2wJjAADcAmcAAN0CZQAA3gJlAADfAmMAAOACbgAA4QJzAADiAiAEAOMCYQAA5AJsAADlAiAAAOYCbgAA5wJuAADoAm8AAOkCZAAA6gJuAADrAmQAAO0CPgAA7gIgAADvAmkAAPACcwAA8QJ0AADyAiAAAPMCcgAA9AJ0AAD1AmEAAPYCaAAA9wJvAAD4AmMAAPkCYQAA+gJyAAD7Am4AAPwCbgAA/QJsAAD+Am0AAP8CZQAAAANuAAIBA2cAAAIDZwAAAwNnQAAEA28AAAUDIAAABQNwAAAGA3IAAAcDZQAICQNjAAAKA2IAAAsDYQAADAMgAAINA2MAAA4DdAAADwNlAAAQAyAAABEDdAAAEgN0AgATA2wAABQDdAAAFQNyEAAWA3QAABcDdQAAGANoAAAZA2UAABoDZQAAGgNsAAAbAyAAABwDbQAAHQNtAAAeA2kAAB8DIAAAIANuAAAhA2UAACIDaQAAIwNlAAAkA28AACUDYwAAJgNvAAAnA2wAAigDaQAAKQNyAAAqA2EAACsDbAAALAMgAAAtA2UAAC4DeQAALwNrAAAwA3cAADEDYgAAMgNjAAAyA3AAADMDbwAANANlAAA1A2VAADYDbgAANwNvAAA4A2UAADkDaAAAOwNlAAA9A28AAD4DYgAAPwNyAABAA2QAAEEDYQAAQgMgAABDA2EAAEMDdAAARAMgAABFA28AAEYDZAAARwNpAABIAyAAAEkDbQAASgNkAABLA3MAAEwDaQAATQNjAABOA2MAAE8DYQAAUANlAABRA28AAFIDcgAAUwNlAABVA28AAFYDbAAAVwNnAABYA2kAAFkDYwAAWgMgAABaA2kAAFsDZQAAXANkAABdA2IAAF0DcAAAXwNlAABgAyAAAGIDdgAAYwNvAABkA2kAAGUDZAAAZgNuAABnAyAAAGgDdAAAaQN2AABqA3IAAGsDZAAAbANvAABtA3QAAG4DdAAAbwMgAABwA2EAAHEDIAAAcgNmAAByA3AAAHMDOgAAdANlAAB0A28AAHUDZQAAdgNlAAB4A2wAAHkDYQAAegMgAAB6Ay0AAHsDZwAAfANsAAB9A2kAAH4DIAAAfwNyAACAA3UAAIEDcAAAggNfAACDA2MAAIQDaQAAhQNtAACGA3QAAIcDbCAAiANlAACJA28AAIoDbQAAiwNnAACMA20AAI0DYQAAjgNjAACPAzoAAJADbgAAkQNjAACSAyAAAJMDZAAAlANkAACVA2UAAJYDZwAAlwNzAACZA28AAJoDZQAAmwNpAACcA2EAAJ0DZwAAngNuAACfAyAAAKADZwAAoQNlAACiA2cAAKMDaQAApANuAAClA2YAAKYDZQAApwNtAACoA2UgAKkDZQAAqgN0AACrA2UAAKwDYwAArQNvAACtA3UAAK4DYwAArwNlAACwA2UAALEDIAAAsgN2AACzA28AALQDcgAAtgMgAAC3AyAAALkDZwAAugNmAAC7A3IAALwDbQAAvgNoAAC/A3UAAMADbgAAwgN1AADDA3MAAMQDcQAAxQNpAADGA2kAAMgDZQAAyQMgAADLA3AAAMwDcgAAzQNlAADOA2QAAM8DeAAA0ANpAADRA2MAANIDcAAA0wNwAADUA3QAANUDbgAA1gNnAADXA24AANgDbgAA2QNyAADaA3QAANsDawAA3ANwAADeA3YAAN8DbwAA4ANwAADhA28AAOIDYwAA4wN4AADkAyAAAOUDZQAA5gNvAADnA3kAAOgDbwAA6QNyAADqA3IAAOsDYQAA7QMgAADuA2EAAO8DcwAA8ANpAADxA2QAAPIDbiAA8wNsAAD0AyAAAPUDZRAA9gN0AAD3A2QAAPgDdAAA+QNvAAD6A2MAAPsDZgAA/AMgAAD9A24AAP4DbgAA/wNvAAAABCAAAAEEZQAAAgR0AAADBGsAAAQEYQAABQRwAAAGBHgAAAcEcgAACARuAAAJBHgAAAoEdAAACwRsAAAMBGkAAA0EegAADgRlAAAPBGEAABAEbQAAEQR4AAASBGkAABMEeQAAFARyAAAVBCAAABYEcwAAFwRfAAAYBGQAABkEZwAAGgRlAAAbBHMAABwEbQAAHARwAAAcBHMAABwEdwAAHQRyAAAeBGUAAB8EZQAAIAQ6AAAhBGMAACIEIAAAIwRlAAAkBGwAACUEbAAAJgRjAAAnBG8AACgEcgAAKQQgABAqBG4CACsEYQAALARpAAAtBG4CAC4EYQAALwRpAAAwBGcAADEEYwAAMgRwAAAzBGUAADQEYQAANQRjAAA2BGUAADcEZwAAOARvAAA5BGIAADoEbwAAOwRkIAA8BGkAAD0EaQAAPwRkQABABG4AAEEEZQAAQgQgAABDBG8AAEQEaQAARQRlAABGBCAAAkcEZwQASARlAABJBG0AAEoEIAAASwQgAABMBF8AAE0EIAAATgRwAABPBHQAAFAEcgAAUQRzAABSBG0AAFMEIAAAVAR0AABVBHMAAFYEIAAAVwR2AABYBGUAAFkEbgAAWgRnAABbBHUAAFwEZAAAXQRlAABfBHMAAGAEZQAAYQQgAABiBGEAAGMEbQAAZARkAABlBGsAAGYEbQAAZwRkAABoBGEAAGkEYQAAagRkAABrBHIAAGwEZgAAbQR1AABuBCAAAG8EYQAAcARvAABxBGEAAHIEIAAAcwRmAAB0BHQAAHUEcwAAdgQgAAB3BF8AAHgEbgAAeQRvAAB6BCAAAHsEZgAAfAQgAAB9BGMAAH4EIAAAfwRlAACABGUAAIEEcwAAggR1AACDBGwAAIQEbAAAhQRlAACGBG8AAIcEIAAAiARjAACJBHQAAIoEYwAAigRkAAKLBCAAAIwEcwIAjQRiAACOBGUAAI8EcgAAkARoBACRBGMAAJIEaAAAkwRwAACUBGwAAJUEbgAAlgRyAACXBHQAAJgEcgAAmQRvAACaBGUAAJsEZAAAnARlAACdBGQAAJ4EcAAAnwRsAACgBCAAAKEEIAAAogRlAACjBGYAAKUEdQAApgR1AACnBCAAAKgEIAAAqQR1AACqBGYAAKsEcwAArARnAACtBG8AAK4EcgAArwRwAACwBHIAALEEXwAAsgRzAgCzBGMAALQEdAAAtQRlAAC2BDoAALcEbwAAuARjAAC5BCAAALoEYgAAuwRuAAC8BGEAALwEaQAAvQQgAAC+BHIAAL8EYQAAwARjAADBBG4AAMIEIAAAwwRvAADEBGkAAMUEaQAAxgRjAADHBGUAAMgEaAAAyQRsBADKBG8AAMsEbwAAzAR0AADNBGEAAM4EZQAAzwR5AADQBHIAANEEcwAA0gQgAALTBGUAANQEdQAA1QR4AADWBGUAANcEXwAA2ARvAADZBHIAANoEbwAA3QRkAADeBGcAAOAEYgAA4QRuAADiBHAAAOMEYQAA5AR1AADlBCAAAOYEIAAA5wRvAADoBCAAAOkEaAAA6gRyAADrBGwAAOwEbgAA7gRzAADvBG0AAPEEIAAA8gRtAADzBHQAAPQEcgAA9QRsAAD2BHMAAPkEcwAA+gRhAAD7BHMAAPwEZgAA/QR0AAD+BHcAAP8EbwAAAAUgAAABBSAAAAIFIAAAAwVlEAAEBWQAAAUFYQAABgVlAAAHBXQAAAcFdgAACAUvEAAJBXQgAAoFIAAACwUgAAAMBWwAAA0FIAAADQVfAAAOBW0AAA8FeQAAEAVkAQARBXAAABIFdAAAEwVwAAAUBWEAABUFIAAAFgVvAAAXBSAAABcFZQAAGAVyAAAZBWIAABoFZQAAGwVvAAAcBW8AAB0FcAAAHgVjAAAfBWkAACAFYwAAIQV0AAAiBWYAACMFZgAAJAUgAAAlBXQAACYFYQAAJwVzAAAoBSAAACkFbgAAKgVrAAAqBXIAACsFaQAALAVzAAAtBWUAAC4FZwAALwVyAAAwBWMAADEFdAAAMgVkAAAzBWEAADQFYQAANQVkEAA2BXQAADcFYQAAOAV5AgA5BXMAADoFYQAAPAVzAAA+BWEAAD8FcgAAQAU6AABBBSAAAEIFIAAAQwVhAABEBWUAAEUFbwAARgVkAABHBWsAAEgFZQAASQVlAABKBWMAAEsFIAAATAVlAABNBXgAAE4FaQAATwVvAABQBWUAAFEFbQAAUgVpAABSBWwAAFMFIAAAVAVhAABVBXMQAFYFZQAAVwVzAABYBWIAAFgFYwAAWAVkAABYBWUAAFgFaQAAWAVsAABYBXMAAFkFZAAAWgUgAABbBWUAAFwFIAAAXQV0AABeBXkAAF8FcgAAYAV0AABhBWYAAGIFOgQAYwVoAABkBXUAAGUFYwAAZgUgIABnBWQAAGgFZQAAaQVrAABqBWEAAGsFZQAAbAV0AABtBW4AAG4FZgAAbwVnAABwBWcAAHEFZQAAcgV0AABzBXQAAHQFYwAAdQVzAAB2BXoAAHcFYQAAeAVsAAB5BXQAAHsFcgAAfAVkAAB9BSAAAH4FZgAAfwVpAACABW4AAIEFXwAAggVvAACEBXMAAIUFbgAAhgV0AgCHBW4iAIgFbgAAiQVuAACKBSAAAIsFZgAAjAVlAACMBWkAAI0FaAAAjgVsAACPBWUAAJAFdQAAkQVwAACSBXMgAJMFbgAAlAVkAACVBW4AAJYFYQAAlwUgAACYBXQAAJkFbwAAmgV0AACbBXMAAJwFZRACnQV0AACeBW8AAJ8FcgAAoAV5AAChBWUAAKIFcwAAowVzAACkBW4AAKUFaQAApgVvAACnBXIAAKgFaQAAqQVyAACqBWMAAKsFaQAArAVsAACuBW8AAK8FaQAAsAVyAACxBW8AALIFbAAAtQVrAAC2BXQAALcFbAAAuAV0AAC5BXQAALoFbwAAuwVuAAC9BXIAAL4FZSAAvwVpAADABS4AAMEFKAAAwgV0AADDBXMAAMQFcgAAxQVnAADGBWwAAMcFbAAAyAVyAADJBXIAAMoFIAAAywVhAADMBWwAAM0FIAAAzgUgAADPBWkAANAFZQAA0QUoAALSBW8AANMFcgAA1AVsAADVBXUAANYFIAAA1wV2AADYBW8AANkFbAAA2gVlAADbBSAAANwFcgAA3QVyAADeBXUAAN8FZQAA4AVhAADhBXQAAOIFdAAA5AUgAADlBSAAAOcFIAAA6AVuAADpBWUAAOoFYwAA6wUgAADsBSAgAO0FbQAA7gVmAADvBXQAAPAFYwAA8QVhAADyBWUAAPMFZQAA9AVjAAD1BSAAAPYFZQAA9wVlAAD3BWYAAPcFaAAA+AVyAAD5BXQAAPoFbgAA+wVuAAD8BSAAAP0FYQAA/gVnAAD/BW8AAAAGZgAAAQZpAAADBiAAAAQGdAAABQZpAAAGBnIAAAcGZQAACAZ4AAAJBm4AAAoGbwAACwZwAAAMBmEAAA0GdAAADgZyAAAPBnMAABAGIAAAEQYgAAASBm8AABMGKCAAFAZyAAAWBmUAABcGcgAAGAZzAAAaBmUAABsGcAAAHAZuAAAdBmMAAB4GIAAAHwZpAAAgBmcAACEGbwAAIgZ1AAAjBmUAACQGcAAAJQZlAAAmBmgAACcGZQAAKAYgAAApBmUCACoGYwAAKwZfAAAsBiAAAC0GcwAALgZlAAAvBmMAADAGZQAAMQZnAAAyBm8AADMGcgAANAZ1AAA1BnMAADYGawAAOQZ1AAA6BmMAADsGawAAPAZpAAA9BmQIAD4GbgAAPwZ0AABABmUAAEEGcgAAQgZzIABDBmEAAEUGYQAARgZyAABHBnQAAEgGdgAASQZnAABJBm0AAEoGZQAASwZjAABMBmEAAE0GaQAATwZpAABQBnIAAFEGYQAAUgZlAABTBmQQAFQGIAAAVQYgAABWBmkAAFcGZwAAWAZyAABZBmEAAFoGdAAAWwZ0AABcBm8AAF0GcwAAXgZpAABfBncAAGAGbgAAYQZ2AABiBiAAAGMGbAAAZAZ2AABlBm8AAGYGeQAAZwZhAABoBmEAAGkGcgAAagZ0AABrBm8AAG0GbAAAbgZpAABvBm0AAHAGZQAAcQZ5AAByBnIAAHMGdQAAdAZlAAB1BiAAAHYGLAAAdwYgAAB4BnMAAHkGdQAAegZlAAB7BmYAAHsGaAAAewZpAAB8BmUAAH0GbAAAfgZyAACABm0AAIEGZQAAggZvAACDBnMAAIQGcwAAhQYgAACGBnUAAIcGZQAAiAZyAACJBnAAAIoGYQAAiwZvAACMBnQAAI0GbgAAjgYgAACPBmUgAJAGZQAAkQZmAACSBmcAAJMGdgAAlAZuAACVBmwAAJYGawAAlwZpAACZBmUAAJoGYQAAmwYgAACcBnQAAJ0GZAYAngZyAACfBnIAAKAGbwAAoQZpAACiBnMAAKMGbgAApAZhAAClBmkAAKYGcgAApwZyAACoBmcAAKkGcwAAqgZhAACqBmgAAKoGbAAAqwZ4AACsBm4AAK0GYQAArgZpAACvBmwAALAGdAAAsQZlAACyBm4AALMGZQAAtAZ0AAC1BmUAALYGZgAAtgZpAAC3BmEAALcGYwAAuAZhAAC5BiAAALoGaAAAuwZ2AAC8BmkAAL0GcwAAvgZvAAC/BmMAAMEGbwAAwgYgAADDBmkAAMQGdAAAxQZ2AADGBnQAAMcGbwAAyAZrAADJBigAAMoGbwAAywYgAADMBnUAAM0GbQAAzgZuAADPBnQAANAGcgAA0QZlAADSBnMAANMGYQAA1QZoAADWBmwAANcGYgAA1wZlAADYBjoAANkGbAAA2gZoAADbBnQAANwGaAAA3QZ0AADeBjoAAN8GcgAA4AYgAADhBm4AAOIGbQAA4wZ1AADkBnYAAOUGbAAA5wZnAgDoBnMCAOkGIAAA6gYgAADsBmIAAO0GbQAA7gZpAADvBmEAAPAGYQAA8QZwAADyBmUAAPMGZCAA9AZrAAD1BmkAAPYGbwAA9wZtAAD4BnkgAPkGZgAA+gZyAAD8BmkAAP0GZAAA/gZmAAD/BnEAAAAHIAAAAQdjAAACB2gAAAMHIAAABAdtAAAFByAAAAYHcwAABwduAQAIB2UAAAkHZQAACgdsAAALB20EAAwHIAAADQdvAAAOByAAAA8HcwAAEAdzAAARB3kAABIHYQAAEwdmAAAUB2UCABUHcwAAFgdvAAAXB18AABgHbQAAGQdvAAAaB20AABsHIAAAHAd3AAAdByAQAB4HYQAAHwdhAAAgB2cAACEHZAAAIgdhAAAjB2kAACQHbgAAJQdyAAAmB2UQACcHOgAAKAcgAAApByAAACoHdAAAKwdlEAAsB2gAACwHdAAALQdjAAAuB3QAAC8HIAAAMAd2AAAxB2EAADIHcAAAMwdyAQA0B2UQADUHIAAANgdnAAA4ByAAADkHbwAAOgdyAAA7B2kAADwHbwAAPQdlAAA+B28AAD8HbgAAQAdtAABBB2kAAEIHdAAAQwdlAABFB3IAAEYHcgAARwdkAABIB24AAEkHcwAASgdjAABLB2kAAEwHdAAATQdvAABOB2EAAE8HIAAAUAdlAABRB3QAAFIHYQAAUwdvAABUB2kAAFUHbwAAVgdkAABXB2wAAFgHZQAAWQdvAABaB3AQAFsHZAAAXAdhAABdB2UAAF4HYwAAXwdlAABgB3QAAGEHZAAAYgdhAABjB3cAAGQHZQAAZQdlAABmB2UAAGcHZwAAaAd1AABpB24AAGoHZQAAawdtAABsB3MAAG0HbgAAbgdhAABvB2kAAHAHaQAAcQd3AAByB28AAHMHcAAAdAduAAB1B3MAAHYHbgAAdwdlAAB4B2EAAHkHaQAAegdyAAB7ByAAAHwHcyAAfQdsAAB+B2UGAH8HbwAAgAdlAACBB24AAIIHIAQAgwcgAACEB2UAAIUHZQAAhgd0AACHB2YAAIgHIAAAiQdjAACKB2UAAIsHbwAAjAdfAACNB3IAAI4HIAAAjwdpAACQByAAAJEHIAAAkgdtAACTB3cAAJQHbAAAlQdlAACWB3YAAJcHaQAAmAdpAACZB3UAAJoHbQAAnAdzAgCdB24AAJ4HbgAAnwdlAAChB2YAAKIHcgAAowdzAACkB2UAAKUHZQAApgd1AACnB2sAAKgHawAAqQdvAACqB2wAAKsHcAAArAdkAACtB3QAAK8HckAAsAdyAACxB28AALIHIAAAswdjAAC0B2wAALUHYQAAtgdrAAC3B2sAALgHIAAAuQd4AAC6B2kAALsHIAAAvAdfAAC9B3MAAL4HYwAAvwdiAADAB3IAAMEHZQAAwgdjAADDB2UAAMUHcAAAxgdtAADHB2gAAMgHIAAAyQdpAADKB3QAAMsHaQAAzAdyAADOByAAAM8HZAAA0AdpAADRB3MAANMHdQAA1AdhAADVB2EAANYHZQAA1wdzAADYB2UAANkHdAAA2gdoBADdB28AAN4HcgAA3wdpAADgB3UAAOEHYQAA4gdvAADjB3QAAOQHYwAA5QdmAADmB2kAAOcHbwAA6AdsAADpB2UAAOoHZAAA6wdvAADsB28AAO0HZQAA7gdpAADvByAAAPAHbwAA8QdsAADyByAAAPMHciAA9AdjAAD1B20AAPYHIAAA9wd0AAD4B24AAPkHYQAA+gdtAAD7B3IAAPwHaQAA/QdlEAD+B2QAAP8HIAAAAQggAAACCHQAAAMIcgAABAh1AAAFCHIAAAYIaQAABwggAAAICHQAAAkIbgAACghyAAALCCAAAAwIcgAADQhuAAAOCHAAAA8IIAAAEAhzAAARCF8AABIIaQAAEwhnAgAUCHIAABUIYwAAFghvAAAXCG4QABgIZgAAGQhyAAAaCCAAABsIbwAAHAhkIAAdCG4AAB4IbQAAHwhvAAAgCHUAACEIbwAAIwhsAAAlCGEAACYIZwAAJwhkAgApCHcAACoIYwAAKwhuAAAsCHMEAC0IbwAALghkAAAuCHIAAC8IZUAAMAh4AAAxCHcAADIIdAAAMwhyAAA0CGMAADUIbgAANgh0AAA3CHQAADgIZQAAOQhpAAA6CGUAADsIZCAAPAhlAAA9CG4AAD4IbAAAPwggAABACG8AAEIIZQAAQwggAABECGQAAEUIaQAARghvAABHCCAAAEgIbgAASQhzAABKCGkAAEsIdgAATAhlAABNCHUAAE4IaQAATwhpAABQCGUAAFEIZQAAUwggAABUCGEAAFUIYQAAVQhzAABWCGEAAFcIIAAAWAhzAABZCHMEAFoIcwQAWwhyAABcCGUAAF0IbAAAXgh0BABfCGEAAGAIdAAAYQhvAABiCG8AAGMIOgAAZAhuAABlCGQAAGYIaQAAZwhwAABoCHAAAGkIdAAAagh3AABrCGwAAGwIIAAAbQh0AABuCG8AAG8IZgAAcAhlAABxCGQAAHIIIAAAcwh0AAB0CHIAAHUIYwAAdghzAAB3CGUAAHgIcgAAeQhoAAB7CG4AAHwIYQAAfQhzAAB+CG4AAH8IcAAAgAhsAACBCHIAAIIIdAAAgwhmQACECHQAAIUIcgAAhghlAACHCG0AAIgIbAAAiQhyIACKCHIgAIsIIAAAjAh0AACNCGYAAI4IdQAAjwhlAACQCGEAAJIIdAAAkwhvAACUCGYAAJUIZQAAlghkAACXCGQAAJgIdQAAmQhlAACaCG4AAJwILiAAnQhtAACeCGgAAJ8IZQAAoAhtAAChCHQAAKIIIAAAowhhAACkCGUAAKQIbQAApQhlAACmCDoAAKcIcgAAqAhiAACpCCAAAKoIYQAAqwhwAACsCGQAAK0IcwAArghmAACvCHoAALAIIAAAsQh0EACyCGUgALMIbiAAtQhmQAC2CG8AALcIZgAAuAh1AAC6CHQQALsIZUAAvAhuAAC9CHAAAL4IbwAAvwhvAADACGQAAMEIaQAAwwhlAADECGsAAMUIcwAAxgggAADHCHUAAMgIbwAAyQhlAADLCGkAAMwIbhAAzQhvAADOCGUAAM8IYQAA0AhnAADRCG8AANIIYQAA0whtAADUCHQAANUIIAAA1whyIADYCGUAANkIYQAA2ghtAADbCHIAANwIcgAA3QhkAADeCCAAAN8IYwAA4AhyIADhCG4AAOIIaQAA4wh0EADkCHQAAOUIIAAA5ghyAQDnCHQAAugIcwAA6QhsAADqCGEAAOsIbgAA7AhwAADtCGQAAO4IcAAA7whlAADwCGMAAPEIYwAA8ghzAAD1CGUAAPYIcgAA9whlAAD5CHYAAPoIIAAA+whkAAD8CGwAAP0IICAA/gh0EAD/CGkAAAAJZwAAAQlsAAACCWwAAAMJIAAABAlpAAAFCWUAAAYJYQAABwlpAAAICXIQAAkJYQAACgl2AAALCWwAAAwJcgAADQlkAAAOCXQAAA8JaAAAEAkgAAARCXQAABIJIAAAEwkgAAAUCSAAABUJcAAAFgkgAAAXCWQBABgJaAYAGQlhAAAaCXUAABsJIAAAHQlpAAAeCXkCAB8JZAAAIAlwAAAhCXkgACQJdAAAJQlpAAAmCWEAACcJbgAAKAlkAAApCW4AACoJaQAAKwlkAAAsCXIAAC0JbQAALglsAAAvCWkAADAJbQACMQlkAAAyCWcAADQJbwAANQlvAAA2CSAAADcJaQAAOAllEAA5CWQAADoJbAAAOwluAAA8CW8AAD0JIAAAPgkgIAA/CW8AAEAJdQAAQQlwAABCCWwBAEMJbwAARAllAABFCSAAAEYJaQAARwllBgBICWYAAE0JZgAATglhAABPCXIAAFIJcwAAUwl0AQBUCW0AAFUJYwAAVgk6AABWCWUAAFcJbgQAWAlpAABZCXAAAFoJbwAAWwl0AABcCW4AAF0JbgAAXglxAABfCXQAAGEJawAAYgluAABjCWMAAGQJIAAAZQlvAABmCWsAAGcJbwAAaAloAQBpCWQAAGsJcgEAbAliAABtCWUAAG4JeQAAbwktAABwCWUAAHEJbwAAcgkgAAB0CW8AAHUJZQAAdwkgAAB4CWMAAHsJdAAAfAllAAB9CWQgAH4JaQAAfwlyAACACSAAAIEJaQAAgglyAACDCWgAAIQJYQAAhQlpAACGCXEAAIcJcgAAiAlkAACJCWEAAIoJcgAAiwllEACMCToAAI8JIAAAkAloAACRCWkAAJIJZQAAkwljAACUCXQAAJUJZCAAlgluAACXCWEAAJkJaQAAmglpAACbCWUIAJwJdQAAnQlvAACeCXUAAJ8JZQAAoAlhAAChCXQAAKIJcwAAowlkAACkCXQAAKUJaAAApgluAACpCXQAAKoJbkAAqwlkAACsCWEAAK4JOgAArwlsAACxCXIAALIJYQAAswlpAAC0CXQAALUJIAAAtgkgAAC3CW4AALgJZQAAuQlvAAC6CXAAALsJaQAAvAluAAC9CSAAAL4JIAAAvwkgAADACWQAAMEJcwAAwgljAADDCW4AAMUJZQAAxglpAADHCXYAAMgJZAAAyQllAADLCXIAAMwJcyAAzQlyAADPCXIAANAJdgAA0QlmAADSCWwAANQJaQAA1QlpAADWCWkAANcJYwAA2AkuIADaCSAAANsJYQAA3AkgAADdCXIAAN8JZwAA4AlvAADhCXIAAOIJbwAA4wlkAADkCWUAAOUJdQAA5gllAADnCWUAAOgJYwAA6QloAADqCXQAAOsJawQA7AllAgDtCXIAAO8JZQAA8QlsAADyCW0AAPMJLgAA9AljAAD1CW4AAPYJdQAA9wloAAD4CXQAAPkJZBAA+glmAAD7CWEAAPwJZQAA/QlkBAD/CW4AAAAKbwAAAQptAAACCiAAAAMKdgAABAplIgAFCmwAAAYKZwAABwp1AAAICm8AAAkKIAAACgppAAALCmUAAA0KICAADgpkAAAPCnQAABAKYwAAEQpyIAASCm8AABMKaAAAFQogAAAWCmwAABcKbAAAGApjAAAaCm4AABsKdwAAHApwAAAdCiAAAB4KcgAAHwppAAAgCm8AACEKbwAAIgpoAAAjCiAAACQKbwAAJQplAAAnCmUAACgKbAAAKQogAAAqCmEAACsKYQAALApsAAAtCmwAAC4KZQAALwp0AAAwCmUAADEKZwAAMgpsAAAzCm0AADQKdAAANQpuAAA2CmcAADcKbQAAOAppAAA5Cm0AADoKZQAAOwp0AAA8Cm8AAD0KZQAAPgp2AAA/CnoAAEAKaQAAQQplAABCCngAAEMKICAARQpvAABGCnQAAEcKaQAASAphAABJCmUgAEoKbgAASwpsAABMCmwAAE0KZQAATwprAABQCnQAAFEKZQAAUgo6AABTCmgAAFQKaQAAVQpzAABWCm8AAFcKZQAAWAogAABZCmUAAFoKZBAAWwpuAABcCnkAAF0KZQIAXgphAABhCnkAAGIKdgAAYwplAABkCm8AAGUKIAAAZgpsAABnCmkAAGgKdBAAaQphAABqCiAAAGwKcgAAbQpjAABuCm4QAHAKZwAAcQpjAAByCm8AAHMKcwAAdAplAAB2CmwgAHcKbgAAeAplAAB5CnIgAHoKdgAAewpsAAB8CmMAAH4KZQAAfwpzAACACmEAAIIKbAAAgwogAACECmUAAIUKaQAAhgplAACHCmUQAIgKcwAAiQpuAACKCiAAAIsKbQAAjAplBACNCm4AAI4KYwAAjwplAACQCmUQAJEKZQAAkgp0AACTCmQAAJQKdgAAlQppAACWCm8AAJcKdAAAmApuAACZCmkAAJoKZQAAmwpyAACcCm8AAJ0KeAAAngogAACfCjoAAKAKIAAAoQppAACiCmcQAKMKIAAApApvAAClCm4BAKYKbwAApwpsAACoCiAAAKkKbgAAqgogAACrCmkAAKwKZQAArQpyAACuCmwgAK8KZQAAsQpjAACyCmUAALMKYwAAtAppAAC2CmkAALcKZQQAuAplAAC5CiAAALoKaQAAuwplAAC8CnIAAL0KIAQAvgp0AAC/Cm4AAMAKIAAAwQprAgDCCnIAAMMKcgAAxApzAADGCnMCAMcKIAAAyQprAADKCiAAAMsKaQAAzAo6AADNCnIAAM4KcAAAzwppAADQCmUAANIKcwAA0wpzAADUCm8AANUKaAAA1wogAADYCmUAANkKZAAA2gplAADbCnIAAN0KZQAA3gpzAADgCmEAAOEKYQAA4gplAADjCnYAAOQKIAAA5Qp0AADmCmwAAOcKZQAA6Ap4AADpCnoAAOoKZAAA7AogAADtCiAAAO4KYwAA7gpmAADvCmUAAPEKZxAA8gprAADzCnMAAPUKbgAA9gogAAD3CiAAAPgKaQAA+Qp6AAD6CnUAAPsKZSAA/ApzAAD9CnoAAP4KZAAA/wplAAAACyAAAAELYwAAAgt0AAADCyAgAAQLZAAABQtuAAAHC3MAAAgLZAAACgtkAAALCyAAAAwLcAAADQt0AAAOC3UAAA8LYwAAEAsgAAARC28AABMLYwAAFAtlAAAVC2QgABYLZSAAFwtsAAAYC3MAABoLZAAAGwtkAAAcC2wAAB0LZAYAHgtyAAAgC3MEACELdAAAIgtjAAAkC3IAACULZQAAJgt0AAAoC2YAACkLZQAAKgtmAAArC2MAACwLIEAALQt5IAAuC2wAAC8LOgAAMAtkEAAxCyAAADILdQAAMwttAAA0C2UAADULbwAANgtzAAA3C2UAADgLcgAAOQsgAAA6C2QAADsLdAAAPAtsAAA9C2IAAD4LbgAAPwtpAABAC2YAAEELaQAAQgtlAABDC3IAAEQLYwAARQthAABGCyAAAEcLbwAASAtjAABJC28AAEoLYQAASwttAABNC2UAAE4LIAAATwtkAgBQC3MAAFELKCAAUgtjAABTC2EAAFQLdAAAVgtmAABXC2EAAFgLIAAAWQtkAABaC3MAAFsLZQAAXAtvAABeC2EAAF8LZwAAYAtoAABhC2UAAGILZQAAYwtsAABkC28AAGULZQAAZgtzAABnC2UAAGgLdAAAaQtuAABqC3UAAGsLcwAAbgtlAABvC2gAAHALLgAAcQtvAAByC2wAAHQLbwAAdgsgAAB3C2gAAHgLbwAAeQtxAAB6CzoAAHsLbwAAfAtzBAB9C28AAH4LZSAAgQtlAACCCyAQAIQLYgAAhQtwAACGCyAAAIcLIAAAiAtuAACJC3MEAIoLbAQCiwt2AACMC28AAI0LIEAAjgsgAACPC3UAAJALbAAAkQt0AACSC2MAAJMLbwAAlAtvAACVC2MAAJYLcgAAlwtlAACYC3QAAJkLdAAAmgt1AACbC28AAJwLbQAAnQtpAACeC28AAJ8LdBAAoAtuAACiC2UAAKQLZQAApQt0AACmCyAAAKcLbwAAqAt0AACpC3QAAKoLIAAAqwt0AACsC3AAAK0LbwAArgtlAACvCyAAALALYQAAsQtsAACyC2wgALMLbwAAtAtyAAC1C3gAALYLZQAAtwsgAAC4C2gAALkLbQAAugt0AAC7C3MBALwLZAAAvQtlAAC+CyAAAL8LYwAAwAtlAADBC3IAAMILcwAAwwtlAADEC3IgAMULdQAAxgsgAAHHC3IEAMkLcgAAywthAADNC2UAAM4LcAAAzwthAADQC2kAANELIAAA1AtlAADVC24IANcLZQAA2AtlAADZC2UAANoLIAAA2wtlAADcC3IAAN0LbgAA3gt0AADfC28AAOALcAAA4QtpAADiC28AAOMLdAAA5AttAADlC3AAAOYLbAAA5wtyAADpC28AAOoLdCAA6wsgAADsC2kAAO0LbwAA7gtyAADvC2kAAPALbwAA8QthAADyC2EAAPMLdAAA9AtsAAD1C20AAPYLdAAA9wtyAAD4CyAAAPoLYQAA+wt0EAD8C3QAAP0LcgAA/gt0AAD/C2UAAAAMZQAAAQxhAAADDCAAAAQMZAQABQx3AAAGDGsAAAcMciAACAwgAAAJDGgAAAoMYwAADAxlAAAPDCAAABAMcwAAEQxlAAASDG8AABMMIAAAFAxzAgAVDGgAABYMcggAGAx4AAAZDCAAABoMKAAAGwxjAAAcDHMQAB0MbQAAHgwgAAAfDGkAACAMciAAIQx0AAAiDG8AACMMIAAAJAwgAAAlDHAAACYMbAAAJwxlAAAoDHkGACkMdAAAKwxkAAAsDG8AAC0MZgAALgxtBAAvDG8AADAMIAAAMQwgAAAyDHIAADMMaQAANAwgAAA1DG8AADYMbwAANwxlAAA4DGwAADkMZAAAOwwgAAA8DCAAAD0MeQAAPgwgAAA/DG4AAEAMYgAAQQxkAABDDGEAAEQMZQAARgxsAABHDGEAAEgMawAASQxzAABKDHQAAEsMZQAATAxuAABNDHIAAE4MYwAAUAx0AABSDGMAAFMMLSAAVAwpIABVDGEAAFcMYQAAWAxzAABZDHYAAFsMaQAAXAxuAABdDGEAAF4MbwAAXwxsAABgDGUAAGEMZCAAYwwgAABkDHIAAGUMbgAAZgwgAABoDG4AAGkMcwAAagxmAABrDHQgAGwMbwAAbQxjAABuDG4AAG8MIAAAcAxkAABxDGUAAHIMaQAAcwx3AAB0DGMAAHUMcAAAdgxjAAB3DHQAAHgMbAAAeQx1AAB6DHIAAHsMcgAAfAxvAAB9DHIAAH4McAAAfwx0AACADGgAAIEMIAAAggwgAACDDHQAAIQMaAAAhQx0AACGDGUAAIkMbAAAigx0BACLDGgAAIsMdAAAjAxlAACNDG8AAI4MIAAAjwxsAACQDGYAAJEMZQAAkgx0AACUDGUAAJUMaQAAlgwgAACXDG0AAJgMIAAAmQx0AACaDGEAAJwMbiAAnQxhAACeDDoAAJ8MYgAAoAwgAAChDG4AAKIMbgAAowxpAACkDHIAAKUMZSAApgxvAACnDCAAAKgMZRAAqQxyAACqDG0AAKsMOgAArAxhAACtDGQAAK4MbwAArww6AACwDGUAALEMdAAAsgxkAACzDGUAALQMaQAAtQxwCAC2DGUAALcMbAAAuQx1AAC6DGEAALsMIAAAvAxuIAC9DGYAAL4MbAAAvwwgAADADHQAAMEMZQQAwgx4AADDDHYAAMQMZgAAxQxlAADGDGYAAMcMYQAAyAx0AADKDGwAAMsMIBAAzAxpAADNDGwAAM4MZwAAzwxnAADQDHQAANEMZQAA0wxuAADUDGYAANYMaQAA1wx1AADYDC8AANkMZAAA2gxzBADbDGkAANwMIAAB3QwgAADeDHIAAN8MaQAA4AxkIADhDGwAAOMMZAAA5AwgAADlDHQAAOYMcgAA5wxvAADpDGEAAOoMbwAA6wxtAADsDGUBAO0MLggA7gxpAADvDGUAAPAMYQAA8QxtAADyDGEAAPMMcgAA9AxhAAD1DGwgAPcMbgAA+AxpAAD5DHQAAPoMIAAA+wxoAAD8DGQAAP0MdAAA/gxpAAD/DG4AAAANcAAAAQ0vEAACDWkAAAQNbgAABg1jAAAHDXkAAAgNcwAACg1kAAALDXMAAAwNbAAADQ1kAAAODXQAAA8NcAAAEA1pAAARDWMAABINZQAAFQ1zAAAWDXIQABcNaQAAGA1vAAAZDWkAABoNdCAAGw1sAAAdDWQQAB4NYgAAHw1oAgAgDWUAACENIAAAIg1lAAAjDWUAACQNbAAAJQ1nAAAmDSAAACgNbgAAKQ10AAAqDWEAACsNIAAALA1hAAAtDSAAAC4NIAAALw1hAAAwDW8AADENdQAAMg1lAAAzDWwAADQNYQAANQ1tAAA2DXQQADgNbAAAOQ1yAAA6DWwAADwNIAAAPg1yAABADXIAAEENbQAAQg1uAABDDXgAAEQNZQAARQ0gAABGDWUAAEcNZwAASA0gAABJDWMAAEoNdAAASw1iAABMDXAAAE0NbQAATg1zAABPDXcAAFANcAQAUQ1yAABSDWUAAFMNdAAAVA1vAABWDWUAAFcNeSAAWA1lAABZDWUAAFoNYQAAWw1yAABcDW8AAF0NdAAAXg10IABfDXMQAGANZQAAYQ1yAABiDSAAAGMNcwAAZA1oAABlDW8AAGYNbAAAZw1yAABoDWUAAGkNdAAAag1uAQBsDWEAAG0NZCAAbg1lAABvDXIAAHANZCAAcg1kIABzDXIAAHQNcgAAdQ1vAAB2DWQAAHcNaQAAeg1uAAB7DXIAAHwNbQAAfQ1oAAB+DWUAAH8NIAAAgA1lAACBDW8AAIINbQAAgw0pAACFDXQAAIcNIAAAiA15IACLDXIAAIwNaQAAjQ1yIACODWUAAI8NYQAAkA1nAACRDW8AAJINbwAAkw1hAACUDSAAAJUNaQAAlg1kIACXDWMAAJgNbwAAmQ06gACaDWkAAJsNYgAAnQ1vAACeDWUAAKANbCAAoQ1sAACiDWkAAKMNciAApA1kAAClDXIAAKYNYgAApw1uAACpDWUAAKoNcgAArA1vAACtDXUAAK4NciAArw1zIACxDXMQALINbgAAtA1lAAC1DWQAALYNbAAAtw1jAAC4DXMAALkNeQAAug1uAAC7DWYAAL8NZQAAwA1sAADBDXMEAMINbwAAww1yAADEDXMgAMUNIAAAxg0gAADHDWYAAMgNIAAAyQ06AADLDWMAAMwNZQAAzg1hAADPDXQAANANZQAA0Q1jAADSDSAgANMNawAA1A1hAADVDXYAANYNaQAA1w1yAADYDW8AANoNcyAA2w1zAADcDWEAAN0NbQAA3g0gAADfDXIAAOENZQAA4g1pAADjDWUAAOQNbwAA5Q1lAADmDSAAAOcNbAAA6A1vAADpDWYAAOoNIAAA6w0tAADsDWEAAO0NdQAA7g0gAADvDWkAAPANLQAA8Q1iAADyDXQgAPMNcwAA9A1uAAD1DW0AAPYNbAAA+A1pAAD5DWkAAPoNZQAA+w1lAAD8DXoAAP0NdAAA/g1tAAD/DSAAAAAOZSAAAQ5pAAACDi0AAAMOaQAABQ5hAAAGDmYAAAcObgAACA5sAAAJDnIAAAoOIAAACw5pAAAMDmEAAA0OLwAADg56AAAPDmMAABAOZAAAEQ5hAAASDnQAABMOZQAAFA50AAAVDmkAABYOdgAAFw5pAAAYDm8AABkOLwAAGg5vAAAbDm4AABwOcwAAHQ5uIAAeDi0AAB8OaAAAIQ5zAAAiDm0gACMOdAAAJQ5hAAAmDnQAACcOaQAAKA5jIAA=";

// src/domain/journal/wasm/lines.generated.ts
var JOURNAL_LINES_WASM = "AGFzbQEAAAABLwhgBX9/f39/AGAAAGAAAX9gA39/fAF/YAR/f39/AX9gAX8BfGABfwF/YAJ/fwF/AwwLAAECAgIDAwQFBgcEBQFwAQEBBQMBAEAGCQF/AUGQ6OAACwdTCAZtZW1vcnkCAA5leHBhbmRMaXRlcmFscwAABGluaXQAAQhoZWFwQmFzZQACBmxheW91dAADBW5hbWVzAAQKY3Vyc29yU2VlbgAFBWxpbmVzAAcKuzwL/wIBCH8gA0EANgIAIARBADYCAAJAIAFBAkgNACAAQQRqIQUgA0EEaiEGIAFBf2ohBwNAIAYgBUF/ai8AADYCACAFQQVqIQUgBkEEaiEGIAdBf2oiBw0ACwsCQCABQQFIDQAgAEF7aiEIQQAhCUEBIQYDQCAEIAlBAnQiB2ooAgAhBQJAIAlFDQAgAyAHaiIHIAcoAgAgAyAFQQJ0aigCAHI2AgAgAiAJQQh0aiACIAVBCHRqQYAC/AoAAAsCQCAGIAFODQAgCUEHdCEKIAVBB3QhCyAIIAZBBWxqIQUgBCAGQQJ0aiEAA0AgBS8AACAJRw0BIAVBAmotAAAhBwJAAkAgCQ0AQQAhDAwBCyACIAsgB2pBAXRqLwEAIQwLIAAgDDYCACACIAogB2pBAXRqIgwgBjsBAAJAIAdBn39qQf8BcUEZSw0AIAxBQGogBjsBAAsgBUEFaiEFIABBBGohACABIAZBAWoiBkcNAAsgASEGCyAJQQFqIgkgAUcNAAsLC+gCAQd/QZD8loAAQf8BQYAC/AsAQQAhAANAIABBAnRB4IiAgABqKAIAIQFBWyECQQAhAwNAIAJBJWohAiABIANqIQQgA0EBaiIFIQMgBC0AAA0AC0EAIQYCQCAFQX9qIgNBBEkNACABLQABQQVsIAEgBWpBfWotAABqIAJqIQYLIABBkP6WgABqIAM6AAAgBiEDA0AgA0H/AXEiAkEBaiEDIAJBkPyWgABqIgQtAABB/wFHDQALIAQgADoAACACQQJ0QaD+loAAaiAGNgIAIABBAWoiAEEQRw0AC0GAgH4hAwNAIANBoIaZgABq/QwAAAAAAAD4fwAAAAAAAPh//QsEACADQRBqIgMNAAtBAEKAgICAgICAeDcDoIaZgABBAEEANgKohpmAAEGwhtyAAEH/AUGAwAD8CwBBsMbcgABB/wFBwAD8CwBBAEEBNgKEi4yAAEEAQQA2Avz7loAAQQBBADYCgPyWgAALCABBkOjggAALMwEBf0GsfyEAA0AgAEHk+46AAGogAEHUiICAAGooAgA2AgAgAEEEaiIADQALQZD7joAACwgAQfD7joAACw4AIAAgASACEIaAgIAAC9YDAgF+CH9CACEDIAEhBAJAIAFBgQJIDQBCg4f0nIf2w7IUIQMgACEFIAEhBANAIAMgBTEAAIVCs4OAgIAgfiEDIAVBAWohBSAEQX9qIgQNAAtBgAIhBAtBACEGAkACQAJAQQArA6CGmYAAIAJmRQ0AIARBAUghByABQYECSCEIQbCGmoAAIQkDQAJAIAZBA3QiCkGghpeAAGorAwAgAmINACAGQQJ0QbCGmYAAaigCACABRw0AAkAgBw0AIAZBCHRBsIaagABqLQAAIAAtAABHDQFBASELAkADQCAEIAsiBUYNASAFQQFqIQsgCSAFai0AACAAIAVqLQAARg0ACwsgBSAESA0BC0EBIQsgCA0EIApBsIbagABqKQMAIANRDQQLIAlBgAJqIQkgBkEBaiIGQYAgRw0ADAILC0EAIAI5A6CGmYAAC0EAIQtBACgCqIaZgAAiBkEDdCIFQaCGl4AAaiACOQMAIAZBAnRBsIaZgABqIAE2AgAgBUGwhtqAAGogAzcDAAJAIARBAUgNACAGQQh0QbCGmoAAaiEFA0AgBSAALQAAOgAAIABBAWohACAFQQFqIQUgBEF/aiIEDQALC0EAIAZBAWpBgCBvNgKohpmAAAsgCwu1KQcOfwF7An8CfAN/AXsKfyOAgICAAEEQayIEJICAgIAAQQAgAzYC9PuWgABBACAANgLw+5aAAEEAQQA2Avj7loAAQQAhBQJAA0AgASACTg0BIAVB/x9KDQECQAJAQQAoAvz7loAAQfgPSg0AQQAoAoD8loAAQYnwB0gNAQsgBUEASg0CQbCG3IAAQf8BQYDAAPwLAEGwxtyAAEH/AUHAAPwLAEEAQQAoAoSLjIAAQQFqNgKEi4yAAEEAQQA2Avz7loAAQQBBADYCgPyWgAALQQAoAvD7loAAIQMgASEAAkADQAJAIABBEGoiBiACTA0AIAAgAk4NAgNAIAMgAGotAABBCkYNAyACIABBAWoiAEcNAAsgAiEADAILIAMgAGohByAGIQAgB/0AAAD9DAoKCgoKCgoKCgoKCgoKCgr9I/1kIgdFDQALIAdoIAZqQXBqIQALAkACQCABIABODQADQCADIAFqLQAAQSBLDQEgACABQQFqIgFHDQALIAAhBwwBCyABIQcLIABBAWohASAAIAcgACAHSBshCCADQX9qIQkCQANAIAAgB0wNASAJIABqIQYgAEF/aiIKIQAgBi0AAEEhSQ0ACyAKQQFqIQgLQQIhAAJAIAcgCEYNACAFQQJ0IgpBgIuCgABqIAMgB2oiADYCACAKQYCLg4AAaiADIAhqNgIAQQAoAvj7loAAIQkCQAJAIAAtAABB+wBHDQAgAyAIQX9qIgtqLQAAQf0ARw0AQQD9DAAAAAAAAAAAAAAAAAAAAAD9CwTwxtyAAEEBIQwgA0EBaiENQQAoAvT7loAAIQ4gCSEPAkADQAJAIAMgB0EBaiIQai0AACIGQSJGDQAgECAITg0DIAdBAmohAANAAkACQCAGQf8BcSIGQQxKDQAgBkF3akECTw0GDAELAkACQCAGQWBqDgMCBwEACyAGQQ1GDQEgBkH9AEcNBiAMIAggAEZxQQFHDQYMBQsgAEF/aiEQDAILIAggAEYNBCADIABqLQAAIQYgAEEBaiEADAALCyAQQQFqIhEhAAJAA0ACQCAAQRBqIgYgCEwNACAAIAhODQIDQCADIABqLQAAIgZBIkYNAyAGQdwARg0DIAggAEEBaiIARw0ADAYLCyADIABqIQcgBiEAIAf9AAAAIhL9DFxcXFxcXFxcXFxcXFxcXFz9IyAS/QwiIiIiIiIiIiIiIiIiIiIi/SP9UP1kIgdFDQALIAdoIAZqQXBqIQALIAAgCE4NAiADIABqLQAAQdwARg0CQX8hEwJAIAAgEEF/c2oiBkEESA0AIA0gEGoiDC0AAUEFbCAGQSVsaiAGIAxqQX5qLQAAaiIUQf8BcSIQQZD8loAAaiwAACIGQQBIDQAgACARayEHA0ACQCAQQQJ0QaD+loAAaigCACAURw0AIAcgBkH/AXEiE0GQ/paAAGotAABHDQACQAJAIAdBAU4NAEEAIQYMAQsgE0ECdEHgiICAAGooAgAhEUEAIQYDQCARIAZqLQAAIAwgBmotAABHDQEgByAGQQFqIgZHDQAMBAsLIAYgB0YNAgtBfyETIBBBAWpB/wFxIhBBkPyWgABqLAAAIgZBf0oNAAsLIABBAWoiECAITg0CAkAgAyAQai0AACIGQTpGDQAgAEECaiEAAkADQCAGQf8BcSIHQXdqIgZBF0sNAUEBIAZ0QZOAgARxRQ0BIAggAEYNBSADIABqLQAAIQYgAEEBaiEADAALCyAHQTpHDQMgAEF/aiEQCyAQQQFqIgcgCE4NAgJAIAMgB2otAAAiBkF3aiIAQRdLDQBBASAAdEGTgIAEcUUNACAQQQJqIQACQANAIAZB/wFxQXdqIgdBF0sNAUEBIAd0QZOAgARxRQ0BIAggAEYNBSADIABqLQAAIQYgAEEBaiEADAALCyAAQX9qIQcLAkACQCAGQf8BcSIAQSJHDQBBASEQIAdBAWoiDCEAA0ACQAJAIABBEGoiBiAITA0AIAAgCE4NAQNAIAMgAGotAAAiBkEiRg0CIAZB3ABGDQIgCCAAQQFqIgBHDQAMCAsLIAMgAGohByAGIQAgB/0AAAAiEv0MXFxcXFxcXFxcXFxcXFxcXP0jIBL9DCIiIiIiIiIiIiIiIiIiIiL9I/1Q/WQiB0UNASAHaCAGakFwaiEACyAAIAhODQUCQCADIABqLQAAQSJGDQBBAiEQIABBAmohAAwBCwsCQCATQQBIDQAgE0HwxtyAAGogEDoAACATQQJ0IgZBwMfcgABqIAw2AgAgBkGAx9yAAGogADYCAAsgAEEBaiEHDAELAkACQAJAIBNBf0oNACAAQdsARg0BIABB+wBGDQYgByAITg0CA0AgBkH/AXEiAEEsRg0DIABB/QBGDQMCQCALIAdHDQAgCCEHDAQLIA0gB2otAAAhBiAHQQFqIQcMAAsLAkAgAEHuAEcNACAHQQNqIgAgCE4NBiAHIANqIgZBAWotAABB9QBHDQYgBkECai0AAEHsAEcNBiADIABqLQAAQewARw0GIBNB8MbcgABqQQQ6AAAgB0EEaiEHDAMLIABB2wBHDQUgE0EDRw0FIA4gD2ohFEEAIRBBACEMIAchAAJAAkADQCAAIANqQQFqLQAAQVBqIgZBCUsNAQJAAkAgAyAAQQJqIhFqLQAAQVBqIhNBCU0NACARIQAMAQsgEyAGQQpsaiEGAkAgAyAAQQNqIhFqLQAAQVBqIhNBCU0NACARIQAMAQsgEyAGQQpsaiIGQf8BSw0CIABBBGohAAsgFCAQaiAGOgAAIAYgDHIhDCAQQQFqIRAgAyAAai0AACIGQSxGDQALIAZB3QBHDQAgACAITg0AQQAgEDYChMjcgABBACAPNgKAyNyAAEEAIAw2AojI3IAAQQAgDyAQaiIPNgL4+5aAACAAQQFqIgBBfkcNAQsgB0EBaiIAIAhODQYgDiAPaiERQX8hB0EAIQxBACEQA0ACQAJAIAMgAGotAAAiBkFQakH/AXFBCUsNAEFQIAdBCmxBUGogB0EASBsgBmoiB0H/AUwNAQwJCwJAIAZBH0oNACAGQXdqQQJJDQEgBkENRw0JDAELIAZBIEYNAAJAIAZB3QBGDQAgBkEsRw0JCwJAAkAgB0F/Sg0AIAZB3QBHDQogEA0KQQAgDzYCgMjcgABBAEEANgKEyNyAAEEAQQA2AojI3IAADAELIBEgEGogBzoAACAHIAxyIQwgEEEBaiEQQX8hByAGQd0ARw0BQQAgEDYChMjcgABBACAPNgKAyNyAAEEAIAw2AojI3IAAQQAgECAPaiIPNgL4+5aAAAsgAEEBaiEADAILIAggAEEBaiIARw0ADAcLCyAAQQBIDQVBAEEDOgDzxtyAACAAIQcMAgsgCCAHQQFqIgYgCCAGShshEyAGIQACQANAAkAgACAISA0AIAMgE2otAAAhEQwCCwJAAkAgAyAAai0AACIRQXdqIgxBF0sNAEEBIRBBASAMdEGDgIAEcQ0BCyARQQ1GIRALIABBAWohACAQDQALCyARQf8BcSIAQSJGDQQgAEHbAEYNBCAAQfsARg0EIAcgCE4NBANAIAggBkYNBSADIAZqIQAgBkEBaiIHIQYgAC0AAEHdAEcNAAsgB0F/aiAITg0ECyAHQQBIDQMLIAcgCE4NAkEAIQwCQAJAAkAgAyAHai0AACIAQR9KDQAgAEF3akECSQ0BIABBDUYNAQwCCyAAQSxGDQIgAEEgRw0BCwNAIABB/wFxQXdqIgZBF0sNAUEBIAZ0QZOAgARxRQ0BIAsgB0YNBCANIAdqLQAAIQAgB0EBaiEHDAALCyAAQf8BcSIAQSxGDQALIABB/QBHDQEgByALRw0BC0FwIQYDQAJAIAYiAEGAx9yAAGotAABBAkcNACAAQXNHDQILIABBAWoiBiAATw0ACwJAAkBBAC0A8cbcgABBAUcNAEQAAAAAAAAAACEVQQEQiICAgAAiFkQAAAAAAAAAAGNFDQEMAgtEAAAAAAAAAAAhFkQAAAAAAAAAACEVQQAtAPLG3IAAQQFHDQBEAAAAAAAAAAAhFkECEIiAgIAAIhVEAAAAAAAAAABjDQELQf8BIQ8CQEEALQD6xtyAAEEBRw0AQQAoAqjH3IAAQQAoAujH3IAAIgBrQQFHDQEgAyAAai0AACIAQUZqQf8BcUH2AUkNASAAQVBqIQ8LQQQQiYCAgAAiDv0RQQUQiYCAgAAiF/0cAUELEImAgIAAIhj9HAJBDBCJgICAACIZ/RwD/Qz+/////v////7////+////Ihr9NyIS/RsBQQFxQQF0IBL9GwBrIBL9GwJBAXFBAnRyIBL9GwNBAXFBA3RyQQ0QiYCAgAAiG/0RQQ4QiYCAgAAiHP0cAUEPEImAgIAAIh39HAJBCRCJgICAACIe/RwDIBr9NyIS/RsAQQFxQQR0ciAS/RsBQQFxQQV0ciAS/RsCQQFxQQZ0ciAS/RsDQQd0ckH/AXENAEEAIR9BASELQQAhB0EAISBBACEhQQAhBkEAISJBACEjAkACQAJAAkBBAC0A88bcgABBf2oOAwABAgMLQQAhI0EBIQZBACgCjMfcgAAiByEgQQAoAszH3IAAIh8hIUEBISJBASELDAILQQAoAvT7loAAIhRBACgC+PuWgAAiH2ohEwJAAkACQEEAKALMx9yAACIGQQAoAozH3IAAIgdIDQAgE0EKOgAAQQEhC0EAIQZBACAfQQFqNgL4+5aAAEECISIgHyEHIB8hIAwBC0EAIQxBACgC8PuWgAAhEUEAIQ0DQCATIAxqIQggESAGaiEQQQAhAAJAAkADQCAGIABqIgNBEGogB0oNASAIIABqIBAgAGr9AAAAIhL9CwAAIABBEGohACAS/QwgICAgICAgICAgICAgICAg/SYgEv0MXFxcXFxcXFxcXFxcXFxcXP0j/VD9ZCIDRQ0ACyAMIANoIghBECADG2ogAGpBcGohDCAGIAhqIABqQXBqIQMMAQsgDCAAaiEMCwJAIAMgB04NAAJAAkAgESADai0AACIAQdwARw0AIANBAWoiAyAHTg0IQQAhBgJAAkAgESADai0AACIAQdsASg0AIABBIkYNASAAQS9GDQEMCgsgAEHcAEYNAAJAIABB9ABGDQAgAEHuAEcNCkEKIQBBASEGDAELQQkhAAsgBiANaiENDAELIABBIEkNBwsgEyAMaiAAOgAAIAxBAWohDCADQQFqIgYgB0gNAQsLIBMgDGpBCjoAAEEAIAwgH2oiIEEBajYC+PuWgAAgDUEASA0EQQIhIgJAIA0NAEEAIQYgICEHDAELICAhByAUICBBf2oiAGotAABBCkcNAUEBIQtBACEGIAAhByANQQFHDQEgACEHCyAfISFBACEjDAILQQAhBkECISIgHyEhQQIhC0EAISMMAQtBACEfQQAoAoTI3IAAIgBBACgCgMjcgAAiIWohIEEDISICQEEAKAKIyNyAAEH/AEwNAEEAIQdBACEGQQMhC0EAISMMAQtBACgC9PuWgAAhBiAgIQ0CQCAAQQFIDQAgIEF/aiIAICAgBiAAai0AAEEKRhshDQtBACgC+PuWgAAhH0GAASEjAkAgDSAhTg0AQQIhC0EAIQYgHyEHDAELIAYgH2ohC0EAIRQgISEHQQAhJANAIAchAwJAIAcgDU4NACAHIQMDQCAGIANqLQAAQQpGDQEgDSADQQFqIgNHDQALIA0hAwtBfyERIBQhCCAUIQxBfyETAkAgByADTg0AQX8hE0F/IREgFCEMIBQhCANAAkACQCAGIAdqLQAAIhBBDUYNAAJAIBBBG0cNACAHQQFqIgAgA04NACAGIABqLQAAQdsARw0AIAdBAmoiACADTg0AA0ACQCAGIABqLQAAIglBUGpB/wFxQQpJDQACQCAJQUVqDgUBAAAAAQALIAlBIHJBn39qQf8BcUEaTw0CIAAhBwwECyADIABBAWoiAEcNAAsLIAsgCGogEDoAACAIQQFqIQgMAQsgCCATIAggDEoiABshEyAMIBEgABshESAIIQwLIAdBAWoiByADSA0ACwsCQCAMIBEgCCAMSiIHGyIAQQBIDQAgCCATIAcbIABrIQgCQCAAIBRGDQAgCEEBSA0AIAsgAGohACALIBRqIQcgCCEJA0AgByAALQAAOgAAIABBAWohACAHQQFqIQcgCUF/aiIJDQALCyALIAggFGoiAGpBCjoAACAkQQFqISQgAEEBaiEUCyADQQFqIQcgAyANSA0AC0EAIQZBACAUIB9qIgA2Avj7loAAIAAgJEEBRiIDayEHQQFBAiADGyELCwJAQQAtAPDG3IAAQQFHDQAgI0HAAHIgI0EAKALw+5aAAEEAKALAx9yAACIAakEAKAKAx9yAACAAayAWEIaAgIAAGyEjC0EAIQBBACEJAkBBAC0A9MbcgAAiCEEALQD1xtyAAHJB/wFxDQBBAUECQQZBqYmAgAAQioCAgAAbIQkLQQdBsImAgAAQioCAgAAhEEEIQaCJgIAAEIqAgIAAIQwgBUGA64uAAGogDzoAACAKQYCLhoAAaiAOIBcgF0EASBs2AgAgCkGAi4iAAGogHSAcIBxBAEgbNgIAIApBgIuJgABqIA42AgAgCkGAi4qAAGogHjYCACAFQYCri4AAaiAiOgAAIApBgIuHgABqIBsgGSAZQQBIGyAYIBhBAEgbNgIAQQEhAyAFQQN0QYCLgIAAaiAWIBVBAC0A8cbcgABBAUYbOQMAIAVBkNuOgABqIAs6AAAgCkGAi4SAAGpB8PuWgABB9PuWgAAgBhsoAgAiBiAhajYCACAKQYCLhYAAaiAGICBqNgIAIApBkNuMgABqIAYgH2o2AgAgCkGQ242AAGogBiAHajYCACAFQYDLi4AAaiAJICNyIgZBBHIgBiAQGyIGQQhyIAYgDBsiBkEQciAGIAhB/wFxGyIGQSByIAZBAC0A+cbcgAAbOgAADAELQQAhA0EAIAk2Avj7loAAQQMhAAsgBUGAi4uAAGogAzoAACAFQQFqIQULIABBA0cNAAsLQQAgATYCgIuMgAAgBEEQaiSAgICAACAFC4sCAgF8BH9EAAAAAAAA8L8hAQJAIABBAnQiAEGAx9yAAGooAgAiAiAAQcDH3IAAaigCACIAa0EQSg0ARAAAAAAAAAAAIQEgAiAATA0AAkACQEEAKALw+5aAACIDIABqLQAAIgRBRmpB/wFxQfYBTw0AQQEhAEQAAAAAAAAAACEBDAELIABBAWohBUQAAAAAAAAAACEBAkADQCABRAAAAAAAACRAoiAEQf8BcUFQaregIQEgAiAFIgBGDQEgAEEBaiEFIAMgAGotAAAiBEFGakH/AXFB9gFPDQALCyAAIAJIIQALRAAAAAAAAPC/IAFEAAAAAAAA8L8gAUT///////8/Q2UbIAAbIQELIAELsgUBC39BfyEBAkAgAEHwxtyAAGotAABBAUcNAEF+IQEgAEECdCIAQYDH3IAAaigCACAAQcDH3IAAaigCACICayIDQf8BSg0AQQAhBAJAAkACQAJAIABBsMbcgABqIgUoAgAiAUEASA0AIAMgAUGQy4yAAGotAABHDQAgA0EBSA0EIAFBAnRBkIuMgABqKAIAQfD7joAAaiIGLQAAQQAoAvD7loAAIAJqIgctAABHDQFBASEIAkADQCADIAgiAEYNASAAQQFqIQggBiAAai0AACAHIABqLQAARg0ACwsgACADTg0EC0EAKALw+5aAACIJIAJqIQYgA0EBTg0BQcUbIQAMAgtBACgC8PuWgAAiCSACaiEGC0HFu/KIeCEIQQAhAANAIAggBiAAai0AAHNBk4OACGwhCCADIABBAWoiAEcNAAsgCEH/H3EhAEEBIQQLAkACQCAAQQF0QbCG3IAAaiIKLgEAIgtBAEgNACALIQADQAJAIAMgAEH//wNxIgFBkMuMgABqLQAARw0AIARFDQMgAUECdEGQi4yAAGooAgBB8PuOgABqIgctAAAgBi0AAEcNAEEBIQgCQANAIAMgCCIARg0BIABBAWohCCAHIABqLQAAIAYgAGotAABGDQALCyAAIANODQMLIAFBAXRBkMjcgABqLgEAIgBBf0oNAAsLQQBBACgC/PuWgAAiAUEBajYC/PuWgAAgAUGQy4yAAGogAzoAACABQQJ0QZCLjIAAakEAKAKA/JaAACIHNgIAAkAgBEUNACAJIAJqIQAgB0Hw+46AAGohCCADIQYDQCAIIAAtAAA6AAAgAEEBaiEAIAhBAWohCCAGQX9qIgYNAAsLIAogATsBAEEAIAcgA2o2AoD8loAAIAFBAXRBkMjcgABqIAs7AQALIAUgATYCAAsgAQuoAQEEf0EAIQICQCAAQfDG3IAAai0AAEEBRw0AQQAhAkEAIQMCQAJAIABBAnQiAEGAx9yAAGooAgAgAEHAx9yAAGooAgAiAGsiBEEBSA0AQQAhA0EAKALw+5aAACAAaiEFA0AgASADai0AACIARQ0BAkAgBSADai0AACAARg0AQQAPCyAEIANBAWoiA0cNAAwCCwsgAyAERw0BCyABIARqLQAARSECCyACCwuHAwEAQYAIC/8CgAUAAICFAACAxQAAgAUBAIBFAQCAhQEAgMUBAIAFAgCARQIAgIUCAIDFAgCA1QIAgOUCAID1AgCABQMAhAUDAJAFAwCQJQMAkC0DAJBtAwCQrQMAAAAAAAAAAAAAAAAA4QQAAPwEAAARBQAAXwUAAGcFAAA+BQAAvgQAAE0FAAAyBQAAdAUAALUEAADcBAAAyQQAANMEAADqBAAALAUAAGxpbmUtbWF4AHN0ZG91dAB0cnVlAFBSSU9SSVRZAF9UUkFOU1BPUlQAVVNFUl9VTklUAF9TWVNURU1EX1VOSVQAX19DVVJTT1IAU1lTTE9HX0lERU5USUZJRVIAX19SRUFMVElNRV9USU1FU1RBTVAAX1NPVVJDRV9SRUFMVElNRV9USU1FU1RBTVAAX0NPTU0AX0xJTkVfQlJFQUsAQ09OVEFJTkVSX05BTUUAQ09OVEFJTkVSX1BBUlRJQUxfTUVTU0FHRQBDT05UQUlORVJfSUQAX1NUUkVBTV9JRAA=";

// src/domain/journal/scan.ts
import { isAscii } from "node:buffer";
var WANTED = [
  "__CURSOR",
  "__REALTIME_TIMESTAMP",
  "_SOURCE_REALTIME_TIMESTAMP",
  "MESSAGE",
  "CONTAINER_ID",
  "CONTAINER_NAME",
  "_TRANSPORT",
  "CONTAINER_PARTIAL_MESSAGE",
  "_LINE_BREAK",
  "_STREAM_ID",
  "PRIORITY",
  "UNIT",
  "USER_UNIT",
  "_SYSTEMD_UNIT",
  "SYSLOG_IDENTIFIER",
  "_COMM"
];
var F_CURSOR = 0;
var F_RT = 1;
var F_SRT = 2;
var F_MESSAGE = 3;
var F_CID = 4;
var F_CNAME = 5;
var F_TRANSPORT = 6;
var F_PARTIAL = 7;
var F_LINE_BREAK = 8;
var F_STREAM = 9;
var F_PRIORITY = 10;
var F_UNIT = 11;
var F_USER_UNIT = 12;
var F_SYSTEMD_UNIT = 13;
var F_IDENT = 14;
var F_COMM = 15;
var ABSENT = 0;
var STR = 1;
var STR_ESC = 2;
var BYTES = 3;
var NULL = 4;
var QUOTE = 34;
var BACKSLASH = 92;
var COMMA = 44;
var CLOSE = 125;
var COLON = 58;
var BRACKET_CLOSE = 93;
var KEY_BYTES = WANTED.map((k) => Buffer.from(k, "latin1"));
var TABLE = 256;
var tableHash = new Int32Array(TABLE);
var tableField = new Int8Array(TABLE).fill(-1);
var keyHash = (h, c) => Math.imul(h, 31) + c | 0;
var slotOf = (h) => (h ^ h >>> 8 ^ h >>> 16) & TABLE - 1;
KEY_BYTES.forEach((key, f) => {
  let h = 0;
  for (const c of key) h = keyHash(h, c);
  let slot = slotOf(h);
  while (tableField[slot] !== -1) slot = slot + 1 & TABLE - 1;
  tableHash[slot] = h;
  tableField[slot] = f;
});
var isSpace = (c) => c === 32 || c === 9 || c === 10 || c === 13;
var proto = Buffer.prototype;
var latin1Slice = proto.latin1Slice ?? function(a, b) {
  return this.toString("latin1", a, b);
};
var utf8Slice = proto.utf8Slice ?? function(a, b) {
  return this.toString("utf8", a, b);
};
function bytesText(buf, a, e, ascii) {
  return ascii ? latin1Slice.call(buf, a, e) : utf8Slice.call(buf, a, e);
}
var SpanScanner = class {
  buf = Buffer.alloc(0);
  /** Per wanted field: its kind and, for STR/STR_ESC, the bytes between the quotes. */
  kind = new Uint8Array(WANTED.length);
  start = new Int32Array(WANTED.length);
  end = new Int32Array(WANTED.length);
  /** A byte-array MESSAGE, decoded: valid until the next scan (copy what is kept). */
  bytes = Buffer.allocUnsafe(4096);
  bytesLength = 0;
  /** Every byte of the byte-array MESSAGE is below 0x80. */
  bytesAscii = true;
  /** Where the next backslash at or after the last string value is (-1: none left in buf). */
  nextBackslash = -2;
  /** Every byte of buf is below 0x80: a span becomes a string by a plain copy. */
  ascii = false;
  reset(buf) {
    this.buf = buf;
    this.nextBackslash = -2;
    this.ascii = isAscii(buf);
  }
  /** buf[a, e) as UTF-8 text (lossy, as Buffer's toString). */
  text(a, e) {
    return bytesText(this.buf, a, e, this.ascii);
  }
  /** Reads the object in buf[a, b) (trimmed, `{` ... `}`); false: leave the line to JSON.parse. */
  scan(a, b) {
    const s = this.buf;
    const kind = this.kind;
    for (let f = 0; f < kind.length; f++) kind[f] = ABSENT;
    let i = a + 1;
    for (let first = true; ; first = false) {
      let c = s[i];
      if (c !== QUOTE) {
        while (i < b && isSpace(s[i])) i++;
        c = s[i];
        if (c === CLOSE) return first && i === b - 1;
        if (c !== QUOTE) return false;
      }
      let ke = i + 1;
      let h = 0;
      while (ke < b && (c = s[ke]) !== QUOTE) {
        if (c === BACKSLASH) return false;
        h = keyHash(h, c);
        ke++;
      }
      if (ke >= b) return false;
      const want = this.wanted(i + 1, ke, h);
      let v = ke + 1;
      if (s[v] !== COLON) {
        while (v < b && isSpace(s[v])) v++;
        if (s[v] !== COLON) return false;
      }
      c = s[++v];
      if (isSpace(c)) {
        while (v < b && isSpace(s[v])) v++;
        c = s[v];
      }
      let next;
      if (c === QUOTE) {
        let e = s.indexOf(QUOTE, v + 1);
        while (e > 0 && e < b && s[e - 1] === BACKSLASH && escaped(s, e)) e = s.indexOf(QUOTE, e + 1);
        if (e < 0 || e >= b) return false;
        if (want >= 0) {
          let bs = this.nextBackslash;
          if (bs === -2 || bs >= 0 && bs <= v) this.nextBackslash = bs = s.indexOf(BACKSLASH, v + 1);
          this.kind[want] = bs >= 0 && bs < e ? STR_ESC : STR;
          this.start[want] = v + 1;
          this.end[want] = e;
        }
        next = e + 1;
      } else if (want < 0) {
        next = skipOther(s, v, b, c);
        if (next < 0) return false;
      } else if (c === 110 && s[v + 1] === 117 && s[v + 2] === 108 && s[v + 3] === 108) {
        this.kind[want] = NULL;
        next = v + 4;
      } else if (c === 91 && want === F_MESSAGE) {
        next = this.byteArray(v, b);
        if (next < 0) return false;
        this.kind[want] = BYTES;
      } else return false;
      c = s[next];
      if (c === COMMA) {
        i = next + 1;
        continue;
      }
      if (isSpace(c)) {
        while (next < b && isSpace(s[next])) next++;
        c = s[next];
      }
      if (c === COMMA) i = next + 1;
      else if (c === CLOSE) return next === b - 1;
      else return false;
    }
  }
  /** Index into WANTED of the key buf[k, e) whose hash is h, or -1. */
  wanted(k, e, h) {
    for (let slot = slotOf(h); ; slot = slot + 1 & TABLE - 1) {
      const f = tableField[slot];
      if (f < 0) return -1;
      if (tableHash[slot] !== h) continue;
      const key = KEY_BYTES[f];
      if (key.length !== e - k) continue;
      const s = this.buf;
      let x = 0;
      while (x < key.length && key[x] === s[k + x]) x++;
      if (x === key.length) return f;
    }
  }
  /** `[27,91,...]`, journald's form of a value with control characters: decoded into `bytes`; just past it, or -1. */
  byteArray(v, b) {
    const fast = this.compactByteArray(v, b);
    return fast !== -2 ? fast : this.spacedByteArray(v, b);
  }
  /** The compact form journalctl writes, element by element; -2: not that form (spaces, `[]`). */
  compactByteArray(v, b) {
    const s = this.buf;
    let out2 = this.bytes;
    let n = 0;
    let high = 0;
    let i = v + 1;
    for (; ; ) {
      let d = s[i] - 48;
      if (d < 0 || d > 9) return -2;
      let x = d;
      d = s[++i] - 48;
      if (d >= 0 && d <= 9) {
        x = x * 10 + d;
        d = s[++i] - 48;
        if (d >= 0 && d <= 9) {
          x = x * 10 + d;
          i++;
          if (x > 255) return -1;
        }
      }
      if (n === out2.length) out2 = this.grow(n);
      out2[n++] = x;
      high |= x;
      const c = s[i];
      if (c === COMMA) i++;
      else if (c === BRACKET_CLOSE && i < b) {
        this.bytesLength = n;
        this.bytesAscii = high < 128;
        return i + 1;
      } else return -2;
    }
  }
  grow(n) {
    const grown = Buffer.allocUnsafe(n * 2);
    this.bytes.copy(grown);
    return this.bytes = grown;
  }
  /** Any spacing, and `[]`. */
  spacedByteArray(v, b) {
    const s = this.buf;
    let n = 0;
    let cur = -1;
    let high = 0;
    let out2 = this.bytes;
    for (let i = v + 1; i < b; i++) {
      const c = s[i];
      if (c >= 48 && c <= 57) {
        cur = cur < 0 ? c - 48 : cur * 10 + (c - 48);
        if (cur > 255) return -1;
      } else if (c === COMMA || c === BRACKET_CLOSE) {
        if (cur < 0) {
          if (c !== BRACKET_CLOSE || n !== 0) return -1;
          this.bytesLength = 0;
          this.bytesAscii = true;
          return i + 1;
        }
        if (n === out2.length) out2 = this.grow(n);
        out2[n++] = cur;
        high |= cur;
        cur = -1;
        if (c === BRACKET_CLOSE) {
          this.bytesLength = n;
          this.bytesAscii = high < 128;
          return i + 1;
        }
      } else if (!isSpace(c)) return -1;
    }
    return -1;
  }
};
function skipOther(s, v, b, c) {
  if (c === 91) {
    let j2 = v + 1;
    while (j2 < b && isSpace(s[j2])) j2++;
    const d = s[j2];
    if (d === QUOTE || d === 91 || d === 123) return -1;
    const e = s.indexOf(BRACKET_CLOSE, v);
    return e < 0 || e >= b ? -1 : e + 1;
  }
  if (c === 123) return -1;
  let j = v;
  while (j < b && s[j] !== COMMA && s[j] !== CLOSE) j++;
  return j;
}
function escaped(s, e) {
  let n = 0;
  for (let i = e - 1; s[i] === BACKSLASH; i--) n++;
  return (n & 1) === 1;
}

// src/domain/journal/wasm-lines.ts
var E_SLOW = 0;
var M_NONE = 0;
var M_STR = 1;
var M_BYTES = 3;
var EM_ONE = 1;
var EM_LINES = 2;
var FL_SRC = 3;
var FL_PARTIAL = 4;
var FL_LINE_MAX = 8;
var FL_CID = 16;
var FL_SID = 32;
var FL_DUP = 64;
var FL_ASCII = 128;
var compiled = null;
var PAGE = 65536;
var PAD = 64;
var MAXE = 4096;
var LITERAL_RECORD = 5;
function expandLiterals(compact) {
  compiled ??= new WebAssembly.Module(Buffer.from(JOURNAL_LINES_WASM, "base64"));
  const x = new WebAssembly.Instance(compiled, {}).exports;
  const n = compact.length / LITERAL_RECORD + 1;
  const at = x.heapBase() + 15 & ~15;
  const fail = at + (compact.length + 15 & ~15);
  const delta2 = fail + n * 4;
  const out2 = delta2 + n * 128 * 2;
  const have = x.memory.buffer.byteLength;
  if (out2 + n * 4 > have) x.memory.grow(Math.ceil((out2 + n * 4 - have) / PAGE));
  new Uint8Array(x.memory.buffer, at, compact.length).set(compact);
  x.expandLiterals(at, n, delta2, out2, fail);
  return { delta: new Uint16Array(x.memory.buffer, delta2, n * 128), out: new Int32Array(x.memory.buffer, out2, n) };
}
var WasmLines = class {
  x;
  at;
  base;
  cap = 0;
  gen = -1;
  names = [];
  mem;
  ts;
  a;
  b;
  ms;
  me;
  cs;
  ce;
  emit;
  container;
  unit;
  ident;
  cid;
  sid;
  status;
  kind;
  flags;
  prio;
  i32;
  nameOff;
  nameLen;
  nameHeap;
  constructor() {
    compiled ??= new WebAssembly.Module(Buffer.from(JOURNAL_LINES_WASM, "base64"));
    this.x = new WebAssembly.Instance(compiled, {}).exports;
    this.x.init();
    this.base = this.x.heapBase() + 15 & ~15;
    this.at = new Uint32Array(this.x.memory.buffer, this.x.layout(), 21).slice();
    this.nameHeap = this.x.names();
    this.views();
  }
  get arenaAt() {
    return this.base + this.cap + PAD;
  }
  /** Room for n bytes of input (and as many decoded). */
  reserve(n) {
    if (n <= this.cap) return;
    const cap = Math.max(n, this.cap * 2, 1 << 16);
    const need = this.base + 2 * (cap + PAD);
    const have = this.x.memory.buffer.byteLength;
    if (need > have) this.x.memory.grow(Math.ceil((need - have) / PAGE));
    this.cap = cap;
    this.views();
  }
  /** Copies buf[a, e) in: the caller then runs lines() over [0, e - a). */
  load(buf, a, e) {
    this.reserve(e - a);
    buf.copy(this.mem, this.base, a, e);
    this.mem.fill(10, this.base + (e - a), this.base + (e - a) + PAD);
  }
  /** The lines of the loaded input from offset `from` to `end`: how many entries; resume() says where to go on. */
  run(from, end) {
    const n = this.x.lines(this.base, from, end, this.arenaAt);
    const gen = this.i32[this.at[15] >> 2];
    if (gen !== this.gen) {
      this.gen = gen;
      this.names = [];
    }
    return n;
  }
  /** The name table's generation: it starts again when full (names are ids within one). */
  get generation() {
    return this.gen;
  }
  resume() {
    return this.i32[this.at[14] >> 2];
  }
  /** An interned name (unit, container, identifier, stream), or null for -1. */
  name(id) {
    if (id < 0) return null;
    let s = this.names[id];
    if (s === void 0) {
      const off = this.nameHeap + this.nameOff[id];
      s = this.names[id] = bytesText(this.mem, off, off + this.nameLen[id], false);
    }
    return s;
  }
  /** Overlapping exports: the cursor buf[a, e) at time ts was seen already (it is kept otherwise). */
  seenCursor(buf, a, e, ts) {
    this.reserve(e - a);
    buf.copy(this.mem, this.arenaAt, a, e);
    return this.x.cursorSeen(this.arenaAt, e - a, ts) === 1;
  }
  views() {
    const m = this.x.memory.buffer;
    const at = this.at;
    this.mem = Buffer.from(m);
    this.ts = new Float64Array(m, at[0], MAXE);
    const i32 = (i) => new Int32Array(m, at[i], MAXE);
    this.a = i32(1);
    this.b = i32(2);
    this.ms = i32(3);
    this.me = i32(4);
    this.container = i32(5);
    this.unit = i32(6);
    this.ident = i32(7);
    this.cid = i32(8);
    this.sid = i32(9);
    this.cs = i32(18);
    this.ce = i32(19);
    this.emit = new Uint8Array(m, at[20], MAXE);
    this.status = new Uint8Array(m, at[10], MAXE);
    this.kind = new Uint8Array(m, at[11], MAXE);
    this.flags = new Uint8Array(m, at[12], MAXE);
    this.prio = new Int8Array(m, at[13], MAXE);
    this.i32 = new Int32Array(m);
    this.nameOff = new Uint32Array(m, at[16], 2048);
    this.nameLen = new Uint8Array(m, at[17], 2048);
  }
};

// src/domain/diagnosis/prefilter-literals.ts
var NOISE2 = 1 << 0;
var PLAN = 1 << 1;
var PHASE = 1 << 2;
var READY = 1 << 3;
var BELOW = 1 << 4;
var FAIL = 1 << 5;
var KUBE = 1 << 6;
var TRACEBACK = 1 << 7;
var SERVING = 1 << 8;
var MISC = 1 << 9;
var DIRTY = 1 << 10;
var ALL = (1 << 10) - 1;
var SERVICE = 1 << 11;
var SPEC = 1 << 12;

// src/domain/diagnosis/prefilter.ts
var { delta, out } = expandLiterals(Buffer.from(PREFILTER_TABLE, "base64"));
function groupsOf(text) {
  let s = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= SIGMA) {
      s = 0;
      continue;
    }
    s = delta[s << 7 | c];
    bits |= out[s];
  }
  return bits;
}

// src/domain/diagnosis/classify.ts
var BANNER = /^vLLM (?:API )?server version |^Starting to load model|version \d+\.\d+\.\d+\S*$/;
var MAX_EVENTS = 2e3;
var MAX_RING = 40;
var MAX_TAIL = 12;
var MAX_SPEC_PENDING = 64;
var tailText = (text) => text.length > 500 ? `${text.slice(0, 500)}\u2026` : text;
var CAUSE_WINDOW = 40;
var SERVING2 = /"(?:GET|POST) \/(?:v1\/\S+|generate) HTTP\/1\.[01]" 200\b|log_server_r: (?:done )?request: (?:GET|POST) \/v1\/\S+ \S+ 200\b/;
var RUNTIME_IDENT = /^(?:podman|docker|dockerd|conmon|crun|runc|containerd|nerdctl|kubelet|crio)$/;
var RUNTIME_WORD = /podman|docker|conmon|\bcrun\b|\brunc\b|containerd|libpod|nerdctl|kubelet|OCI runtime/i;
var STATUS_HEADER = /^\s*(?:Main PID|Process|Active): /;
var RECOVERED = /allocation failed, retrying without|retrying without pipeline parallelism/;
var BELOW2 = /* @__PURE__ */ new Set(["engine-args", "runtime-error", "unit-error", "script-error"]);
var Diagnoser = class {
  constructor(opts = {}) {
    this.opts = opts;
    this.prefilter = opts.prefilter ?? true;
  }
  opts;
  seq = 0;
  planReader = new PlanReader();
  tracebacks = new TracebackAssembler();
  events = [];
  ring = [];
  /** the last MAX_TAIL lines of any kind (engine, script, systemd), a ring: the evidence of an `unknown` */
  tail = new Array(MAX_TAIL).fill("");
  /** tail[i] is a raw line pushLine's fast path kept unparsed (quiet) */
  tailRaw = new Uint8Array(MAX_TAIL);
  /** lines ever kept in the tail (the newest is at (tailCount - 1) % MAX_TAIL) */
  tailCount = 0;
  failure = null;
  previousFailure = null;
  readySeq = null;
  /** exceptions engine processes logged after readiness, which alone are no failure (a request's) */
  servingErrors = [];
  /** where an engine first said it died after readiness (vLLM logs that line, then the traceback) */
  firstFatalSeq = null;
  /** uvicorn's line, or llama-server's `server is listening on http://…` */
  readyLine = "Application startup complete.";
  /** readiness read from answered requests, not a startup line (a tool gap then says more than "ready") */
  readyFromServing = false;
  phase = null;
  specLine = null;
  /** quiet lines holding `metrics: ` since specLine was set, raw, oldest first: the newest spec line of them wins */
  specPending = [];
  toolGap = null;
  dynamoConstant = null;
  kvEstimate = null;
  engineLines = 0;
  bootedSinceStart = false;
  engineUnit = null;
  /** a container runtime wrote or is named in the log (a bare `Error: …` line is then podman's, below) */
  runtimeSeen = false;
  /** which engine wrote the log (the first line that says): the flags a fix names */
  family = null;
  /** false: every pattern on every line (the prefilter's differential test) */
  prefilter;
  /** A decoded record: systemd's lines become unit events, everything else engine lines. */
  pushRecord(rec) {
    if (rec.container && rec.unit?.endsWith(".service")) this.engineUnit = rec.unit;
    if (rec.container || rec.identifier !== null && RUNTIME_IDENT.test(rec.identifier)) this.runtimeSeen = true;
    const fromSystemd = rec.identifier === "systemd";
    const g = fromSystemd ? 0 : this.prefilter ? groupsOf(rec.text) : ALL | SERVICE;
    const ev = fromSystemd || g & SERVICE && rec.text.includes(".service") ? unitEventOf(rec.text, { fromSystemd, unit: rec.unit, ts: rec.ts }) : null;
    if (ev) this.pushUnitEvent(ev);
    else if (!fromSystemd) this.line(rec.text, rec.container !== null, g & ~SERVICE);
    else this.pushSystemdLine(rec.text);
  }
  /** systemd's own lines that are no unit event: `Start request repeated …` variants, bad unit files. */
  pushSystemdLine(text) {
    this.keepTail(text);
    const below = belowOf(text);
    if (below) this.consider({ kind: below.kind, priority: below.priority, msg: text.trim(), seq: this.seq, below });
    this.considerHostOom(text);
  }
  /**
   * systemd saying the kernel's OOM killer ended the unit's process: the kernel's own line is not in a unit's journal.
   */
  considerHostOom(text) {
    if (HOST_OOM.test(text)) this.consider({ kind: "oom", priority: 5, msg: text.trim(), seq: this.seq });
  }
  pushUnitEvent(ev) {
    const want = this.opts.unit ?? this.engineUnit;
    if (want && ev.unit && ev.unit !== want) return;
    if (ev.kind === "started") this.newAttempt();
    this.events.push({ ...ev, seq: this.seq });
    if (this.events.length > MAX_EVENTS) this.events.shift();
    this.keepTail(ev.text);
    const below = ev.kind === "main-exited" ? belowOf(ev.text) : null;
    if (below)
      this.consider({ kind: below.kind, priority: Math.min(below.priority, 4), msg: ev.text, seq: this.seq, below });
    this.considerHostOom(ev.text);
  }
  /**
   * One line of text. `fromContainer`: written by the engine's container (conmon), so only the engine's own
   * signatures apply; the runtime's and the shell's come from the unit's stdout.
   */
  pushLine(raw, opts = {}) {
    this.line(raw, opts.fromContainer === true, this.prefilter ? groupsOf(raw) & ~SERVICE : ALL);
  }
  /**
   * pushLine, given `g0`: the pattern groups whose literals the raw line holds (prefilter.ts; ALL with the prefilter
   * off); the rest cannot match. They are the message's when cleanLine leaves the line as it is (the message is then a
   * part of it: its groups are among the raw line's).
   */
  line(raw, fromContainer, g0) {
    this.seq++;
    const clean = (g0 & DIRTY) === 0 && raw.charCodeAt(0) !== 9474;
    if (this.quiet(raw, g0)) return;
    const line = parseLine(raw);
    const msg = line.msg;
    const text = msg.trim();
    if (text === "") return;
    this.keepTail(text);
    const g = !this.prefilter ? ALL : clean ? g0 : groupsOf(msg);
    if (g & NOISE2 && isNoise(msg)) return;
    if ((g & TRACEBACK || this.tracebacks.inside) && this.tracebacks.push(raw)) return;
    const errorish = line.level === null || line.level === "ERROR" || line.level === "CRITICAL";
    const below = errorish && g & BELOW ? belowOf(msg) : null;
    if (below && (!fromContainer || below.layer === "engine")) {
      this.remember(msg.trim());
      this.consider({ kind: below.kind, priority: below.priority, msg: msg.trim(), seq: this.seq, below });
    }
    if (!this.runtimeSeen && g & MISC && RUNTIME_WORD.test(msg)) this.runtimeSeen = true;
    const mainExit = line.level === null && g & MISC && STATUS_HEADER.test(msg) ? statusHeaderEventOf(msg) : null;
    if (mainExit) this.pushUnitEvent(mainExit);
    const kube = line.level === null && g & KUBE ? kubeOf(msg) : null;
    if (kube) this.considerKube(msg.trim(), kube);
    else if (this.failure?.below?.facts.what === "kube-unschedulable" && g & KUBE && isScheduled(msg))
      this.failure = null;
    if (line.level !== null || line.proc !== null) this.engineLines++;
    if (this.family === null) {
      this.family = familyOf(raw.trim());
      if (this.family !== null) this.engineLines++;
    }
    if ((msg.includes("version") || msg.startsWith("Starting to load model")) && BANNER.test(msg)) {
      if (this.bootedSinceStart) this.newAttempt();
      this.bootedSinceStart = true;
    }
    if (g & PLAN && this.planReader.push(msg)) this.engineLines++;
    if (this.failure?.kind === "oom" && RECOVERED.test(msg)) this.failure = null;
    const phase = g & PHASE ? bootPhase(msg) : null;
    if (phase) {
      this.phase = phase;
      this.engineLines++;
    }
    if (g & READY && isReadyMarker(msg)) {
      this.readySeq = this.seq;
      this.readyLine = msg.includes("Application startup complete.") ? "Application startup complete." : msg.trim();
    } else if (this.readySeq === null && g & SERVING && SERVING2.test(msg)) {
      this.readySeq = this.seq;
      this.readyLine = msg.trim();
      this.readyFromServing = true;
    }
    if (msg.includes("metrics: ") && isSpecLine(msg)) {
      this.specLine = msg;
      this.specPending.length = 0;
    }
    if (this.toolGap === null && msg.includes("tool") && isToolConfigGap(msg)) this.toolGap = msg.trim();
    const constant = msg.includes("a constant (") ? /(?:inferred to be|specialized it to) a constant \((\d+)\)/.exec(msg) : null;
    if (constant) this.dynamoConstant = Number(constant[1]);
    const est = msg.includes("estimated maximum") ? /estimated maximum model length is ([\d,]+)/.exec(msg) : null;
    if (est) this.kvEstimate = parseNumber(est[1]);
    const match = g & FAIL ? (errorish ? peerFailureOf(msg) : null) ?? failureOf(msg, line.level) : null;
    if (match && !(this.readySeq !== null && match.priority === 3)) {
      this.remember(msg.trim());
      this.consider({ ...match, msg: msg.trim(), seq: this.seq });
      if (this.readySeq !== null && match.priority <= 2) this.firstFatalSeq ??= this.seq;
    } else if (line.level === "ERROR" || line.level === "CRITICAL") {
      this.remember(msg.trim());
      if (match) {
        this.servingErrors.push({ msg: msg.trim(), seq: this.seq });
        if (this.servingErrors.length > MAX_RING) this.servingErrors.shift();
      }
    }
  }
  /**
   * A fact Kubernetes reported about the pod, read from kubectl's JSON (kube-facts.ts), weighed like the same words
   * in kubectl's text. Pushed after the container's log, so a log line naming its cause at the same priority wins.
   */
  pushKube(line, m) {
    this.seq++;
    this.keepTail(line);
    this.considerKube(line, m);
  }
  considerKube(line, m) {
    this.remember(line);
    this.consider({ kind: m.kind, priority: m.priority, msg: line, seq: this.seq, below: m.below });
  }
  /**
   * Most lines of a long log hold no literal of any group (prefilter.ts) over the whole raw line (`g`: ALL when the
   * line is not clean or the prefilter off): for those, when no traceback is open and the engine is known, pushLine
   * would only count the line and keep it in the tail. Done here without parsing it; the tail keeps the raw line and
   * parses it only if shown. The line must end in a visible character (its message is not empty).
   */
  quiet(raw, g) {
    if (g !== 0 && g !== SPEC && (g !== SERVING || this.readySeq === null) || this.family === null || this.tracebacks.inside)
      return false;
    const last = raw.charCodeAt(raw.length - 1);
    if (!(last > 32 && last < 127)) return false;
    if (this.engineLines === 0 && hasPrefix(raw)) this.engineLines++;
    if (g === SPEC && this.specPending.push(raw) >= MAX_SPEC_PENDING) this.settleSpec();
    const at = this.tailCount++ % MAX_TAIL;
    this.tail[at] = raw;
    this.tailRaw[at] = 1;
    return true;
  }
  /** The newest pending line that is a spec-decode metrics line becomes specLine; the older ones no longer count. */
  settleSpec() {
    const p = this.specPending;
    for (let i = p.length - 1; i >= 0; i--) {
      const msg = parseLine(p[i]).msg;
      if (isSpecLine(msg)) {
        this.specLine = msg;
        break;
      }
    }
    p.length = 0;
  }
  consider(f) {
    if (outranks(f, this.failure)) this.failure = f;
  }
  keepTail(text) {
    const at = this.tailCount++ % MAX_TAIL;
    this.tail[at] = tailText(text);
    this.tailRaw[at] = 0;
  }
  finish() {
    this.settleSpec();
    const unit = this.opts.unit ?? mainUnit(this.events);
    const events = this.events.filter((e) => !unit || !e.unit || e.unit === unit);
    const ready = this.readySeq !== null && (this.failure === null || this.readySeq > this.failure.seq);
    const failure = ready ? null : this.failure ?? this.previousFailure;
    const sig = signatureOf(events, { ready, nRestarts: this.opts.nRestarts ?? 0 });
    const { attempts, startLimit } = sig;
    const stoppedAfterReady = ready && sig.stoppedAfter(this.readySeq);
    let cls;
    let decisive = null;
    let below = failure?.below ?? null;
    if (!failure && startLimit && sig.refusedStart) {
      cls = "unit-error";
      decisive = startLimit.text;
      below = {
        kind: "unit-error",
        layer: "systemd",
        priority: 5,
        facts: { what: "start-limit-hit", ...unit ? { unit } : {} }
      };
    } else if (failure && sig.loop && this.programError(failure, events)) {
      cls = "crash-loop";
      decisive = failure.msg;
      below = null;
    } else if (failure) {
      cls = failure.kind;
      decisive = failure.priority >= 3 ? failure.msg : WORKER_DIED.test(failure.msg) ? this.causeOfDeath() ?? failure.msg : this.causeOfDeath() ?? this.tracebackDecisive() ?? failure.msg;
    } else if (sig.loop) {
      cls = "crash-loop";
      decisive = sig.loopLine;
    } else if (ready && sig.exitAfter(this.readySeq) && !stoppedAfterReady) {
      cls = "container-removed";
      decisive = sig.exitAfter(this.readySeq).text;
    } else if (ready && !(this.readyFromServing && this.toolGap)) {
      cls = "ready";
      decisive = this.readyLine;
    } else if (this.toolGap) {
      cls = "tools-not-enabled";
      decisive = this.toolGap;
    } else if (sig.exitAfter(0)) {
      cls = "clean-exit";
      decisive = sig.exitAfter(0).text;
    } else if (this.engineLines > 0) {
      cls = "booting";
    } else cls = "unknown";
    const oom = cls === "oom" && decisive ? readOomGap(decisive) ?? this.oomFromRing() : null;
    const facts = {
      decisive,
      oom,
      phase: this.phase,
      attempts,
      failedExits: sig.failedExits,
      startLimit: Boolean(startLimit),
      unit,
      engine: this.family,
      kv: cls === "kv-insufficient" && decisive ? kvFacts(decisive, this.kvEstimate) : null,
      dynamo: cls === "dynamo-shape" && decisive ? { symbol: /Constraints violated \((.+?)\)!/.exec(decisive)?.[1] ?? null, constant: this.dynamoConstant } : null
    };
    const { summary, fix } = below ? belowAdvice(below, { ...unit ? { service: unit } : {}, engine: this.family }) : advice(cls, facts);
    const loopNote = failure && sig.repeated ? ` (crash loop: ${attempts.filter((a) => a.endedAt !== null).length} attempts ended)` : "";
    return {
      class: cls,
      decisive: decisive === null ? null : redactSecrets(decisive),
      plan: { ...this.planReader.plan },
      oom,
      specDecode: this.specLine === null ? null : readSpecDecode(this.specLine),
      summary: summary + loopNote,
      fix,
      evidence: this.evidence(cls).map(redactSecrets),
      phase: this.phase,
      attempts,
      compileCache: this.planReader.compileCache(),
      below,
      engine: this.family
    };
  }
  newAttempt() {
    if (this.failure) this.previousFailure = this.failure;
    this.failure = null;
    this.readySeq = null;
    this.readyFromServing = false;
    this.bootedSinceStart = false;
    this.firstFatalSeq = null;
    this.servingErrors.length = 0;
  }
  remember(line) {
    if (this.ring[this.ring.length - 1] === line) return;
    this.ring.push(line);
    if (this.ring.length > MAX_RING) this.ring.shift();
  }
  /** An engine dying after readiness: the first exception logged around where it first said so is the cause. */
  causeOfDeath() {
    const at = this.firstFatalSeq;
    if (at === null) return null;
    return this.servingErrors.find((e) => Math.abs(e.seq - at) <= CAUSE_WINDOW)?.msg ?? null;
  }
  tracebackDecisive() {
    return this.tracebacks.last ? decisiveOf(this.tracebacks.last) : null;
  }
  /**
   * A bare `Error: …` line (podman's catch-all, GENERIC_RUNTIME in below-engine.ts) in a log where no container runtime
   * appears, above a unit exit that is not a runtime's own (podman and docker exit 125-127 for their errors): a
   * program under systemd that prints its errors that way (Go's convention, e.g. Ollama), not podman.
   */
  programError(failure, events) {
    if (failure.below?.facts.what !== "runtime" || this.runtimeSeen) return false;
    const exit = [...events].reverse().find((e) => e.kind === "main-exited");
    const status = exit?.status ?? null;
    return status !== null && (status < 125 || status > 127);
  }
  oomFromRing() {
    for (let i = this.ring.length - 1; i >= 0; i--) {
      const gap = readOomGap(this.ring[i]);
      if (gap) return gap;
    }
    for (let n = this.tailCount - 1; n >= Math.max(0, this.tailCount - MAX_TAIL); n--) {
      const t = this.tail[n % MAX_TAIL];
      const gap = readOomGap(this.tailRaw[n % MAX_TAIL] ? parseLine(t).msg : t);
      if (gap) return gap;
    }
    return null;
  }
  evidence(cls) {
    if (cls === "ready" || cls === "booting") return [];
    if (cls === "unknown") {
      const out3 = [];
      for (let n = Math.max(0, this.tailCount - MAX_TAIL); n < this.tailCount; n++) {
        const t = this.tail[n % MAX_TAIL];
        out3.push(this.tailRaw[n % MAX_TAIL] ? tailText(parseLine(t).msg.trim()) : t);
      }
      return out3;
    }
    if (BELOW2.has(cls)) return [...this.ring.slice(-6), ...this.events.slice(-4).map((e) => e.text)];
    const tb = this.tracebacks.last?.content ?? [];
    const lines = tb.length > 0 ? tb : this.ring;
    const out2 = lines.slice(-12);
    const unitLines = this.events.slice(-8).map((e) => e.text);
    return cls === "crash-loop" || cls === "clean-exit" || cls === "container-removed" ? [...out2, ...unitLines] : out2;
  }
};
function kvFacts(line, estimate) {
  const m = /\(([\d.]+) Gi?B KV cache is needed, which is larger than the available KV cache memory \(([\d.]+) Gi?B\)/.exec(
    line
  );
  const v0 = /max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV cache \((\d+)\)/.exec(
    line
  );
  return {
    neededGiB: parseNumber(m?.[1]),
    availableGiB: parseNumber(m?.[2]),
    estimatedMaxLen: estimate,
    maxModelLen: parseNumber(v0?.[1]),
    capacityTokens: parseNumber(v0?.[2])
  };
}

// src/domain/journal/decoder.ts
import { isAscii as isAscii2 } from "node:buffer";

// src/domain/journal/head.ts
var CONTAINER = 0;
var STDOUT = 1;
var OTHER = 2;
function emptyHead() {
  return {
    cursor: null,
    cursorTs: 0,
    ts: 0,
    priority: null,
    container: null,
    unit: null,
    identifier: null,
    src: OTHER,
    partial: false,
    lineMax: false,
    cidPresent: false,
    cid: null,
    sidPresent: false,
    sid: null
  };
}
function str(v) {
  return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? v[0] : null;
}
function spanStr(sc, f) {
  const k = sc.kind[f];
  if (k === STR) return sc.text(sc.start[f], sc.end[f]);
  if (k === STR_ESC) return JSON.parse(sc.text(sc.start[f] - 1, sc.end[f] + 1));
  return null;
}
function spanIs(sc, f, lit) {
  const k = sc.kind[f];
  if (k === STR) return sameBytes(sc.buf, sc.start[f], sc.end[f], lit);
  return k === STR_ESC && spanStr(sc, f) === lit.toString("utf8");
}
function sameBytes(buf, a, e, lit) {
  if (e - a !== lit.length) return false;
  for (let i = 0; i < lit.length; i++) if (buf[a + i] !== lit[i]) return false;
  return true;
}
var STDOUT_BYTES = Buffer.from("stdout");
var TRUE_BYTES = Buffer.from("true");
var LINE_MAX_BYTES = Buffer.from("line-max");
var SLOTS = 8;
var Interner = class {
  bytes = [];
  strings = [];
  next = [];
  get(sc, f) {
    if (sc.kind[f] !== STR) return spanStr(sc, f);
    const a = sc.start[f];
    const e = sc.end[f];
    const held = this.bytes[f] ??= [];
    for (let i = 0; i < held.length; i++) if (sameBytes(sc.buf, a, e, held[i])) return this.strings[f][i];
    const strings = this.strings[f] ??= [];
    const at = held.length < SLOTS ? held.length : this.next[f] = ((this.next[f] ?? 0) + 1) % SLOTS;
    held[at] = Buffer.from(sc.buf.subarray(a, e));
    return strings[at] = sc.text(a, e);
  }
};
function spanNumber(sc, f) {
  if (sc.kind[f] === STR) {
    const s = sc.buf;
    const a = sc.start[f];
    const e = sc.end[f];
    if (e > a && e - a <= 16) {
      let n = 0;
      let i = a;
      for (; i < e; i++) {
        const c = s[i] - 48;
        if (c < 0 || c > 9) break;
        n = n * 10 + c;
      }
      if (i === e && n <= Number.MAX_SAFE_INTEGER) return n;
    }
  }
  return Number(spanStr(sc, f));
}
function headFromSpans(sc, h, intern) {
  const k = sc.kind;
  h.cursor = null;
  const rt = k[F_RT] === STR || k[F_RT] === STR_ESC;
  h.cursorTs = rt ? spanNumber(sc, F_RT) || 0 : 0;
  h.ts = rt ? h.cursorTs : k[F_SRT] === STR || k[F_SRT] === STR_ESC ? spanNumber(sc, F_SRT) || 0 : 0;
  if (k[F_PRIORITY] === STR && sc.end[F_PRIORITY] - sc.start[F_PRIORITY] === 1) {
    const d = sc.buf[sc.start[F_PRIORITY]] - 48;
    h.priority = d >= 0 && d <= 9 ? d : Number(spanStr(sc, F_PRIORITY));
  } else {
    const p = spanStr(sc, F_PRIORITY);
    h.priority = p === null ? null : Number(p);
  }
  h.cid = intern.get(sc, F_CID);
  h.container = intern.get(sc, F_CNAME) ?? h.cid;
  h.unit = intern.get(sc, F_UNIT) ?? intern.get(sc, F_USER_UNIT) ?? intern.get(sc, F_SYSTEMD_UNIT);
  h.identifier = intern.get(sc, F_IDENT) ?? intern.get(sc, F_COMM);
  h.cidPresent = k[F_CID] !== ABSENT;
  h.sidPresent = k[F_STREAM] !== ABSENT;
  h.sid = h.sidPresent ? intern.get(sc, F_STREAM) : null;
  h.src = h.cidPresent || k[F_CNAME] !== ABSENT ? CONTAINER : spanIs(sc, F_TRANSPORT, STDOUT_BYTES) ? STDOUT : OTHER;
  h.partial = spanIs(sc, F_PARTIAL, TRUE_BYTES);
  h.lineMax = spanIs(sc, F_LINE_BREAK, LINE_MAX_BYTES);
}
function headFromObject(raw, h) {
  h.cursor = typeof raw.__CURSOR === "string" ? raw.__CURSOR : null;
  h.cursorTs = Number(raw.__REALTIME_TIMESTAMP) || 0;
  h.ts = Number(str(raw.__REALTIME_TIMESTAMP) ?? str(raw._SOURCE_REALTIME_TIMESTAMP) ?? 0) || 0;
  const p = str(raw.PRIORITY);
  h.priority = p === null ? null : Number(p);
  h.cid = str(raw.CONTAINER_ID);
  h.container = str(raw.CONTAINER_NAME) ?? h.cid;
  h.unit = str(raw.UNIT) ?? str(raw.USER_UNIT) ?? str(raw._SYSTEMD_UNIT);
  h.identifier = str(raw.SYSLOG_IDENTIFIER) ?? str(raw._COMM);
  h.cidPresent = raw.CONTAINER_ID !== void 0;
  h.sidPresent = raw._STREAM_ID !== void 0;
  h.sid = str(raw._STREAM_ID);
  h.src = h.cidPresent || raw.CONTAINER_NAME !== void 0 ? CONTAINER : raw._TRANSPORT === "stdout" ? STDOUT : OTHER;
  h.partial = raw.CONTAINER_PARTIAL_MESSAGE === "true";
  h.lineMax = raw._LINE_BREAK === "line-max";
}

// src/domain/journal/pieces.ts
var MAX_PARTIAL_BYTES = 1 << 20;
var sameId = (a, b) => a === b || (a === null ? b === "null" : b === null && a === "null");
function copyHead(to, from) {
  to.cursor = from.cursor;
  to.cursorTs = from.cursorTs;
  to.ts = from.ts;
  to.priority = from.priority;
  to.container = from.container;
  to.unit = from.unit;
  to.identifier = from.identifier;
  to.src = from.src;
  to.partial = from.partial;
  to.lineMax = from.lineMax;
  to.cidPresent = from.cidPresent;
  to.cid = from.cid;
  to.sidPresent = from.sidPresent;
  to.sid = from.sid;
}
var Pieces = class {
  joined = 0;
  /** After take() returned true: emit buf[start, end) now (valid until the next take), under head's fields. */
  head;
  buf;
  start = 0;
  end = 0;
  /** The bytes to emit are the ones passed in (not a joined message): the caller's ASCII knowledge holds. */
  ascii = false;
  held = [];
  spare = [];
  get size() {
    return this.held.length;
  }
  /** A piece of this record's container or stream is held: the record ends it. */
  holds(h) {
    return this.find(true, h.cid) >= 0 || this.find(false, h.sid) >= 0;
  }
  /** One record's MESSAGE, buf[a, e) (copied when held). True: emit buf/start/end now. */
  take(h, buf, a, e) {
    const keyed = h.cidPresent || h.sidPresent;
    const id = h.cidPresent ? h.cid : h.sid;
    const at = keyed ? this.find(h.cidPresent, id) : -1;
    if ((h.partial || h.lineMax) && keyed) {
      if (at < 0) {
        const p2 = this.spare.pop() ?? {
          container: false,
          id: null,
          head: { ...h },
          bytes: Buffer.allocUnsafe(4096),
          size: 0
        };
        p2.container = h.cidPresent;
        p2.id = id;
        copyHead(p2.head, h);
        p2.size = 0;
        this.append(p2, buf, a, e);
        this.held.push(p2);
        return false;
      }
      const p = this.held[at];
      this.append(p, buf, a, e);
      this.joined++;
      return p.size < MAX_PARTIAL_BYTES ? false : this.release(at);
    }
    if (at >= 0) {
      this.append(this.held[at], buf, a, e);
      this.joined++;
      return this.release(at);
    }
    this.head = h;
    this.buf = buf;
    this.start = a;
    this.end = e;
    this.ascii = true;
    return true;
  }
  /** End of input: every held message as it stands, oldest first. */
  *rest() {
    while (this.held.length > 0) {
      this.release(0);
      yield { head: this.head, bytes: this.buf.subarray(this.start, this.end) };
    }
  }
  find(container, id) {
    for (let i = 0; i < this.held.length; i++)
      if (this.held[i].container === container && sameId(this.held[i].id, id)) return i;
    return -1;
  }
  release(at) {
    const p = at === this.held.length - 1 ? this.held.pop() : this.held.splice(at, 1)[0];
    this.head = p.head;
    this.buf = p.bytes;
    this.start = 0;
    this.end = p.size;
    this.ascii = false;
    if (this.spare.length < 8) this.spare.push(p);
    return true;
  }
  append(p, buf, a, e) {
    const need = p.size + (e - a);
    if (need > p.bytes.length) {
      const grown = Buffer.allocUnsafe(need * 2);
      p.bytes.copy(grown, 0, 0, p.size);
      p.bytes = grown;
    }
    p.bytes.set(buf.subarray(a, e), p.size);
    p.size = need;
  }
};

// src/domain/journal/unescape.ts
var BACKSLASH2 = 92;
var SIMPLE = new Int16Array(128).fill(-1);
SIMPLE[34] = 34;
SIMPLE[92] = 92;
SIMPLE[47] = 47;
SIMPLE[110] = 10;
SIMPLE[116] = 9;
function unescapeSimple(src, a, e, out2) {
  let n = 0;
  for (let i = a; i < e; i++) {
    let c = src[i];
    if (c === BACKSLASH2) {
      const x = src[++i];
      c = x < 128 && i < e ? SIMPLE[x] : -1;
      if (c < 0) return -1;
    } else if (c < 32) return -1;
    out2[n++] = c;
  }
  return n;
}

// src/domain/journal/twins.ts
var WAITING = 0;
var PAIRED = 1;
var TwinWindow = class {
  duplicates = 0;
  recs = new Array(1024);
  src = new Uint8Array(1024);
  state = new Uint8Array(1024);
  mask = 1023;
  /** Numbers of the oldest held line and of the next one. */
  first = 0;
  next = 0;
  /**
   * Numbers of the unpaired lines per source (CONTAINER, STDOUT), oldest first. Twins arrive close
   * together, so the oldest equal text is found by a short walk; paired and emitted lines are dropped
   * from the front, which keeps each list within the window.
   */
  unpaired = [[], []];
  unpairedHead = [0, 0];
  /** One line under h's fields: a twin's second copy only marks the first (no record is made of it). */
  add(h, text, src) {
    if (src !== OTHER) {
      const twin = this.takeTwin(1 - src, text);
      if (twin) {
        if (src === CONTAINER) {
          twin.container = h.container;
          twin.identifier = h.identifier;
          twin.priority = h.priority;
        }
        this.duplicates++;
        return;
      }
    }
    const rec = {
      ts: h.ts,
      priority: h.priority,
      container: h.container,
      unit: h.unit,
      identifier: h.identifier,
      text
    };
    if (this.next - this.first > this.mask) this.grow();
    const slot = this.next & this.mask;
    this.recs[slot] = rec;
    this.src[slot] = src;
    this.state[slot] = WAITING;
    if (src !== OTHER) this.unpaired[src].push(this.next);
    this.next++;
  }
  /** Emits all but the newest `keep` lines, oldest first. */
  drain(keep, out2) {
    while (this.next - this.first > keep) {
      const slot = this.first & this.mask;
      out2.push(this.recs[slot]);
      this.recs[slot] = void 0;
      this.first++;
      const src = this.src[slot];
      if (src !== OTHER && this.state[slot] === WAITING) this.skipStale(src);
    }
  }
  /** The oldest unpaired line of `src` with this text, marked paired. */
  takeTwin(src, text) {
    const list = this.unpaired[src];
    for (let i = this.unpairedHead[src]; i < list.length; i++) {
      const n = list[i];
      if (n < this.first) continue;
      const slot = n & this.mask;
      if (this.state[slot] === WAITING && this.recs[slot].text === text) {
        this.state[slot] = PAIRED;
        this.skipStale(src);
        return this.recs[slot];
      }
    }
    return null;
  }
  skipStale(src) {
    const list = this.unpaired[src];
    let h = this.unpairedHead[src];
    while (h < list.length && (list[h] < this.first || this.state[list[h] & this.mask] === PAIRED)) h++;
    if (h > 1024) {
      list.splice(0, h);
      h = 0;
    }
    this.unpairedHead[src] = h;
  }
  /** A message of more lines than the ring holds: double it, keeping each line's number. */
  grow() {
    const size = (this.mask + 1) * 2;
    const recs = new Array(size);
    const src = new Uint8Array(size);
    const state = new Uint8Array(size);
    for (let n = this.first; n < this.next; n++) {
      const from = n & this.mask;
      const to = n & size - 1;
      recs[to] = this.recs[from];
      src[to] = this.src[from];
      state[to] = this.state[from];
    }
    this.recs = recs;
    this.src = src;
    this.state = state;
    this.mask = size - 1;
  }
};

// src/domain/journal/decoder.ts
var WINDOW = 256;
var MAX_LINE_BYTES = 4 << 20;
var RUN_BYTES = 1 << 20;
function messageBytes(value) {
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (Array.isArray(value)) {
    if (value.length === 0) return Buffer.alloc(0);
    if (typeof value[0] !== "number") return messageBytes(value[value.length - 1]);
    return Buffer.from(value);
  }
  return null;
}
var JournalDecoder = class {
  stats = {
    records: 0,
    malformed: 0,
    truncatedNull: 0,
    podmanDuplicates: 0,
    cursorDuplicates: 0,
    joinedPieces: 0
  };
  pieces = new Pieces();
  window = new TwinWindow();
  /** The per-line work (fields, head, MESSAGE bytes, cursors) in WebAssembly; lines it leaves are read here. */
  wasm = new WasmLines();
  head = emptyHead();
  scanner = new SpanScanner();
  intern = new Interner();
  /** The start of a line still without its newline, in tail[0, tailLength). */
  tail = Buffer.alloc(0);
  tailLength = 0;
  /** This line's MESSAGE with its escapes undone, escaped[0, escapedLength); -1: it is in escapedText. */
  escaped = Buffer.allocUnsafe(4096);
  escapedLength = -1;
  escapedText = "";
  /** One JSON line. */
  push(jsonLine) {
    const out2 = [];
    const buf = Buffer.from(jsonLine, "utf8");
    this.scanner.reset(buf);
    this.line(buf, 0, buf.length, out2);
    return out2;
  }
  /** A text of whole lines. */
  pushText(text, out2 = []) {
    this.lines(Buffer.from(text, "utf8"), 0, -1, out2);
    return out2;
  }
  /**
   * Raw bytes as read (any cut): whole lines are decoded in place, the rest waits for the next call. Lines
   * are cut at newline bytes, so no UTF-8 character is split.
   */
  pushBytes(chunk, out2 = []) {
    let from = 0;
    if (this.tailLength > 0) {
      const nl = chunk.indexOf(10);
      this.hold(nl < 0 ? chunk : chunk.subarray(0, nl));
      if (nl < 0) {
        if (this.tailLength > MAX_LINE_BYTES) this.overlong(out2);
        return out2;
      }
      const first = this.tail.subarray(0, this.tailLength);
      this.tailLength = 0;
      this.lines(first, 0, first.length, out2);
      from = nl + 1;
    }
    const cut = chunk.lastIndexOf(10);
    if (cut >= from) this.lines(chunk, from, cut, out2);
    const rest = Math.max(cut + 1, from);
    if (rest < chunk.length) {
      this.hold(chunk.subarray(rest));
      if (this.tailLength > MAX_LINE_BYTES) this.overlong(out2);
    }
    return out2;
  }
  hold(piece) {
    const need = this.tailLength + piece.length;
    if (need > this.tail.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.tail.length * 2, 4096));
      this.tail.copy(grown, 0, 0, this.tailLength);
      this.tail = grown;
    }
    piece.copy(this.tail, this.tailLength);
    this.tailLength = need;
  }
  /** A line that never ends is not held: its piece goes through as a line (malformed JSON, counted). */
  overlong(out2) {
    const piece = Buffer.from(this.tail.subarray(0, this.tailLength));
    this.tailLength = 0;
    this.lines(piece, 0, piece.length, out2);
  }
  /** The lines of buf[a, b) (b = -1: to the end), in runs of about RUN_BYTES cut after a newline. */
  lines(buf, a, b, out2) {
    const end = b < 0 ? buf.length : b;
    while (a < end) {
      let e = end;
      if (e - a > RUN_BYTES) {
        const nl = buf.lastIndexOf(10, a + RUN_BYTES - 1);
        const far = nl >= a ? nl : buf.indexOf(10, a + RUN_BYTES);
        e = far < 0 || far >= end ? end : far + 1;
      }
      this.run(buf, a, e, out2);
      a = e;
    }
  }
  /** One run: the WebAssembly half reads its lines; what it leaves (SLOW) is read by line(), in order. */
  run(buf, a, e, out2) {
    const w = this.wasm;
    const ascii = isAscii2(buf.subarray(a, e));
    w.load(buf, a, e);
    for (let from = 0, n = e - a; from < n; from = w.resume()) {
      const count = w.run(from, n);
      for (let i = 0; i < count; i++) {
        if (w.status[i] === E_SLOW) {
          const line = Buffer.from(w.mem.subarray(w.a[i], w.b[i]));
          this.scanner.reset(line);
          this.line(line, 0, line.length, out2);
        } else this.fast(w, i, ascii, out2);
      }
    }
  }
  /** A line the WebAssembly half read whole: the same steps as line() from its results. */
  fast(w, i, ascii, out2) {
    this.stats.records++;
    const fl = w.flags[i];
    if ((fl & FL_DUP) !== 0) {
      this.stats.cursorDuplicates++;
      return;
    }
    const h = this.head;
    h.ts = w.ts[i];
    const p = w.prio[i];
    h.priority = p < 0 ? null : p;
    h.container = w.name(w.container[i]);
    h.unit = w.name(w.unit[i]);
    h.identifier = w.name(w.ident[i]);
    h.cid = w.name(w.cid[i]);
    h.sid = w.name(w.sid[i]);
    h.cidPresent = (fl & FL_CID) !== 0;
    h.sidPresent = (fl & FL_SID) !== 0;
    h.src = fl & FL_SRC;
    h.partial = (fl & FL_PARTIAL) !== 0;
    h.lineMax = (fl & FL_LINE_MAX) !== 0;
    const joining = h.partial || h.lineMax || this.pieces.size > 0 && this.pieces.holds(h);
    const kind = w.kind[i];
    if (kind === M_NONE) {
      this.stats.truncatedNull++;
      return;
    }
    const textAscii = kind === M_BYTES ? (fl & FL_ASCII) !== 0 : ascii;
    if (joining) {
      if (kind === M_STR && !ascii) {
        const bytes = Buffer.from(bytesText(w.mem, w.ms[i], w.me[i], false), "utf8");
        this.join(h, bytes, 0, bytes.length);
      } else this.join(h, w.mem, w.ms[i], w.me[i], textAscii);
    } else {
      const emit = w.emit[i];
      if (emit === EM_ONE) this.emitLine(h, bytesText(w.mem, w.cs[i], w.ce[i], textAscii));
      else if (emit === EM_LINES) this.emitBytes(h, w.mem, w.cs[i], w.ce[i], textAscii);
      else this.emitMessage(h, bytesText(w.mem, w.ms[i], w.me[i], false));
    }
    this.window.drain(WINDOW, out2);
    this.stats.podmanDuplicates = this.window.duplicates;
  }
  line(buf, a, b, out2) {
    while (a < b && buf[a] <= 32) a++;
    while (b > a && buf[b - 1] <= 32) b--;
    if (a === b) return;
    const sc = this.scanner;
    const h = this.head;
    let raw = null;
    let kind;
    if (buf[a] === 123 && buf[b - 1] === 125 && sc.scan(a, b)) {
      kind = sc.kind[F_MESSAGE];
      if (!this.spanHead(kind)) {
        this.stats.malformed++;
        return;
      }
    } else {
      try {
        const v = JSON.parse(buf.toString("utf8", a, b).trim());
        raw = typeof v === "object" && v !== null ? v : {};
      } catch {
        this.stats.malformed++;
        return;
      }
      headFromObject(raw, h);
      kind = typeof raw.MESSAGE === "string" ? STR_ESC : 0;
    }
    this.stats.records++;
    if (raw === null ? this.seenSpanCursor(h.cursorTs) : h.cursor !== null && this.seenCursorString(h.cursor, h.cursorTs)) {
      this.stats.cursorDuplicates++;
      return;
    }
    const joining = h.partial || h.lineMax || this.pieces.size > 0 && this.pieces.holds(h);
    if (kind === STR && !joining) {
      this.emitLine(h, sc.text(sc.start[F_MESSAGE], sc.end[F_MESSAGE]));
    } else if (kind === STR_ESC && !joining) {
      if (raw !== null) this.emitMessage(h, raw.MESSAGE);
      else if (this.escapedLength >= 0) this.emitBytes(h, this.escaped, 0, this.escapedLength, sc.ascii);
      else this.emitMessage(h, this.escapedText);
    } else if (kind === BYTES && !joining) {
      this.emitMessage(h, bytesText(sc.bytes, 0, sc.bytesLength, sc.bytesAscii));
    } else if (!this.joinMessage(h, raw, kind)) {
      this.stats.truncatedNull++;
      return;
    }
    this.window.drain(WINDOW, out2);
    this.stats.podmanDuplicates = this.window.duplicates;
  }
  /**
   * The record's fields from the scanner's spans, escaped ones decoded (MESSAGE into `escaped`, or
   * `escapedText` for the escapes unescapeSimple leaves). False: a string JSON.parse refuses (a raw
   * control character, which journalctl never writes): the line is malformed, as JSON.parse of it says.
   */
  spanHead(kind) {
    const sc = this.scanner;
    try {
      headFromSpans(sc, this.head, this.intern);
      if (sc.kind[F_CURSOR] === STR_ESC) this.head.cursor = spanStr(sc, F_CURSOR);
      if (kind === STR_ESC) {
        const a = sc.start[F_MESSAGE];
        const e = sc.end[F_MESSAGE];
        if (this.escaped.length < e - a) this.escaped = Buffer.allocUnsafe(Math.max(e - a, this.escaped.length * 2));
        this.escapedLength = unescapeSimple(sc.buf, a, e, this.escaped);
        if (this.escapedLength < 0) this.escapedText = spanStr(sc, F_MESSAGE);
      }
      return true;
    } catch (err) {
      if (err instanceof SyntaxError) return false;
      throw err;
    }
  }
  /** MESSAGE as bytes to the joiner; false when it has none (null, absent, not a string or byte array). */
  joinMessage(h, raw, kind) {
    const sc = this.scanner;
    if (raw !== null) {
      const bytes = messageBytes(raw.MESSAGE);
      if (bytes !== null) this.join(h, bytes, 0, bytes.length);
      return bytes !== null;
    }
    if (kind === BYTES) this.join(h, sc.bytes, 0, sc.bytesLength, sc.bytesAscii);
    else if (kind === STR && sc.ascii)
      this.join(h, sc.buf, sc.start[F_MESSAGE], sc.end[F_MESSAGE], true);
    else if (kind === STR_ESC && this.escapedLength >= 0) this.join(h, this.escaped, 0, this.escapedLength, sc.ascii);
    else if (kind === STR || kind === STR_ESC) {
      const bytes = Buffer.from(kind === STR ? spanStr(sc, F_MESSAGE) : this.escapedText, "utf8");
      this.join(h, bytes, 0, bytes.length);
    } else return false;
    return true;
  }
  /** One piece of a message cut by conmon or journald: held, or joined and emitted. */
  join(h, buf, a, e, ascii = false) {
    const p = this.pieces;
    if (p.take(h, buf, a, e)) this.emitMessage(p.head, bytesText(p.buf, p.start, p.end, p.ascii && ascii));
    this.stats.joinedPieces = p.joined;
  }
  seenSpanCursor(ts) {
    const sc = this.scanner;
    const k = sc.kind[F_CURSOR];
    if (k === STR) return this.wasm.seenCursor(sc.buf, sc.start[F_CURSOR], sc.end[F_CURSOR], ts);
    return k === STR_ESC && this.seenCursorString(this.head.cursor, ts);
  }
  seenCursorString(cursor, ts) {
    const bytes = Buffer.from(cursor, "utf8");
    return this.wasm.seenCursor(bytes, 0, bytes.length, ts);
  }
  /** End of input: everything still held back. */
  flush() {
    const out2 = [];
    if (this.tailLength > 0) {
      const last = Buffer.from(this.tail.subarray(0, this.tailLength));
      this.tailLength = 0;
      this.lines(last, 0, last.length, out2);
    }
    for (const p of this.pieces.rest()) this.emitMessage(p.head, p.bytes.toString("utf8"));
    this.window.drain(0, out2);
    this.stats.podmanDuplicates = this.window.duplicates;
    return out2;
  }
  /** A decoded MESSAGE: one record per physical line, each cleaned as a terminal shows it. */
  emitMessage(h, decoded) {
    let text = decoded;
    if (text.endsWith("\n")) text = text.slice(0, -1);
    let a = 0;
    for (; ; ) {
      const nl = text.indexOf("\n", a);
      this.emitLine(h, cleanLine(nl < 0 && a === 0 ? text : text.slice(a, nl < 0 ? text.length : nl)));
      if (nl < 0) break;
      a = nl + 1;
    }
  }
  /** A decoded MESSAGE's bytes s[from, n) holding no control byte but \n and \t: emitMessage without cleaning. */
  emitBytes(h, s, from, n, ascii) {
    const end = n > from && s[n - 1] === 10 ? n - 1 : n;
    for (let a = from; a < end; ) {
      let nl = s.indexOf(10, a);
      if (nl < 0 || nl > end) nl = end;
      if (nl > a) this.emitLine(h, bytesText(s, a, nl, ascii));
      a = nl + 1;
    }
  }
  /** One clean line (empty ones are dropped). */
  emitLine(h, line) {
    if (line === "") return;
    this.window.add(h, line, h.src);
  }
};

export {
  isToolConfigGap,
  checkThinking,
  checkTools,
  messageOf,
  bootPhase,
  isReadyMarker,
  parseNumber,
  PLAN_KEYWORDS,
  PlanReader,
  readSpecDecode,
  readSpecMetrics,
  failureOf,
  authMismatchAdvice,
  authMismatchDiagnosis,
  advice,
  kubeAdvice,
  belowAdvice,
  statusOf,
  eventOf,
  Diagnoser,
  messageBytes,
  JournalDecoder
};
