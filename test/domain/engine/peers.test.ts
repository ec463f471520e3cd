// SGLang and llama.cpp read from their own lines: which engine wrote a log, llama-server's readiness,
// their failure signatures, and what they must never take from vLLM's lines.
import { describe, expect, it } from "vitest";
import { familyOf, isPeerReadyMarker, llamaLoadCause, peerFailureOf } from "../../../src/domain/engine/peers.js";
import { isReadyMarker } from "../../../src/domain/engine/vllm/phase.js";

describe("familyOf", () => {
  it.each([
    ["(APIServer pid=1) INFO 09-12 10:01:02 [api_server.py:1805] vLLM API server version 0.10.2", "vllm"],
    ["INFO 01-20 10:00:00 [worker.py:12] Loading model weights took 14.1 GiB", "vllm"],
    ["[2025-05-14 09:12:20 TP0] Init torch distributed begin.", "sglang"],
    ["[2025-07-02 07:41:58 DP0 TP0] Load weight end. type=DeepseekV3ForCausalLM", "sglang"],
    ['  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2270', "sglang"],
    ["build: 5342 (0cf6725e) with cc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0 for x86_64-linux-gnu", "llama.cpp"],
    ["0.01.121.400 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 40543.31 MiB", null],
    ["0.00.391.004 I llama_model_loader: loaded meta data with 36 key-value pairs", "llama.cpp"],
    ["srv    load_model: loading model '/models/a.gguf'", "llama.cpp"],
    ["usage: /app/llama-server [options]", "llama.cpp"],
    ["Traceback (most recent call last):", null],
    ["Started frank-archon.service - vLLM archon.", null],
  ] as const)("%s -> %s", (line, family) => {
    expect(familyOf(line)).toBe(family);
  });
});

describe("llama-server readiness", () => {
  it("is the line after the model loaded, with or without the level and timestamp prefix", () => {
    expect(isPeerReadyMarker("main: server is listening on http://0.0.0.0:8080 - starting the main loop")).toBe(true);
    expect(isPeerReadyMarker("0.02.511.870 I main: server is listening on http://127.0.0.1:8080")).toBe(true);
    expect(isReadyMarker("main: server is listening on http://0.0.0.0:8080 - starting the main loop")).toBe(true);
  });

  it("is not the early `HTTP server is listening, hostname:` line printed before the model loads, nor other servers' prose", () => {
    expect(isReadyMarker("main: HTTP server is listening, hostname: 0.0.0.0, port: 8080, http threads: 31")).toBe(
      false,
    );
    expect(isReadyMarker("Server is listening on http://localhost:3000")).toBe(false);
    expect(isReadyMarker("srv  update_slots: all slots are idle")).toBe(false);
  });
});

describe("peerFailureOf", () => {
  it.each([
    [
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 40960.00 MiB on device 0: cudaMalloc failed: out of memory",
      "oom",
      5,
    ],
    ["llama_model_load: error loading model: unable to allocate CUDA0 buffer", "oom", 5],
    ["llama_init_from_model: failed to allocate compute pp buffers", "oom", 5],
    ["gguf_init_from_file: failed to open GGUF file '/models/a.gguf'", "engine-init-failed", 5],
    ["E llama_model_load: error loading model: unknown model architecture: 'glm4moe'", "engine-init-failed", 5],
    ["RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.", "kv-insufficient", 5],
    [
      "[2025-05-14 09:13:56 TP0] Scheduler hit an exception: Traceback (most recent call last):",
      "engine-init-failed",
      2,
    ],
    [
      "[2025-05-14 09:13:56] Received sigquit from a child process. It usually means the child failed.",
      "engine-init-failed",
      1,
    ],
    ["main: exiting due to model loading error", "engine-init-failed", 1],
    ["srv    load_model: failed to load model, '/models/a.gguf'", "engine-init-failed", 1],
  ] as const)("%s", (line, kind, priority) => {
    expect(peerFailureOf(line)).toEqual({ kind, priority });
  });

  it("takes nothing from healthy lines or from vLLM's own signatures", () => {
    for (const line of [
      "load_backend: failed to find ggml_backend_init in /app/libggml-cpu-sandybridge.so",
      "llama_context: n_ctx_per_seq (16384) < n_ctx_train (40960) -- the full capacity of the model will not be utilized",
      "srv  log_server_r: request: GET /health 127.0.0.1 503",
      "[2025-06-02 18:01:32 TP0] max_total_num_tokens=1500000, available_gpu_mem=12.70 GB",
      // vLLM's cause line (capital F) stays vLLM's root cause, not a llama.cpp wrapper
      "ValueError: Failed to load model - not enough GPU memory",
    ])
      expect(peerFailureOf(line), line).toBeNull();
  });
});

describe("llamaLoadCause", () => {
  it("says missing, architecture, corrupt or other, with the GGUF path when the line names it", () => {
    expect(llamaLoadCause("gguf_init_from_file: failed to open GGUF file '/models/a.gguf'")).toEqual({
      what: "missing",
      path: "/models/a.gguf",
    });
    expect(
      llamaLoadCause(
        "llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'x'",
      ),
    ).toEqual({ what: "architecture", path: null });
    expect(llamaLoadCause("gguf_init_from_file_impl: failed to read magic")).toEqual({ what: "corrupt", path: null });
    expect(
      llamaLoadCause("llama_model_load: error loading model: llama_model_loader: failed to load model from /m/b.gguf")
        .path,
    ).toBe("/m/b.gguf");
  });
});
