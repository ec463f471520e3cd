// The boot log as a timed script of writes, built from the plan. Pure: main.ts plays it.
import { fmtInt, logRecord, pyRepr, raw, uvicorn, type Proc } from "./format.js";
import { round2, type Plan } from "./plan.js";
import { failureWrites } from "./failures.js";

export interface Write {
  at: number;
  stream: "stdout" | "stderr";
  text: (now: Date) => string;
}
export type Step = Write | { at: number; listen: true } | { at: number; exit: number };

export const VERSION = "0.28.1";

export function bootScript(plan: Plan, api: Proc, core: Proc): Step[] {
  const T = plan.bootSeconds * 1000;
  const steps: Step[] = [];
  const log = (frac: number, p: Proc, where: string, msg: string, level = "INFO") =>
    steps.push({ at: Math.round(T * frac), stream: "stdout", text: (d) => logRecord(p, level, d, where, msg) });
  log(0, api, "utils.py:302", `vLLM server version ${VERSION}, serving model ${plan.model}`);
  log(0, api, "utils.py:233", `non-default args: ${pyRepr(plan.nonDefault)}`);
  log(0.02, api, "model.py:547", "Resolved architecture: Qwen3ForCausalLM");
  log(0.02, api, "model.py:1510", `Using max model len ${plan.maxModelLen}`);
  log(
    0.05,
    core,
    "core.py:93",
    `Initializing a V1 LLM engine (v${VERSION}) with config: model='${plan.model}', served_model_name=${plan.servedName}, max_seq_len=${plan.maxModelLen}, enforce_eager=${plan.enforceEager ? "True" : "False"}`,
  );
  log(0.1, core, "gpu_model_runner.py:2602", `Starting to load model ${plan.model}...`);
  const o = plan.outcome;
  if (o.kind === "oom" && o.step === "load") return [...steps, ...failureWrites(plan, api, core, 0.2 * T)];
  log(0.3, core, "default_loader.py:267", `Loading weights took ${(plan.bootSeconds * 0.2).toFixed(2)} seconds`);
  log(
    0.32,
    core,
    "gpu_model_runner.py:2653",
    `Model loading took ${round2(plan.modelGiB)} GiB memory and ${(plan.bootSeconds * 0.22).toFixed(6)} seconds`,
  );
  if (!plan.enforceEager) {
    log(
      0.35,
      core,
      "backends.py:548",
      "Using cache directory: /root/.cache/vllm/torch_compile_cache/5c1f2a9e3b/rank_0_0/backbone for vLLM's torch.compile",
    );
    log(0.4, core, "backends.py:559", `Dynamo bytecode transform time: ${(plan.bootSeconds * 0.05).toFixed(2)} s`);
    if (o.kind === "dynamo") return [...steps, ...failureWrites(plan, api, core, 0.42 * T)];
    const range = `(1, ${Math.max(2048, plan.maxNumSeqs * 16)})`;
    // FAKE_COMPILE_CACHE=hit: a warm boot, as with a persisted /root/.cache (seed 003).
    if (plan.compileCacheHit)
      log(
        0.5,
        core,
        "backends.py:201",
        `Directly load the compiled graph(s) for compile range ${range} from the cache, took ${(plan.bootSeconds * 0.01).toFixed(3)} s`,
      );
    else
      log(
        0.5,
        core,
        "backends.py:215",
        `Compiling a graph for compile range ${range} takes ${(plan.bootSeconds * 0.1).toFixed(2)} s`,
      );
    log(
      0.52,
      core,
      "monitor.py:34",
      `torch.compile took ${(plan.bootSeconds * (plan.compileCacheHit ? 0.02 : 0.17)).toFixed(2)} s in total`,
    );
    log(
      0.55,
      core,
      "gpu_model_runner.py:4120",
      `Profiling CUDA graph memory: PIECEWISE=51 (largest=${Math.min(plan.maxNumSeqs * 2, 512)}), FULL=35 (largest=${Math.min(plan.maxNumSeqs, 256)})`,
    );
    log(
      0.56,
      core,
      "gpu_model_runner.py:4188",
      `Estimated CUDA graph memory: ${plan.graphEstimateGiB.toFixed(2)} GiB total`,
    );
  }
  if (o.kind === "oom" && o.step === "profile") return [...steps, ...failureWrites(plan, api, core, 0.6 * T)];
  log(0.6, core, "gpu_worker.py:298", `Available KV cache memory: ${plan.availKvGiB} GiB`);
  if (o.kind === "kv-insufficient" || o.kind === "no-kv-memory")
    return [...steps, ...failureWrites(plan, api, core, 0.62 * T)];
  log(
    0.62,
    core,
    "kv_cache_utils.py:1087",
    `GPU KV cache size: ${fmtInt(plan.kvTokens)} tokens, Maximum concurrency for ${fmtInt(plan.maxModelLen)} tokens per request: ${plan.maxConcurrency.toFixed(2)}x`,
  );
  if (plan.enforceEager) {
    log(
      0.7,
      core,
      "gpu_model_runner.py:3395",
      "Skipping CUDA graph capture. To turn on CUDA graph capture, ensure `cudagraph_mode` was not manually set to `NONE`",
    );
  } else {
    if (o.kind === "oom" && o.step === "graph") return [...steps, ...failureWrites(plan, api, core, 0.7 * T)];
    steps.push({
      at: Math.round(T * 0.75),
      stream: "stderr",
      text: () =>
        raw(
          core,
          "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 51/51 [00:02<00:00, 21.37it/s]",
        ),
    });
    log(
      0.8,
      core,
      "gpu_model_runner.py:3480",
      `Graph capturing finished in ${Math.max(1, Math.round(plan.bootSeconds * 0.2))} secs, took ${round2(plan.graphEstimateGiB * 0.94)} GiB`,
    );
  }
  log(
    0.85,
    core,
    "core.py:210",
    `init engine (profile, create kv cache, warmup model) took ${(plan.bootSeconds * 0.75).toFixed(2)} s (compilation: ${(plan.bootSeconds * 0.17).toFixed(2)} s)`,
  );
  log(0.9, api, "api_server.py:1634", "Supported tasks: ['generate']");
  log(0.92, api, "api_server.py:1912", `Starting vLLM API server 0 on http://${plan.host}:${plan.port}`);
  log(0.93, api, "launcher.py:34", "Available routes are:");
  for (const [route, m] of [
    ["/health", "GET"],
    ["/metrics", "GET"],
    ["/v1/models", "GET"],
    ["/v1/chat/completions", "POST"],
  ] as const) {
    log(0.93, api, "launcher.py:42", `Route: ${route}, Methods: ${m}`);
  }
  const uv = (frac: number, msg: string) =>
    steps.push({ at: Math.round(T * frac), stream: "stderr", text: () => uvicorn(api, "INFO", msg) });
  uv(0.95, `Started server process [${api.pid}]`);
  uv(0.95, "Waiting for application startup.");
  steps.push({ at: T, listen: true });
  uv(1, "Application startup complete.");
  return steps;
}
