// explain on logs as people paste them, and on engine failures beyond the boot. Each input is written
// here in the shape the named tool prints (docker logs --timestamps, podman logs -t, journalctl -x/-o
// short-full/short-monotonic, a GitHub quote, a viewer's line gutter, a pager's cut), around vLLM's
// exact formats (reference/vllm-formats.md).
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { unpaste } from "../../../src/domain/journal/paste.js";

const OOM =
  "(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free.";
const BOOT = [
  "(APIServer pid=1) INFO 10-20 11:47:01 [api_server.py:1805] vLLM API server version 0.10.1.1",
  "(EngineCore_DP0 pid=703) INFO 10-20 11:47:40 [gpu_model_runner.py:1812] Starting to load model /models/qwen...",
  "(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708] EngineCore failed to start.",
  "(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708] Traceback (most recent call last):",
  '(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708]   File "/usr/lib/python3.12/site-packages/vllm/v1/engine/core.py", line 699, in run_engine_core',
  "(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708]     engine_core = EngineCoreProc(*args, **kwargs)",
  OOM,
];

describe("unpaste", () => {
  it.each([
    ["> > INFO 10-20 x", "INFO 10-20 x"],
    ["  142 | INFO 10-20 x", "INFO 10-20 x"],
    ["142│INFO 10-20 x", "INFO 10-20 x"],
    ["L142: INFO 10-20 x", "INFO 10-20 x"],
    ["2026-11-30T17:24:51.646113979Z INFO 10-20 x", "INFO 10-20 x"],
    ["2026-11-30T17:24:51.646113979+00:00 INFO 10-20 x", "INFO 10-20 x"],
    ["2026-11-30T17:24:51.646113979Z stderr F INFO 10-20 x", "INFO 10-20 x"],
    [
      "ValueError: To serve at least one request with the model's max seq len (131072), (4.54 GiB KV cache is needed, which is la…",
      "ValueError: To serve at least one request with the model's max seq len (131072), (4.54 GiB KV cache is needed, which is la",
    ],
  ])("%s", (raw, text) => {
    expect(unpaste(raw)?.text).toBe(text);
  });
  it("drops journalctl -x catalog text and banners, keeps the time of a runtime timestamp", () => {
    expect(unpaste("░░ Subject: A start job for unit x.service has failed")).toBeNull();
    expect(unpaste("-- Boot 3f2a1b2c3d4e5f60718293a4b5c6d7e8 --")).toBeNull();
    expect(unpaste("-- Subject: Unit x.service has failed")).toBeNull();
    expect(unpaste("2026-11-30T17:24:51.5Z hello")?.ts).toBe(Date.parse("2026-11-30T17:24:51.5Z") * 1000);
    // journalctl short-iso keeps its own prefix for plainlog to read
    expect(unpaste("2026-11-30T17:24:51+0000 gpu1 systemd[1]: Started x.service.")?.text).toBe(
      "2026-11-30T17:24:51+0000 gpu1 systemd[1]: Started x.service.",
    );
  });
});

describe("explain: pasted forms of one OOM boot all read the same", () => {
  const forms: Array<[string, string[]]> = [
    ["docker logs --timestamps", BOOT.map((l, i) => `2026-10-20T11:48:0${i}.123456789Z ${l}`)],
    ["podman logs -t", BOOT.map((l, i) => `2026-10-20T11:48:0${i}.123456789+00:00 ${l}`)],
    ["a GitHub quote of a line-numbered viewer", BOOT.map((l, i) => `> ${String(i + 1).padStart(4)} | ${l}`)],
    [
      "journalctl -x (short-full) with catalog text",
      [
        "-- Boot 3f2a1b2c3d4e5f60718293a4b5c6d7e8 --",
        ...BOOT.map((l) => `Tue 2026-10-20 11:48:05 UTC gpu1 frank-archon-qwen[810]: ${l}`),
        "Tue 2026-10-20 11:48:06 UTC gpu1 systemd[1]: frank-archon.service: Main process exited, code=exited, status=1/FAILURE",
        "░░ Subject: Unit process exited",
        "░░ An ExecStart= process belonging to unit frank-archon.service has exited.",
      ],
    ],
    ["journalctl -o short-monotonic", BOOT.map((l, i) => `[  50${i}.843390] gpu1 frank-archon-qwen[810]: ${l}`)],
  ];
  it.each(forms)("%s", (_, lines) => {
    const r = explain(lines.join("\n"));
    expect(r.class).toBe("oom");
    expect(r.decisive).toBe(OOM.replace(/^.*?\] /, ""));
    expect(r.oom).toEqual({ triedGiB: 2, freeGiB: 1.12, totalGiB: 31.86, shortfallGiB: 0.88 });
  });

  it("a line cut by the pager still names the class", () => {
    const r = explain(
      "(EngineCore_DP0 pid=703) ERROR 10-20 11:48:05 [core.py:708] ValueError: To serve at least one request with the model's max seq len (131072), (4.54 GiB KV cache is needed, which is larger than the available KV cache memory (1.7…",
    );
    expect(r.class).toBe("kv-insufficient");
  });
});

const TRACKER =
  "/usr/lib/python3.12/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 1 leaked semaphore objects to clean up at shutdown";

describe("noise never wins over the real error", () => {
  it("resource_tracker, shutdown chatter and podman's signal proxy after the traceback", () => {
    const r = explain(
      [
        ...BOOT.slice(0, 6),
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
        "(APIServer pid=1) INFO:     Shutting down",
        TRACKER,
        "  warnings.warn('resource_tracker: There appear to be %d '",
        'time="2026-10-20T11:48:06Z" level=error msg="forwarding signal 15 to container 3f1c9a7b2e4d: container has already been removed"',
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).not.toMatch(/resource_tracker|forwarding signal|Shutting down/);
  });
  it("a generic traceback followed by a shutdown warning keeps the traceback's line", () => {
    const r = explain(
      [
        "Traceback (most recent call last):",
        '  File "/x.py", line 1, in <module>',
        "KeyError: 'model_type'",
        TRACKER,
      ].join("\n"),
    );
    expect(r.decisive).toBe("KeyError: 'model_type'");
  });
});

describe("vLLM wordings across releases", () => {
  it("V0 GPU blocks with and without its #", () => {
    for (const l of [
      "INFO 01-30 03:19:20 distributed_gpu_executor.py:57] # GPU blocks: 1426, # CPU blocks: 2048",
      "INFO 01-30 03:19:20 distributed_gpu_executor.py:57] GPU blocks: 1426, CPU blocks: 2048",
    ]) {
      expect(explain(l).plan.gpuBlocks).toBe(1426);
    }
  });
  it("the pinned pool of --kv-cache-memory-bytes is the KV memory", () => {
    const r = explain(
      "(EngineCore pid=2461) INFO 09-11 16:26:47 [gpu_worker.py:381] Initial free memory 10.04 GiB, reserved 0.49 GiB memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory profiling. This does not respect the gpu_memory_utilization config.",
    );
    expect(r.plan.availableKvGiB).toBe(0.49);
  });
  it.each([
    [
      "ValueError: To serve at least one request with the models's max seq len (40960), (10.00 GiB KV cache is needed, which is larger than the available KV cache memory (1.25 GiB). Based on the available memory,  Try increasing `gpu_memory_utilization`",
      "kv-insufficient",
    ],
    [
      "ValueError: To serve at least one request with the model's max seq len (4096), (1.0 GiB KV cache is needed, which is larger than the available KV cache memory (0.58 GiB). Based on the available memory, the estimated maximum model length is 2368. Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or decreasing `max_model_len` when initializing the engine.",
      "kv-insufficient",
    ],
    [
      "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
      "kv-insufficient",
    ],
    [
      "ValueError: Free memory on device (6.9/8.0 GiB) on startup is less than desired GPU memory utilization (0.9, 7.2 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.",
      "oom",
    ],
    [
      "RuntimeError: Worker failed with error 'CUDA error: an illegal memory access was encountered', please check the stack trace above for the root cause",
      "engine-init-failed",
    ],
  ])("%s", (line, cls) => {
    expect(explain(`(EngineCore_DP0 pid=1) ERROR 10-20 11:48:05 [core.py:708] ${line}`).class).toBe(cls);
  });
});

describe("engine failures beyond the boot", () => {
  it.each([
    [
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5",
      "engine-init-failed",
      /--ipc=host/,
    ],
    [
      "[rank1]:[E1020 11:48:05.123456 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.",
      "engine-init-failed",
      /NCCL/,
    ],
    ["RuntimeError: No CUDA GPUs are available", "engine-init-failed", /\/dev\/dri/],
    ["RuntimeError: Failed to infer device type", "engine-init-failed", /\/dev\/dri/],
    [
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver",
      "engine-init-failed",
      /\/dev\/dri/,
    ],
    [
      "ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template argument was passed! For information about writing templates and setting the tokenizer.chat_template attribute, please see the documentation",
      "engine-args",
      /--chat-template/,
    ],
    [
      "jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...",
      "engine-args",
      /--chat-template/,
    ],
    [
      "KeyError: 'invalid tool call parser: qwen3xml (chose from { hermes,qwen3_xml })'",
      "engine-args",
      /--tool-call-parser/,
    ],
    [
      "KeyError: 'invalid reasoning parser: qwen (chose from { qwen3,deepseek_r1 })'",
      "engine-args",
      /--reasoning-parser/,
    ],
    [
      "vllm serve: error: argument --tool-call-parser: invalid choice: 'qwen3xml' (choose from 'hermes', 'qwen3_xml')",
      "engine-args",
      /--tool-call-parser/,
    ],
  ])("%s", (line, cls, fix) => {
    const r = explain(`(APIServer pid=1) ERROR 10-20 11:48:05 [serving_chat.py:235] ${line}`);
    expect(r.class).toBe(cls);
    expect(r.fix).toMatch(fix);
  });

  it("newest worker startup wording: the cause under `WorkerProc failed to start.`, not the wrapper or the executor's echo", () => {
    const w = "(Worker_TP1_EP1 pid=1874769) ERROR 03-24 09:46:59 [multiproc_executor.py:852]";
    const r = explain(
      [
        `${w} WorkerProc failed to start.`,
        `${w} Traceback (most recent call last):`,
        `${w}   File "/usr/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 700, in worker_main`,
        `${w}     worker = WorkerProc(*args, **kwargs)`,
        `${w} RuntimeError: CUDA driver error: invalid device ordinal`,
        "(EngineCore_DP0 pid=11546) ERROR 03-24 09:47:00 [multiproc_executor.py:154] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.",
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}",
      ].join("\n"),
    );
    expect(r.class).toBe("engine-init-failed");
    expect(r.decisive).toBe("RuntimeError: CUDA driver error: invalid device ordinal");
  });

  it("a CUDA-graph capture OOM says graph capture", () => {
    const r = explain(
      [
        "(EngineCore_DP0 pid=1) INFO 10-20 11:47:40 [gpu_model_runner.py:3110] Estimated CUDA graph memory: 1.58 GiB total",
        "(EngineCore_DP0 pid=1) INFO 10-20 11:47:41 [gpu_model_runner.py:2900] Capturing CUDA graphs (mixed prefill-decode, PIECEWISE):  12%|█▏        | 8/67",
        OOM,
      ].join("\n"),
    );
    expect(r.class).toBe("oom");
    expect(r.summary).toMatch(/while capturing CUDA graphs$/);
    expect(r.fix).toMatch(/--enforce-eager/);
  });

  it("a 400 from the chat template is a template problem, never a tool-choice gap", () => {
    const body =
      '{"error":{"message":"As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.","type":"BadRequestError","param":null,"code":400}}';
    const r = explain(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\r\n${body}`);
    expect(r.class).toBe("engine-args");
    expect(r.class).not.toBe("tools-not-enabled");
    expect(r.decisive).toMatch(/^As of transformers v4\.44, default chat template is no longer allowed/);
    expect(r.summary).toMatch(/^HTTP 400: the chat template failed: .*not a tool-choice gap/);
    expect(r.fix).toMatch(/--chat-template/);
  });

  it("a 500 from a tool parser names the parser", () => {
    const r = explain(
      '{"object":"error","message":"Error in extracting tool call from response.","type":"InternalServerError","param":null,"code":500}',
    );
    expect(r.class).toBe("engine-args");
    expect(r.fix).toMatch(/--tool-call-parser/);
  });
});
