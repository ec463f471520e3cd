// Contract flags ("--reasoning-parser qwen3", "--enable-auto-tool-choice") matched against a
// parsed argv. vLLM reads `--max_model_len` as `--max-model-len` and the last occurrence wins,
// so matching does the same.
import type { Flag } from "./model.js";

export function parseFlagSpec(spec: string): { name: string; value: string | null } {
  const s = spec.trim();
  const m = /^(\S+?)(?:=(.*)|\s+(.*))?$/s.exec(s);
  const name = m?.[1] ?? s;
  const raw = m?.[2] ?? m?.[3];
  return { name, value: raw === undefined ? null : unquote(raw.trim()) };
}

function unquote(v: string): string {
  const q = v[0];
  return (q === "'" || q === '"') && v.length >= 2 && v.endsWith(q) ? v.slice(1, -1) : v;
}

/**
 * One engine flag spelt two ways: llama.cpp's short forms, vLLM's and SGLang's parallelism spellings. A
 * script that swaps `-c 16384` for `--ctx-size 16384` drops nothing, and a contract may use either.
 * Mapped on both sides of every comparison, so a name two engines read differently still compares alike.
 */
const ALIASES: Readonly<Record<string, string>> = {
  "-c": "--ctx-size",
  "-a": "--alias",
  "-m": "--model",
  "-np": "--parallel",
  // llama.cpp's common/arg.cpp: {"-v", "--verbose", "--log-verbose"}
  "-v": "--verbose",
  "--log-verbose": "--verbose",
  "-t": "--threads",
  "-tb": "--threads-batch",
  "-b": "--batch-size",
  "-ub": "--ubatch-size",
  "-sm": "--split-mode",
  "-mg": "--main-gpu",
  "-dev": "--device",
  "-n": "--n-predict",
  "--predict": "--n-predict",
  "-ngl": "--n-gpu-layers",
  "--gpu-layers": "--n-gpu-layers",
  "-fa": "--flash-attn",
  "-ctk": "--cache-type-k",
  "-ctv": "--cache-type-v",
  "-tp": "--tensor-parallel-size",
  "--tp": "--tensor-parallel-size",
  "--tp-size": "--tensor-parallel-size",
  "-pp": "--pipeline-parallel-size",
  "--pp-size": "--pipeline-parallel-size",
  "-dp": "--data-parallel-size",
  "--dp": "--data-parallel-size",
  "--dp-size": "--data-parallel-size",
  "-q": "--quantization",
  // llama.cpp's draft-model options (common/arg.cpp lists each with its older spellings)
  "-md": "--spec-draft-model",
  "--model-draft": "--spec-draft-model",
  "-ngld": "--spec-draft-ngl",
  "--gpu-layers-draft": "--spec-draft-ngl",
  "--n-gpu-layers-draft": "--spec-draft-ngl",
  "-ctkd": "--spec-draft-type-k",
  "--cache-type-k-draft": "--spec-draft-type-k",
  "-ctvd": "--spec-draft-type-v",
  "--cache-type-v-draft": "--spec-draft-type-v",
  "-devd": "--spec-draft-device",
  "--device-draft": "--spec-draft-device",
  "--draft-p-min": "--spec-draft-p-min",
  // llama.cpp's common/arg.cpp registers the web UI's switches as {"--ui", "--webui"} and {"--no-ui", "--no-webui"}:
  // the `webui` spellings are the older ones, kept as aliases
  "--webui": "--ui",
  "--no-webui": "--no-ui",
  "--webui-config": "--ui-config",
  "--webui-config-file": "--ui-config-file",
  "--webui-mcp-proxy": "--ui-mcp-proxy",
  "--no-webui-mcp-proxy": "--no-ui-mcp-proxy",
  // vLLM 0.10.2+: request logging is off by default, `--enable-log-requests` a BooleanOptionalAction, and the older
  // `--disable-log-requests` a deprecated spelling of its `--no-` form
  "--disable-log-requests": "--no-enable-log-requests",
  // vLLM PR #26016 (0.11.1): `--cuda-graph-sizes` deprecated as the same setting as the new `--cudagraph-capture-sizes`
  "--cuda-graph-sizes": "--cudagraph-capture-sizes",
};

export function normalizeFlagName(name: string): string {
  const m = /^(--?)(.*)$/.exec(name);
  const n = m ? m[1]! + m[2]!.replace(/_/g, "-") : name;
  return ALIASES[n] ?? n;
}

/** Equal as text, or as JSON when both sides are JSON (key order and spacing do not matter). */
export function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(sortKeys(JSON.parse(a))) === JSON.stringify(sortKeys(JSON.parse(b)));
  } catch {
    return false;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([k, x]) => [k, sortKeys(x)]),
    );
  }
  return v;
}

export function findFlag(
  flags: Flag[],
  spec: string,
): { status: "present" | "missing" | "value-differs"; flag?: Flag; expectedValue: string | null } {
  const { name, value: expectedValue } = parseFlagSpec(spec);
  const want = normalizeFlagName(name);
  const flag = flags.filter((f) => normalizeFlagName(f.name) === want).at(-1) ?? dottedFlag(flags, want);
  if (!flag) return { status: "missing", expectedValue };
  if (expectedValue === null) return { status: "present", flag, expectedValue };
  const actual = [flag.value, flag.resolvedValue].filter((v): v is string => v !== null && v !== undefined);
  const ok = actual.some((v) => sameValue(v, expectedValue));
  return { status: ok ? "present" : "value-differs", flag, expectedValue };
}

/**
 * vLLM reads `--speculative-config.method mtp` as the key `method` of `--speculative-config`: a contract on either
 * spelling is checked against the other (a dotted contract against the JSON value, a JSON contract against the
 * dotted flags gathered into one object).
 */
function dottedFlag(flags: readonly Flag[], want: string): Flag | undefined {
  const dot = want.indexOf(".");
  if (dot > 2) {
    const whole = flags.filter((f) => normalizeFlagName(f.name) === want.slice(0, dot)).at(-1);
    const v = whole?.resolvedValue ?? whole?.value;
    if (!whole || v === null || v === undefined) return undefined;
    let at: unknown;
    try {
      at = JSON.parse(v);
    } catch {
      return undefined;
    }
    // the flag name was normalized (dashes); JSON keys are written with underscores
    for (const key of want.slice(dot + 1).split(".")) {
      const o = at && typeof at === "object" ? (at as Record<string, unknown>) : {};
      at = o[key] ?? o[key.replace(/-/g, "_")];
    }
    return at === undefined
      ? undefined
      : {
          ...whole,
          name: want,
          value: typeof at === "string" ? at : JSON.stringify(at),
          resolvedValue: typeof at === "string" ? at : JSON.stringify(at),
        };
  }
  const parts = flags.filter((f) => normalizeFlagName(f.name).startsWith(`${want}.`));
  if (!parts.length) return undefined;
  const obj: Record<string, unknown> = {};
  for (const f of parts) {
    // keys as written (underscores kept), as the engine builds the object
    const keys = f.name.slice(f.name.indexOf(".") + 1).split(".");
    let node = obj;
    for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
    const raw = f.resolvedValue ?? f.value;
    let v: unknown = raw ?? true;
    try {
      if (raw !== null && raw !== undefined) v = JSON.parse(raw);
    } catch {
      v = raw;
    }
    node[keys.at(-1)!] = v;
  }
  const json = JSON.stringify(obj);
  return { ...parts[0]!, name: want, value: json, resolvedValue: json };
}
