// Plan lines in the wordings newer engines print and users paste (issue 25): vLLM's 2026 monitor.py line
// "torch.compile and initial profiling/warmup run together took %.2f s in total", model.py's "Using max model len %s",
// figures wrapped in markdown bold by the tools people paste from; SGLang's memory_pool.py "KV Cache is allocated.
// #tokens: N, KV size: X GB" (and the older K size/V size form); llama.cpp's llama-kv-cache.cpp
// "%s: size = %7.2f MiB (%6u cells, %3d layers, %2u/%u seqs), …"; the KV-shortfall error's own figures; ggml-cuda's
// "allocating %.2f MiB on device %d: cudaMalloc failed" as the tried size of an OOM.
import { describe, expect, it } from "vitest";
import { readPlan } from "../../../src/domain/engine/plan.js";
import { explain } from "../../../src/commands/explain/sniff.js";

describe("plan lines, newer wordings", () => {
  it("vLLM: compile and warm-up timed together, max model len on its own line, figures in markdown bold", () => {
    const p = readPlan([
      "(APIServer pid=1) INFO 04-19 11:23:08 [model.py:1685] Using max model len 98304",
      "(EngineCore pid=3012) INFO 07-22 04:07:16 [monitor.py:48] torch.compile and initial profiling/warmup run together took 55.27 s in total",
      "(EngineCore pid=3012) INFO 07-22 04:07:18 [worker.py:357] Available KV cache memory: **34.66 GiB**",
      "**(EngineCore pid=3012) INFO 07-22 04:07:18 [kv_cache_utils.py:1316] GPU KV cache size: 252,288 tokens**",
    ]);
    expect(p.compileSeconds).toBe(55.27);
    expect(p.maxModelLen).toBe(98304);
    expect(p.availableKvGiB).toBe(34.66);
    expect(p.kvTokens).toBe(252288);
  });

  it("SGLang: the KV allocation line with KV size, and with a dtype before #tokens", () => {
    expect(
      readPlan(["[2026-03-11 13:53:23 TP0] KV Cache is allocated. #tokens: 383872, KV size: 19.36 GB"]).kvTokens,
    ).toBe(383872);
    expect(
      readPlan([
        "[2026-03-11 13:53:23 TP0] KV Cache is allocated. dtype: torch.bfloat16, #tokens: 1000, KV size: 1.00 GB",
      ]).kvTokens,
    ).toBe(1000);
  });

  it("llama.cpp: the KV cache size line's cells are the KV tokens", () => {
    expect(
      readPlan([
        "llama_kv_cache: size =  354.75 MiB (  8448 cells,  43 layers,  1/1 seqs), K (f16):  177.38 MiB, V (f16):  177.38 MiB",
      ]).kvTokens,
    ).toBe(8448);
    expect(
      readPlan([
        "llama_kv_cache_unified:      CUDA0 KV buffer size =   256.00 MiB",
        "llama_kv_cache_unified: size =  256.00 MiB (  4096 cells,  32 layers,  1 seqs), K (f16):  128.00 MiB, V (f16):  128.00 MiB",
      ]).kvTokens,
    ).toBe(4096);
  });

  it("the KV-shortfall error's figures reach plan: the length asked, the memory available, the tokens that fit", () => {
    const r = explain(
      "(EngineCore pid=1) ERROR 12-01 10:00:59 [core.py:708] ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.50 GiB). Based on the available memory, the estimated maximum model length is 77824. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
    );
    expect(r.class).toBe("kv-insufficient");
    expect(r.plan.maxModelLen).toBe(131072);
    expect(r.plan.availableKvGiB).toBe(9.5);
    expect(r.plan.kvTokens).toBe(77824);
    const v0 = readPlan([
      "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (22816). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
    ]);
    expect([v0.maxModelLen, v0.kvTokens]).toEqual([32768, 22816]);
  });
});

describe("OOM figures outside torch", () => {
  it("ggml's cudaMalloc failure gives the tried size", () => {
    const r = explain(
      [
        "llama_model_load_from_file_impl: using device CUDA0 (NVIDIA GeForce RTX 3090) - 23943 MiB free",
        "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8192.00 MiB on device 0: cudaMalloc failed: out of memory",
        "alloc_tensor_range: failed to allocate CUDA0 buffer of size 8589934592",
        "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
      ].join("\n"),
    );
    expect(r.class).toBe("oom");
    expect(r.oom?.triedGiB).toBe(8);
  });
  it("a ggml buffer size in bytes is the tried size too", () => {
    const r = explain("ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 2147483648");
    expect(r.class).toBe("oom");
    expect(r.oom?.triedGiB).toBe(2);
  });
});
