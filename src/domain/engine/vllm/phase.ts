// Progress while waiting for a boot: which phase the newest line says the engine is in (reference §1.3).
import { isPeerReadyMarker } from "../peers.js";
import { messageOf } from "./lines.js";

export type BootPhase =
  "loading-weights" | "profiling-kv" | "compiling" | "capturing-graphs" | "starting-api" | "ready";

const PHASES: ReadonlyArray<readonly [RegExp, BootPhase]> = [
  [/Application startup complete/, "ready"],
  [
    /Starting vLLM (?:API )?server|Available routes are|^Route: |Started server process|Waiting for application startup|init engine \(profile|Supported(?:_| )tasks/,
    "starting-api",
  ],
  [
    /Capturing CUDA graph|Graph capturing finished|CUDA graph memory|Profiling CUDA graph|CUDA graph pool memory|Capture cuda graph begin/,
    "capturing-graphs",
  ],
  [
    /Compiling a graph|Dynamo bytecode transform|torch\.compile t|Directly load (?:the compiled|AOT)|Cache the graph|saved AOT compiled/,
    "compiling",
  ],
  [
    // (case folded for `Profiling …`; `\b`: Ollama's `OLLAMA_KV_CACHE_TYPE:` env dump is no llama.cpp line)
    /Memory profiling takes|Available KV cache memory|\bllama_kv_cache|KV Cache is allocated|GPU KV cache size|#? ?GPU blocks:|Maximum concurrency for|Initial profiling\/warmup|profiling/i,
    "profiling-kv",
  ],
  [
    /Starting to load model|Loading (?:safetensors|pt) checkpoint shards|Loading weights|Loading model weights|Model loading took|load_model|Using model weights format|llama_model_loader: |load_tensors: |Load weight begin/,
    "loading-weights",
  ],
];

export function bootPhase(line: string): BootPhase | null {
  const msg = messageOf(line);
  for (const [re, phase] of PHASES) if (re.test(msg)) return phase;
  return null;
}

/**
 * uvicorn's readiness line (vLLM, SGLang; on stderr: an unmerged `podman logs | grep` never sees it), or
 * llama-server's after its model loaded.
 */
/**
 * vLLM's api_server says where it serves once the engine is up, right before uvicorn binds (`Starting vLLM API server 0
 * on http://…`): readiness when uvicorn's own line is hidden (--uvicorn-log-level warning). A bind failure after it is
 * a later failure and still wins.
 */
// (2026: `Starting vLLM server on http://…`, logged at the same point, right before serve_http)
const VLLM_SERVING = /Starting vLLM (?:API )?server (?:\d+ )?on https?:\/\//;

export function isReadyMarker(line: string): boolean {
  return (
    line.includes("Application startup complete.") ||
    (line.includes("Starting vLLM ") && VLLM_SERVING.test(line)) ||
    isPeerReadyMarker(line)
  );
}
