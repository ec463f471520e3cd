// Shapes found missing on the first run of the blind field set A (docs/accuracy.md), each written here in the
// tool's own wording (vLLM gpu_worker.py's startup budget check with the device named, api_server.py's "Starting vLLM
// API server N on URL", llama.cpp's 2026 sched_reserve retry and its 2024 server's JSON log, torch's NCCL "Last
// error" text, systemd's restart job), never copied from those logs.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";

describe("field set A, generalised", () => {
  it("a service that exits non-zero and is scheduled for a restart is a crash loop, not unknown", () => {
    const r = explain(
      [
        "11月 16 10:00:15 host systemd[1]: Starting Frobnicator...",
        "11月 16 10:00:15 host frob[309]: cannot open /etc/frob.conf",
        "11月 16 10:00:15 host systemd[1]: frob.service: Main process exited, code=exited, status=1/FAILURE",
        "11月 16 10:00:15 host systemd[1]: frob.service: Failed with result 'exit-code'.",
        "11月 16 10:00:16 host systemd[1]: frob.service: Scheduled restart job, restart counter is at 1.",
      ].join("\n"),
    );
    expect(r.class).toBe("crash-loop");
    expect(r.decisive).toContain("status=1/FAILURE");
  });

  it("llama.cpp's listen socket, capitalised and behind its level letter", () => {
    const r = explain("E Couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080");
    expect(r.class).toBe("runtime-error");
  });

  it("a llama.cpp buffer OOM it recovers from (retrying without pipeline parallelism) is no failure", () => {
    const r = explain(
      [
        "0.05.100.001 E ggml_backend_cuda_buffer_type_alloc_buffer: allocating 30000.00 MiB on device 1: cudaMalloc failed: out of memory",
        "0.05.100.002 E graph_reserve: failed to allocate compute buffers",
        "0.05.100.003 W sched_reserve: compute buffer allocation failed, retrying without pipeline parallelism",
        "0.06.000.000 I srv    load_model: initializing, n_slots = 1, n_ctx_slot = 32768, kv_unified = 'false'",
      ].join("\n"),
    );
    expect(r.class).toBe("booting");
    expect(r.plan.maxModelLen).toBe(32768);
  });

  it("llama.cpp's 2024 server: ready by its model-loaded JSON line, its slot's context and KV size in plan", () => {
    const r = explain(
      [
        "llama_new_context_with_model: n_ctx      = 4096",
        "llama_kv_cache_init:      CUDA0 KV buffer size =   512.00 MiB",
        "llama_new_context_with_model: KV self size  =  512.00 MiB, K (f16):  256.00 MiB, V (f16):  256.00 MiB",
        "Available slots:",
        " -> Slot 0 - max context: 4096",
        '{"timestamp":1700000000,"level":"INFO","function":"main","line":3000,"message":"model loaded"}',
        "all slots are idle and system prompt is empty, clear the KV cache",
      ].join("\n"),
    );
    expect(r.class).toBe("ready");
    expect(r.plan).toMatchObject({ kvTokens: 4096, maxModelLen: 4096, availableKvGiB: 0.5 });
  });

  it("a lone plan line is an engine booting", () => {
    const r = explain(
      "[2026-01-01 10:00:00] max_total_num_tokens=500000, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=64, context_len=131072, available_gpu_mem=10.00 GB",
    );
    expect(r.class).toBe("booting");
    expect(r.plan).toMatchObject({ kvTokens: 500000, maxModelLen: 131072 });
  });

  it("vLLM's 'Starting vLLM API server N on URL' is readiness when uvicorn's own line is hidden", () => {
    const r = explain(
      [
        "(APIServer pid=1) INFO 02-23 17:34:02 [api_server.py:946] Starting vLLM API server 0 on http://127.0.0.1:8000",
        "(APIServer pid=1) INFO 02-23 17:34:02 [launcher.py:46] Available routes are:",
        "(APIServer pid=1) INFO 02-23 17:34:02 [launcher.py:46] Route: /health, Methods: GET",
      ].join("\n"),
    );
    expect(r.class).toBe("ready");
  });

  it("NCCL's last error named by torch (no NCCL WARN prefix) outranks the DistBackendError before it", () => {
    const r = explain(
      [
        "[rank0]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2588, internal error - please report this issue to the NCCL developers, NCCL version 2.21.5",
        "[rank0]: ncclInternalError: Internal check failed.",
        "[rank0]: Last error:",
        "[rank0]: Bootstrap : no socket interface found",
      ].join("\n"),
    );
    expect(r.decisive).toContain("Bootstrap : no socket interface found");
    expect(r.fix).toContain("NCCL_SOCKET_IFNAME");
  });

  it("terminal escape codes bash tried to run are noise; the ERR trap's line decides", () => {
    const r = explain(
      [
        "curl: (22) The requested URL returned error: 404",
        "bash: line 1: $'\\E[?25h': command not found",
        "bash: line 2: $'\\E[01': command not found",
        "[ERROR] in line 812: exit code 0: while executing command bash -c ...",
      ].join("\n"),
    );
    expect(r.class).toBe("script-error");
    expect(r.decisive).toContain("[ERROR] in line 812");
  });

  it("the startup budget check naming its device is an OOM with its gap", () => {
    const r = explain(
      "ValueError: Free memory on device cuda:0 (0.88/23.56 GiB) on startup is less than desired GPU memory utilization (0.9, 21.2 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
    );
    expect(r.class).toBe("oom");
    expect(r.oom).toMatchObject({ freeGiB: 0.88, totalGiB: 23.56, triedGiB: 21.2 });
  });

  it("plan figures a wrapper or V1's cache-config logger state", () => {
    const r = explain(
      [
        "INFO 05-06 07:10:28 inference_api.py:229] Using model default max_model_len 2048",
        "INFO 06-22 02:55:02 [loggers.py:137] Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 15745",
      ].join("\n"),
    );
    expect(r.plan).toMatchObject({ maxModelLen: 2048, gpuBlocks: 15745 });
  });
});
