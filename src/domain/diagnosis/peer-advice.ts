// The fixes for SGLang and llama.cpp in their own flags: the same failure classes as vLLM's, but
// `--gpu-memory-utilization` means nothing to them. Null: the class reads the same for every engine. Pure.
import { llamaLoadCause } from "../engine/peers.js";
import { GPU_FAULT, HOST_OOM, NCCL, NO_GPU, PEER_ACCESS, RAY_SHM } from "../engine/vllm/failures.js";
import { gapText } from "./oom.js";
import type { AdviceFacts, DiagnosisClass } from "./types.js";
import type { EngineKind } from "../engine/kind.js";

type Advice = { summary: string; fix: string };

/** SGLang's http server after its warm-up request failed (peers.ts WRAPPERS). */
const WARMUP_FAILED = /Initialization failed\. warmup error/;
/** SGLang's scheduler found no free request slot while serving (peers.ts ROOT). */
const REQ_SLOTS = /alloc_req_slots runs out of memory/;

function sglang(cls: DiagnosisClass, f: AdviceFacts): Advice | null {
  switch (cls) {
    case "oom":
      return {
        summary: `GPU out of memory: ${gapText(f.oom)}${f.phase === "capturing-graphs" ? ", while capturing CUDA graphs" : ""}`,
        fix: "SGLang keeps --mem-fraction-static of the GPU for weights and the KV pool; activations and CUDA graphs live in the rest: lower --mem-fraction-static (e.g. by 0.05), lower --cuda-graph-max-bs or --chunked-prefill-size, or --disable-cuda-graph. For the weights themselves: raise --tp-size or use a quantized checkpoint.",
      };
    case "kv-insufficient":
      return {
        summary: "no room for SGLang's KV pool: the weights fill --mem-fraction-static",
        fix: "Raise --mem-fraction-static (the pool is what that fraction of the GPU leaves after the weights), lower --context-length, or raise --tp-size so each GPU holds fewer weights.",
      };
    case "engine-init-failed":
      // the server was up (uvicorn's line) and its own first request to itself failed: SGLang then kills itself
      if (f.decisive && WARMUP_FAILED.test(f.decisive)) {
        return {
          summary: `SGLang's warm-up request to its own server failed after uvicorn started, and SGLang shut itself down: ${f.decisive}`,
          fix: "Read the exception under that line (the warm-up's HTTP status). A 502/503/407 there is usually an HTTP proxy from http_proxy/https_proxy in the engine's environment catching the request to its own address: set no_proxy=localhost,127.0.0.1,0.0.0.0 for the engine. --skip-server-warmup skips the request (the first real one then pays the warm-up).",
        };
      }
      if (f.decisive && REQ_SLOTS.test(f.decisive)) {
        return {
          summary: `SGLang's scheduler ran out of request slots and died: ${f.decisive}`,
          fix: "The request pool (req_to_token_pool) holds fewer slots than the batch asked for: lower --max-running-requests (SGLang's own advice; the line prints the slots left as available_size). The pool is sized from the KV tokens over the context length: a larger --mem-fraction-static or a shorter --context-length gives it more slots.",
        };
      }
      return {
        summary: `engine initialization failed: ${f.decisive ?? "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `Scheduler hit an exception` and `Received sigquit from a child process` only wrap it: the cause is the traceback above them.",
      };
    default:
      return null;
  }
}

function llamacpp(cls: DiagnosisClass, f: AdviceFacts): Advice | null {
  switch (cls) {
    case "oom":
      return {
        summary: `GPU out of memory while llama.cpp allocated its buffers: ${f.decisive ?? "no cause line found"}`,
        fix: "Offload fewer layers (-ngl / --n-gpu-layers below the model's count), shrink the KV cache (-c / --ctx-size, -np / --parallel, --cache-type-k q8_0 --cache-type-v q8_0 with flash attention), or use a smaller quant.",
      };
    case "engine-init-failed": {
      const d = f.decisive ?? "";
      const cause = llamaLoadCause(d);
      const at = cause.path ? ` ${cause.path}` : "";
      if (cause.what === "missing") {
        return {
          summary: `llama.cpp could not open the model file${at}`,
          fix: `Check the -m path${at ? ` (${at.trim()})` : ""} as the container sees it: the -v mount that should provide it, the file name, and that the unit's user may read it.`,
        };
      }
      if (cause.what === "architecture") {
        return {
          summary: `this llama.cpp build does not know the model: ${d}`,
          fix: "Use a newer llama.cpp image (the model's architecture or pre-tokenizer was added later), or a GGUF converted for this build.",
        };
      }
      if (cause.what === "corrupt") {
        return {
          summary: `the model file${at} is not a complete GGUF: ${d}`,
          fix: `Download the GGUF again (a cut download or a split file's first part alone reads like this) and check its size and sha256${at ? ` (${at.trim()})` : ""}.`,
        };
      }
      return {
        summary: `llama.cpp failed to start: ${d || "no cause line found"}`,
        fix: "Fix the cause named by the decisive line; `exiting due to model loading error` and `failed to load model` only wrap it.",
      };
    }
    default:
      return null;
  }
}

export function peerAdvice(cls: DiagnosisClass, engine: Exclude<EngineKind, "vllm">, f: AdviceFacts): Advice | null {
  // no GPU, NCCL, a GPU fault, the kernel's OOM killer, no peer access, /dev/shm: the same cause and fix whatever the
  // engine
  if (f.decisive && [NO_GPU, NCCL, GPU_FAULT, HOST_OOM, PEER_ACCESS, RAY_SHM].some((re) => re.test(f.decisive!)))
    return null;
  return engine === "sglang" ? sglang(cls, f) : llamacpp(cls, f);
}
