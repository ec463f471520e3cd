// The double as SGLang (`python3 -m sglang.launch_server --model-path M …`): its argv, its boot lines
// (`[date TP0]` prefixes; model_runner, scheduler and uvicorn wordings) and the KV pool SGLang sizes from
// --mem-fraction-static: what the fraction of FAKE_VRAM_GIB leaves after the weights. A pool of nothing
// dies with SGLang's `Not enough memory. Please try to increase --mem-fraction-static`. Pure.
import type { Step } from "./boot.js";
import type { LiteEngine } from "./lite-server.js";
import { specServe, specState, type SpecPlan } from "./sglang-spec.js";

export interface SglangPlan {
  model: string;
  served: string;
  host: string;
  port: number;
  memFraction: number;
  contextLen: number;
  tp: number;
  apiKey: string | null;
  reasoningParser: string | null;
  toolCallParser: string | null;
  bootSeconds: number;
  kvTokens: number;
  /** --enable-metrics: /metrics answers */
  metrics: boolean;
  /** SGLANG_HEALTH_CHECK_TIMEOUT: how long /health waits for the scheduler before its 503 */
  healthTimeoutS: number;
  modelGiB: number;
  vramGiB: number;
  spec: SpecPlan;
}

export class SglangArgvError extends Error {}

export const VALUE = new Set([
  "model-path",
  "served-model-name",
  "host",
  "port",
  "mem-fraction-static",
  "context-length",
  "tp-size",
  "tp",
  "api-key",
  "reasoning-parser",
  "tool-call-parser",
  "chunked-prefill-size",
  "max-running-requests",
  "cuda-graph-max-bs",
  "dtype",
  "quantization",
  "speculative-algorithm",
  "speculative-draft-model-path",
  "speculative-num-steps",
  "speculative-eagle-topk",
  "speculative-num-draft-tokens",
  "decode-log-interval",
]);
export const SWITCH = new Set(["trust-remote-code", "enable-metrics", "disable-cuda-graph", "enable-torch-compile"]);
const GiB = 1024 ** 3;
const BYTES_PER_TOKEN = 98_304;

const n = (env: Record<string, string | undefined>, k: string, d: number) =>
  Number.isFinite(Number(env[k])) && env[k] !== undefined ? Number(env[k]) : d;

export function sglangPlan(args: readonly string[], env: Record<string, string | undefined>): SglangPlan {
  const v = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.replace(/^--/, "").replace(/_/g, "-");
    if (!a.startsWith("--") || !(VALUE.has(name) || SWITCH.has(name)))
      throw new SglangArgvError(`unrecognized arguments: ${a}`);
    if (SWITCH.has(name)) {
      v.set(name, "");
      continue;
    }
    const val = args[++i];
    if (val === undefined) throw new SglangArgvError(`argument --${name}: expected one argument`);
    v.set(name, val);
  }
  const model = v.get("model-path");
  if (!model) throw new SglangArgvError("the following arguments are required: --model-path");
  const vramGiB = n(env, "FAKE_VRAM_GIB", 32);
  const modelGiB = n(env, "FAKE_MODEL_GIB", 15.27);
  const memFraction = Number(v.get("mem-fraction-static") ?? 0.85);
  if (!Number.isFinite(memFraction))
    throw new SglangArgvError(`argument --mem-fraction-static: invalid float value: '${v.get("mem-fraction-static")}'`);
  const poolBytes = (vramGiB * memFraction - modelGiB) * GiB;
  return {
    model,
    served: v.get("served-model-name") ?? model,
    host: v.get("host") ?? "127.0.0.1",
    port: Number(v.get("port") ?? 30000),
    memFraction,
    contextLen: Number(v.get("context-length") ?? n(env, "FAKE_MAX_POSITION", 40_960)),
    tp: Number(v.get("tp-size") ?? v.get("tp") ?? 1),
    apiKey: v.get("api-key") ?? null,
    reasoningParser: v.get("reasoning-parser") ?? null,
    toolCallParser: v.get("tool-call-parser") ?? null,
    bootSeconds: n(env, "FAKE_BOOT_SECONDS", 2),
    kvTokens: Math.max(0, Math.floor(poolBytes / BYTES_PER_TOKEN)),
    metrics: v.has("enable-metrics"),
    healthTimeoutS: n(env, "SGLANG_HEALTH_CHECK_TIMEOUT", 20),
    modelGiB,
    vramGiB,
    spec: {
      algorithm: v.get("speculative-algorithm") ?? null,
      draftTokens: Number(v.get("speculative-num-draft-tokens") ?? Number(v.get("speculative-num-steps") ?? 0) + 1),
      decodeLogInterval: Number(v.get("decode-log-interval") ?? 40),
      acceptLen: n(env, "FAKE_SPEC_ACCEPT_LEN", 2.6),
      eosTokens: n(env, "FAKE_EOS_TOKENS", 32),
    },
  };
}

const stamp = (d: Date) => d.toISOString().slice(0, 19).replace("T", " ");
const gb = (x: number) => x.toFixed(2);
/** prometheus_client's float text: 0.0, 2.6 */
const prom = (x: number) => (Number.isInteger(x) ? `${x}.0` : String(x));

/** SGLang's log, timed; it listens only when the scheduler is up (uvicorn's lines on stderr). */
export function sglangBoot(p: SglangPlan): Step[] {
  const T = p.bootSeconds * 1000;
  const steps: Step[] = [];
  const log = (frac: number, text: string, tp = true, stream: "stdout" | "stderr" = "stdout") =>
    steps.push({
      at: Math.round(T * frac),
      stream,
      text: (d) =>
        `${text
          .split("\n")
          .map((l, i) => (i === 0 ? `[${stamp(d)}${tp ? " TP0" : ""}] ${l}` : l))
          .join("\n")}\n`,
    });
  log(
    0,
    `server_args=ServerArgs(model_path='${p.model}', tokenizer_mode='auto', served_model_name='${p.served}', host='${p.host}', port=${p.port}, mem_fraction_static=${p.memFraction}, context_length=${p.contextLen}, tp_size=${p.tp})`,
    false,
  );
  log(0.05, "Init torch distributed begin.");
  log(0.1, "Init torch distributed ends. mem usage=0.00 GB");
  log(0.15, `Load weight begin. avail mem=${gb(p.vramGiB - 0.5)} GB`);
  log(
    0.4,
    `Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=${gb(p.vramGiB - 0.5 - p.modelGiB)} GB, mem usage=${gb(p.modelGiB)} GB.`,
  );
  if (p.kvTokens === 0) {
    log(
      0.45,
      [
        "Scheduler hit an exception: Traceback (most recent call last):",
        '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 2270, in run_scheduler_process',
        "    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, pp_rank, dp_rank)",
        '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1010, in init_memory_pool',
        "    raise RuntimeError(",
        "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
        "",
      ].join("\n"),
    );
    log(0.46, "Received sigquit from a child process. It usually means the child failed.", false);
    steps.push({ at: Math.round(T * 0.46) + 20, exit: 1 });
    return steps;
  }
  const kvGiB = (p.kvTokens * BYTES_PER_TOKEN) / GiB / 2;
  log(0.5, `KV Cache is allocated. #tokens: ${p.kvTokens}, K size: ${gb(kvGiB)} GB, V size: ${gb(kvGiB)} GB`);
  log(0.55, `Memory pool end. avail mem=${gb(p.vramGiB * (1 - p.memFraction))} GB`);
  log(
    0.6,
    `Capture cuda graph begin. This can take up to several minutes. avail mem=${gb(p.vramGiB * (1 - p.memFraction))} GB`,
  );
  log(
    0.8,
    `Capture cuda graph end. Time elapsed: ${gb(p.bootSeconds * 0.2)} s. mem usage=0.45 GB. avail mem=${gb(p.vramGiB * (1 - p.memFraction) - 0.45)} GB.`,
  );
  log(
    0.85,
    `max_total_num_tokens=${p.kvTokens}, chunked_prefill_size=8192, max_prefill_tokens=16384, max_running_requests=4096, context_len=${p.contextLen}, available_gpu_mem=${gb(p.vramGiB * (1 - p.memFraction) - 0.45)} GB`,
  );
  const uv = (frac: number, msg: string) => log(frac, `INFO:     ${msg}`, false, "stderr");
  uv(0.95, "Started server process [1]");
  uv(0.95, "Waiting for application startup.");
  steps.push({ at: T, listen: true });
  uv(1, "Application startup complete.");
  uv(1, `Uvicorn running on http://${p.host}:${p.port} (Press CTRL+C to quit)`);
  log(1, "The server is fired up and ready to roll!", false);
  return steps;
}

export function sglangLite(p: SglangPlan): LiteEngine {
  const spec = specState();
  return {
    host: p.host,
    port: p.port,
    apiKey: p.apiKey,
    steps: sglangBoot(p),
    isReady: (line) => line.includes("Application startup complete."),
    loading: { status: 503, body: "" },
    models: (created) =>
      JSON.stringify({
        object: "list",
        data: [
          { id: p.served, object: "model", created, owned_by: "sglang", root: p.model, max_model_len: p.contextLen },
        ],
      }),
    refuse: () => null,
    chat: {
      dialect: "sglang",
      served: p.served,
      jinja: true,
      reasoning: p.reasoningParser !== null,
      tools: p.toolCallParser !== null,
    },
    answered: (body) => specServe(p.spec, spec, body),
    // http_server.py (sgl-project/sglang 0025436e): /health and /health_generate are one handler that sends
    // a one-token generation, sleeps 1 s, then answers 200 with no body if the scheduler answered, and
    // retries each second until SGLANG_HEALTH_CHECK_TIMEOUT (20 s) before a 503
    health: (wedged) =>
      wedged ? { status: 503, body: "", afterMs: 1000 * p.healthTimeoutS } : { status: 200, body: "", afterMs: 1000 },
    // FastAPI's own 404 (/metrics is only mounted with --enable-metrics)
    notFound: JSON.stringify({ detail: "Not Found" }),
    accessLine: (method, url, addr, status) =>
      `[${stamp(new Date())}] INFO:     ${addr} - "${method} ${url} HTTP/1.1" ${status}\n`,
    stopLine: `[${stamp(new Date())}] INFO:     Shutting down\n`,
    // SGLang's metrics collector gauges (with --enable-metrics only), one sample per label set: names and HELP
    // of num_running_reqs, max_total_num_tokens and spec_accept_* as in python/sglang/srt/metrics/collector.py
    // (sgl-project/sglang 00ae9c15, whose scheduler labels carry moe_ep_rank too). sglang:context_len is not among
    // that file's gauges: the double still serves it, unconfirmed; verify over HTTP asks /v1/models'
    // max_model_len first
    metrics: () => {
      if (!p.metrics) return null;
      const l = `model_name="${p.served}",engine_type="unified",tp_rank="0",pp_rank="0",moe_ep_rank="0"`;
      return [
        "# HELP sglang:max_total_num_tokens Maximum total number of tokens in the KV cache pool.",
        "# TYPE sglang:max_total_num_tokens gauge",
        `sglang:max_total_num_tokens{${l}} ${p.kvTokens}.0`,
        "# HELP sglang:context_len The context length of the model.",
        "# TYPE sglang:context_len gauge",
        `sglang:context_len{${l}} ${p.contextLen}.0`,
        "# HELP sglang:num_running_reqs The number of running requests.",
        "# TYPE sglang:num_running_reqs gauge",
        `sglang:num_running_reqs{${l}} 0.0`,
        ...(spec.acceptLength === null
          ? []
          : [
              "# HELP sglang:spec_accept_length The average acceptance length of speculative decoding.",
              "# TYPE sglang:spec_accept_length gauge",
              `sglang:spec_accept_length{${l}} ${prom(spec.acceptLength)}`,
              "# HELP sglang:spec_accept_rate The average acceptance rate of speculative decoding (`accepted tokens / total draft tokens` in batch).",
              "# TYPE sglang:spec_accept_rate gauge",
              `sglang:spec_accept_rate{${l}} ${prom(spec.acceptRate ?? 0)}`,
            ]),
        "",
      ].join("\n");
    },
  };
}
