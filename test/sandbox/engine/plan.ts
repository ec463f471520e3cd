// argv + env -> what the double will do: the memory plan vLLM would compute and the chosen failure.
// Pure: no I/O, so the outer machine's unit tests cover it.
import { decodeModel, type DecodeModel } from "./decode.js";
import { breaksOf, type Break } from "./tools.js";

const GiB = 1024 ** 3;
const BLOCK = 16;
const BOOLEAN_FLAGS = new Set([
  "enable-auto-tool-choice",
  "enforce-eager",
  "trust-remote-code",
  "enable-prefix-caching",
  "no-enable-prefix-caching",
  "disable-log-requests",
  "enable-chunked-prefill",
  "disable-log-stats",
  "expert-precise-memory",
]);

const SENSITIVE = new Set(["api_key", "hf_token", "watermark_config"]);

export type Outcome =
  | { kind: "ready" }
  | { kind: "kv-insufficient"; neededGiB: number; availGiB: number; estimatedMaxLen: number }
  | { kind: "no-kv-memory" }
  | { kind: "oom"; step: "load" | "profile" | "graph"; triedGiB: number; freeGiB: number }
  | { kind: "dynamo"; constant: number };

export interface Plan {
  model: string;
  servedName: string;
  host: string;
  port: number;
  maxModelLen: number;
  maxNumSeqs: number;
  enforceEager: boolean;
  apiKey: string | null;
  reasoningParser: string | null;
  autoToolChoice: boolean;
  toolCallParser: string | null;
  speculative: { method: string; numSpeculativeTokens: number } | null;
  vramGiB: number;
  util: number;
  modelGiB: number;
  activationGiB: number;
  graphEstimateGiB: number;
  availKvGiB: number;
  kvTokens: number;
  maxConcurrency: number;
  bootSeconds: number;
  crashAfterSeconds: number | null;
  outcome: Outcome;
  nonDefault: Record<string, string | number | boolean>;
  decode: DecodeModel;
  compileCacheHit: boolean;
  /** FAKE_BREAK: the API contracts this engine breaks (tools.ts) */
  breaks: Set<Break>;
}

export class ArgvError extends Error {}

export function parseFlags(args: readonly string[]): { positional: string[]; flags: Map<string, string | true> } {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) {
      flags.set(a.slice(2, eq), a.slice(eq + 1));
      continue;
    }
    const name = a.slice(2);
    const next = args[i + 1];
    if (BOOLEAN_FLAGS.has(name) || next === undefined || next.startsWith("--")) flags.set(name, true);
    else {
      flags.set(name, next);
      i++;
    }
  }
  return { positional, flags };
}

function num(flags: Map<string, string | true>, name: string, fallback: number): number {
  const v = flags.get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v === true || !Number.isFinite(n)) throw new ArgvError(`argument --${name}: invalid value: '${String(v)}'`);
  return n;
}

function envNum(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const n = Number(env[name]);
  return env[name] !== undefined && Number.isFinite(n) ? n : fallback;
}

export const round2 = (x: number) => Math.round(x * 100) / 100;

export function makePlan(args: readonly string[], env: Record<string, string | undefined>): Plan {
  const { positional, flags } = parseFlags(args);
  const model = positional[0];
  if (!model)
    throw new ArgvError(
      "the model path must be the first argument (the image's entrypoint runs `vllm serve MODEL ...`)",
    );
  const str = (n: string) => {
    const v = flags.get(n);
    return typeof v === "string" ? v : null;
  };
  const maxModelLen = num(flags, "max-model-len", envNum(env, "FAKE_MAX_POSITION", 40_960));
  const maxNumSeqs = num(flags, "max-num-seqs", 256);
  const enforceEager = flags.has("enforce-eager");
  const vramGiB = envNum(env, "FAKE_VRAM_GIB", 32);
  const util = num(flags, "gpu-memory-utilization", 0.9);
  const modelGiB = envNum(env, "FAKE_MODEL_GIB", 15.27);
  const bytesPerToken = envNum(env, "FAKE_KV_BYTES_PER_TOKEN", 98_304);
  const activationGiB = 1.42;
  const graphEstimateGiB = enforceEager ? 0 : round2(0.25 + 0.004 * Math.min(maxNumSeqs, 512));
  const kvFlag = flags.get("kv-cache-memory-bytes");
  const availKv =
    kvFlag !== undefined
      ? num(flags, "kv-cache-memory-bytes", 0)
      : (vramGiB * util - modelGiB - activationGiB - graphEstimateGiB) * GiB;
  const blocks = Math.max(0, Math.floor(availKv / (bytesPerToken * BLOCK)));
  const kvTokens = blocks * BLOCK;
  let spec: Plan["speculative"] = null;
  const specText = str("speculative-config");
  if (specText) {
    let parsed: { method?: string; num_speculative_tokens?: number };
    try {
      parsed = JSON.parse(specText) as typeof parsed;
    } catch {
      throw new ArgvError(`argument --speculative-config: invalid JSON: '${specText}'`);
    }
    spec = { method: parsed.method ?? "ngram", numSpeculativeTokens: parsed.num_speculative_tokens ?? 1 };
  }
  const fail = env.FAKE_FAIL ?? "";
  const step = (env.FAKE_FAIL_STEP ?? "profile") as "load" | "profile" | "graph";
  let outcome: Outcome = { kind: "ready" };
  const neededBytes = maxModelLen * bytesPerToken;
  if (fail === "oom")
    outcome = {
      kind: "oom",
      step,
      triedGiB: envNum(env, "FAKE_OOM_TRIED_GIB", 2),
      freeGiB: envNum(env, "FAKE_OOM_FREE_GIB", 1.12),
    };
  else if (fail === "dynamo") outcome = { kind: "dynamo", constant: maxNumSeqs + 1 };
  else if (availKv <= 0) outcome = { kind: "no-kv-memory" };
  else if (neededBytes > availKv) {
    outcome = {
      kind: "kv-insufficient",
      neededGiB: round2(neededBytes / GiB),
      availGiB: round2(availKv / GiB),
      estimatedMaxLen: Math.floor(availKv / bytesPerToken),
    };
  }
  const crashEnv = env.FAKE_CRASH_AFTER;
  const crashAfterSeconds = crashEnv !== undefined ? envNum(env, "FAKE_CRASH_AFTER", 1) : fail === "crash" ? 1 : null;
  const nonDefault: Plan["nonDefault"] = { model_tag: model };
  for (const [k, v] of flags) {
    const key = k.replace(/-/g, "_");
    // Newest vLLM redacts these in `non-default args` (older versions printed them verbatim).
    nonDefault[key] = SENSITIVE.has(key)
      ? "***"
      : v === true
        ? true
        : Number.isFinite(Number(v)) && v !== ""
          ? Number(v)
          : v;
  }
  return {
    model,
    servedName: str("served-model-name") ?? model,
    host: str("host") ?? "0.0.0.0",
    port: num(flags, "port", 8000),
    maxModelLen,
    maxNumSeqs,
    enforceEager,
    apiKey: str("api-key") ?? env.VLLM_API_KEY ?? null,
    reasoningParser: str("reasoning-parser"),
    autoToolChoice: flags.has("enable-auto-tool-choice"),
    toolCallParser: str("tool-call-parser"),
    speculative: spec,
    vramGiB,
    util,
    modelGiB,
    activationGiB,
    graphEstimateGiB,
    availKvGiB: round2(availKv / GiB),
    kvTokens,
    maxConcurrency: kvTokens / maxModelLen,
    bootSeconds: envNum(env, "FAKE_BOOT_SECONDS", 3),
    crashAfterSeconds,
    outcome,
    nonDefault,
    decode: decodeModel(flags, env),
    compileCacheHit: env.FAKE_COMPILE_CACHE === "hit",
    breaks: breaksOf(env),
  };
}
