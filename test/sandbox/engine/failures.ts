// The failure tails vLLM prints (reference §1.4): the root cause in the engine core (or worker),
// the APIServer's wrapper RuntimeError, then the exit code the real server gives.
import { logRecord, raw, type Proc } from "./format.js";
import { round2, type Plan } from "./plan.js";
import type { Step } from "./boot.js";

const PY = "/usr/local/lib/python3.12/dist-packages/vllm";
const DOCS = "See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.";

export function rootCause(plan: Plan): { type: string; message: string } {
  const o = plan.outcome;
  switch (o.kind) {
    case "oom":
      return {
        type: "torch.OutOfMemoryError",
        message: `CUDA out of memory. Tried to allocate ${o.triedGiB.toFixed(2)} GiB. GPU 0 has a total capacity of ${plan.vramGiB.toFixed(2)} GiB of which ${o.freeGiB.toFixed(2)} GiB is free. Including non-PyTorch memory, this process has ${round2(plan.vramGiB - o.freeGiB).toFixed(2)} GiB memory in use. Of the allocated memory ${round2(plan.modelGiB).toFixed(2)} GiB is allocated by PyTorch, and 180.25 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)`,
      };
    case "dynamo":
      return {
        type: "torch.fx.experimental.symbolic_shapes.ConstraintViolationError",
        message: `Constraints violated (L['query_start_loc'].size()[0])! For more information, run with TORCH_LOGS="+dynamic".\n  - Not all values of RelaxedUnspecConstraint(L['query_start_loc'].size()[0]) are valid because L['query_start_loc'].size()[0] was inferred to be a constant (${o.constant}).`,
      };
    case "kv-insufficient":
      return {
        type: "ValueError",
        message: `To serve at least one request with the models's max seq len (${plan.maxModelLen}), (${o.neededGiB} GiB KV cache is needed, which is larger than the available KV cache memory (${o.availGiB} GiB). Based on the available memory, the estimated maximum model length is ${o.estimatedMaxLen}. Try increasing \`gpu_memory_utilization\` or decreasing \`max_model_len\` when initializing the engine. ${DOCS}`,
      };
    case "no-kv-memory":
      return {
        type: "ValueError",
        message: `No available memory for the cache blocks. Try increasing \`gpu_memory_utilization\` when initializing the engine. ${DOCS}`,
      };
    case "ready":
      return {
        type: "vllm.v1.engine.exceptions.EngineDeadError",
        message: "EngineCore encountered an issue. See stack trace (above) for the root cause.",
      };
  }
}

const frames = (fs: [string, number, string, string][]) => [
  "Traceback (most recent call last):",
  ...fs.flatMap(([f, l, fn, code]) => [`  File "${PY}/${f}", line ${l}, in ${fn}`, `    ${code}`]),
];

/** Steps from `at` ms: the engine-core traceback, the API server's wrapper, and exit 0 (vLLM's API server exits 0). */
export function failureWrites(plan: Plan, api: Proc, core: Proc, at: number): Step[] {
  const { type, message } = rootCause(plan);
  const viaWorker = plan.outcome.kind === "oom" || plan.outcome.kind === "dynamo";
  const finalLine = viaWorker
    ? `RuntimeError: Worker failed with error '${message}', please check the stack trace above for the root cause`
    : `${type}: ${message}`;
  const coreTb = [
    ...frames([
      ["v1/engine/core.py", 699, "run_engine_core", "engine_core = EngineCoreProc(*args, **kwargs)"],
      ["v1/engine/core.py", 498, "__init__", "super().__init__(vllm_config, executor_class, log_stats,"],
      ["v1/engine/core.py", 92, "__init__", "self._initialize_kv_caches(vllm_config)"],
      ...(viaWorker
        ? [
            ["v1/executor/multiproc_executor.py", 264, "get_response", "raise RuntimeError("] as [
              string,
              number,
              string,
              string,
            ],
          ]
        : [
            ["v1/core/kv_cache_utils.py", 686, "check_enough_kv_cache_memory", "raise ValueError("] as [
              string,
              number,
              string,
              string,
            ],
          ]),
    ]),
    finalLine,
  ].join("\n");
  const worker: Proc = { name: "Worker_TP0", pid: core.pid + 1 };
  const steps: Step[] = [];
  const out = (dt: number, stream: "stdout" | "stderr", text: (d: Date) => string) =>
    steps.push({ at: at + dt, stream, text });
  if (viaWorker) {
    out(0, "stdout", (d) =>
      logRecord(
        worker,
        "ERROR",
        d,
        "multiproc_executor.py:703",
        `WorkerProc hit an exception.\n${frames([["v1/worker/gpu_worker.py", 276, "determine_available_memory", "self.model_runner.profile_run()"]]).join("\n")}\n${type}: ${message}`,
      ),
    );
  }
  out(5, "stdout", (d) => logRecord(core, "ERROR", d, "core.py:708", `EngineCore failed to start.\n${coreTb}`));
  out(6, "stderr", () => raw(core, `Process EngineCore_DP0:\n${coreTb}`));
  const apiTb = [
    ...frames([
      ["entrypoints/openai/api_server.py", 1884, "run_server_worker", "async with build_async_engine_client("],
      ["v1/engine/utils.py", 915, "wait_for_engine_startup", "raise RuntimeError("],
    ]),
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
  ].join("\n");
  out(50, "stderr", () => raw(api, apiTb));
  steps.push({ at: at + 60, exit: 0 });
  return steps;
}

/** A crash of a running (or booting) engine: EngineDeadError and a non-zero exit, for crash loops. */
export function crashWrites(api: Proc, core: Proc, at: number): Step[] {
  const tb = [
    ...frames([["v1/engine/core.py", 730, "run_engine_core", "engine_core.run_busy_loop()"]]),
    "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
  ].join("\n");
  return [
    {
      at,
      stream: "stdout",
      text: (d) => logRecord(core, "ERROR", d, "core.py:720", `EngineCore encountered a fatal error.\n${tb}`),
    },
    {
      at: at + 5,
      stream: "stderr",
      text: (d) =>
        logRecord(
          api,
          "ERROR",
          d,
          "async_llm.py:480",
          "AsyncLLM output_handler failed.\nvllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
        ),
    },
    { at: at + 10, exit: 1 },
  ];
}
