// The double as llama.cpp's llama-server (`engine.mjs llama-server -m MODEL.gguf ...`): llama-server's
// argv, its boot lines (server.cpp, llama-model-loader.cpp, llama-context.cpp, gguf.cpp wordings), and a
// model file that must exist and start with the GGUF magic, read for real inside the container. Pure
// but for the file check passed in.
import type { Step } from "./boot.js";
import type { LiteEngine } from "./lite-server.js";

export interface LlamaPlan {
  model: string;
  alias: string;
  host: string;
  port: number;
  ctx: number;
  parallel: number;
  jinja: boolean;
  /** --metrics: /metrics answers (else its 501) */
  metrics: boolean;
  apiKey: string | null;
  bootSeconds: number;
  fail: "oom" | null;
}

export type ModelFile = "ok" | "missing" | "not-gguf";

export class LlamaArgvError extends Error {}

export const VALUE = new Map<string, string>([
  ["-m", "model"],
  ["--model", "model"],
  ["-c", "ctx"],
  ["--ctx-size", "ctx"],
  ["-np", "parallel"],
  ["--parallel", "parallel"],
  ["--port", "port"],
  ["--host", "host"],
  ["-a", "alias"],
  ["--alias", "alias"],
  ["-ngl", "ngl"],
  ["--n-gpu-layers", "ngl"],
  ["--gpu-layers", "ngl"],
  ["--api-key", "api-key"],
  ["-t", "threads"],
  ["--threads", "threads"],
  ["--reasoning-format", "reasoning-format"],
  ["--chat-template", "chat-template"],
  ["--chat-template-file", "chat-template-file"],
  ["-b", "batch"],
  ["-ub", "ubatch"],
  ["--cache-type-k", "ctk"],
  ["--cache-type-v", "ctv"],
  ["-fa", "fa"],
  ["--flash-attn", "fa"],
]);
export const SWITCH = new Set(["--jinja", "--no-webui", "--metrics", "--cont-batching", "--no-mmap", "--mlock"]);

function int(v: string, flag: string): number {
  const n = Number(v);
  // common/arg.cpp: std::stoi throws, reported as `error while handling argument "-c": stoi`
  if (!Number.isInteger(n)) throw new LlamaArgvError(`error while handling argument "${flag}": stoi`);
  return n;
}

export function llamaPlan(args: readonly string[], env: Record<string, string | undefined>): LlamaPlan {
  const v = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (SWITCH.has(a)) {
      switches.add(a);
      continue;
    }
    const key = VALUE.get(a);
    if (!key) throw new LlamaArgvError(`error: invalid argument: ${a}`);
    const val = args[++i];
    if (val === undefined) throw new LlamaArgvError(`error: expected value for argument: ${a}`);
    v.set(key, val);
    if (
      key !== "model" &&
      key !== "host" &&
      key !== "alias" &&
      key !== "api-key" &&
      key !== "reasoning-format" &&
      key !== "chat-template" &&
      key !== "chat-template-file" &&
      key !== "ctk" &&
      key !== "ctv" &&
      key !== "fa"
    )
      int(val, a);
  }
  const model = v.get("model");
  if (!model) throw new LlamaArgvError("error: --model is required (or -hf)");
  const boot = Number(env.FAKE_BOOT_SECONDS);
  return {
    model,
    alias: v.get("alias") ?? model,
    host: v.get("host") ?? "127.0.0.1",
    port: Number(v.get("port") ?? 8080),
    ctx: Number(v.get("ctx") ?? 4096),
    parallel: Number(v.get("parallel") ?? 1),
    jinja: switches.has("--jinja"),
    metrics: switches.has("--metrics"),
    apiKey: v.get("api-key") ?? env.LLAMA_API_KEY ?? null,
    bootSeconds: Number.isFinite(boot) && boot > 0 ? boot : 2,
    fail: env.FAKE_FAIL === "oom" ? "oom" : null,
  };
}

/** llama-server's log (all of it on stderr), timed; `listen` comes first: it answers 503 while loading. */
export function llamaBoot(p: LlamaPlan, file: ModelFile): Step[] {
  const T = p.bootSeconds * 1000;
  const steps: Step[] = [];
  const log = (frac: number, text: string) =>
    steps.push({ at: Math.round(T * frac), stream: "stderr", text: () => `${text}\n` });
  log(0, "build: 6210 (4d917cd4) with cc (Debian 12.2.0-14) 12.2.0 for x86_64-linux-gnu");
  log(0, "system info: n_threads = 8, n_threads_batch = 8, total_threads = 16");
  log(0, "main: binding port with default address family");
  steps.push({ at: 0, listen: true });
  log(0, `main: HTTP server is listening, hostname: ${p.host}, port: ${p.port}, http threads: 15`);
  log(0, "main: loading model");
  log(0.02, `srv    load_model: loading model '${p.model}'`);
  const down = (frac: number, cause: string[]) => {
    for (const l of cause) log(frac, l);
    log(frac, "llama_model_load_from_file_impl: failed to load model");
    log(frac, `common_init_from_params: failed to load model '${p.model}'`);
    log(frac, `srv    load_model: failed to load model, '${p.model}'`);
    log(frac, "srv    operator(): operator(): cleaning up before exit...");
    log(frac, "main: exiting due to model loading error");
    steps.push({ at: Math.round(T * frac) + 20, exit: 1 });
    return steps;
  };
  if (file === "missing")
    return down(0.05, [
      `gguf_init_from_file: failed to open GGUF file '${p.model}'`,
      `llama_model_load: error loading model: llama_model_loader: failed to load model from ${p.model}`,
    ]);
  if (file === "not-gguf")
    return down(0.05, [
      "gguf_init_from_file_impl: invalid magic characters: 'xxxx', expected 'GGUF'",
      `llama_model_load: error loading model: llama_model_loader: failed to load model from ${p.model}`,
    ]);
  log(
    0.2,
    `llama_model_loader: loaded meta data with 33 key-value pairs and 399 tensors from ${p.model} (version GGUF V3 (latest))`,
  );
  log(0.4, "load_tensors: offloading 36 repeating layers to GPU");
  log(0.4, "load_tensors: offloaded 37/37 layers to GPU");
  if (p.fail === "oom") {
    return down(0.5, [
      "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 8456.12 MiB on device 0: cudaMalloc failed: out of memory",
      "alloc_tensor_range: failed to allocate CUDA0 buffer of size 8866823168",
      "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
    ]);
  }
  log(0.6, "llama_context: constructing llama_context");
  log(0.6, `llama_context: n_seq_max     = ${p.parallel}`);
  log(0.6, `llama_context: n_ctx         = ${p.ctx}`);
  log(0.6, `llama_context: n_ctx_per_seq = ${Math.floor(p.ctx / p.parallel)}`);
  log(0.6, "llama_context: n_batch       = 2048");
  log(0.7, `llama_kv_cache_unified:      CUDA0 KV buffer size = ${(p.ctx * 0.140625).toFixed(2)} MiB`);
  log(0.9, `srv          init: initializing slots, n_slots = ${p.parallel}`);
  log(1, "main: model loaded");
  log(1, `main: server is listening on http://${p.host}:${p.port} - starting the main loop`);
  log(1, "srv  update_slots: all slots are idle");
  return steps;
}

/** `/v1/models` as llama-server answers it (the alias, or the model path). */
export function llamaModels(p: LlamaPlan, created: number): string {
  return JSON.stringify({
    object: "list",
    data: [{ id: p.alias, object: "model", created, owned_by: "llamacpp", meta: { n_ctx_train: 40960 } }],
  });
}

export const JINJA_REFUSAL = JSON.stringify({
  error: { code: 500, message: "tools param requires --jinja flag", type: "server_error" },
});

/** llama-server's refusal of tools without --jinja (a 500, as the real one sends). */
export function toolsRefusal(p: LlamaPlan, body: string): string | null {
  if (p.jinja) return null;
  try {
    const req = JSON.parse(body) as { tools?: unknown[] };
    return Array.isArray(req.tools) && req.tools.length > 0 ? JINJA_REFUSAL : null;
  } catch {
    return null;
  }
}

/** llama-server as the lite server plays it: it listens at once and answers 503 until its model loaded. */
export function llamaLite(p: LlamaPlan, file: ModelFile): LiteEngine {
  return {
    host: p.host,
    port: p.port,
    apiKey: p.apiKey,
    steps: llamaBoot(p, file),
    isReady: (line) => line.startsWith("main: model loaded"),
    loading: {
      status: 503,
      body: JSON.stringify({ error: { code: 503, message: "Loading model", type: "unavailable_error" } }),
    },
    models: (created) => llamaModels(p, created),
    refuse: (body) => {
      const r = toolsRefusal(p, body);
      return r ? { status: 500, body: r } : null;
    },
    // --reasoning-format defaults to auto (thinking split out); tool calls need --jinja
    chat: { dialect: "llama.cpp", served: p.alias, jinja: p.jinja, reasoning: true, tools: p.jinja },
    accessLine: (method, url, addr, status) => `srv  log_server_r: request: ${method} ${url} ${addr} ${status}\n`,
    stopLine: "srv    operator(): operator(): cleaning up before exit...\n",
    // /metrics (reference §3): only with --metrics, else a 501 that says so; the llamacpp: counters and gauges
    // (their HELP texts are left out: not checked against the source here)
    metrics: () =>
      p.metrics
        ? [
            ...["prompt_tokens_total", "tokens_predicted_total", "n_decode_total"].flatMap((n) => [
              `# TYPE llamacpp:${n} counter`,
              `llamacpp:${n} 0`,
            ]),
            ...["requests_processing", "requests_deferred"].flatMap((n) => [
              `# TYPE llamacpp:${n} gauge`,
              `llamacpp:${n} 0`,
            ]),
            "",
          ].join("\n")
        : null,
    metricsOff: {
      status: 501,
      body: JSON.stringify({
        error: {
          code: 501,
          message: "This server does not support metrics endpoint. Start it with `--metrics`",
          type: "not_supported_error",
        },
      }),
    },
    // get_props: the per-slot context (the -c value split across -np slots) and the slot count
    props: () =>
      JSON.stringify({
        default_generation_settings: {
          params: { temperature: 0.8, top_k: 40, top_p: 0.95 },
          n_ctx: Math.floor(p.ctx / p.parallel),
        },
        total_slots: p.parallel,
        model_alias: p.alias,
        model_path: p.model,
        modalities: { vision: false, audio: false },
        endpoint_slots: true,
        endpoint_props: false,
        endpoint_metrics: p.metrics,
        chat_template: "{{ messages }}",
        build_info: "b6100-0000000",
      }),
  };
}
