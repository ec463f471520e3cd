// The container's PID 1 argv (`/proc/1/cmdline`) read as engine flags, and its line-by-line drift from
// the serve script's engine argv. Pure.
import { findFlag, normalizeFlagName, parseFlagSpec, sameValue } from "../../domain/launch/contract.js";
import { readFlags } from "../../domain/launch/flags.js";
import type { Flag, Word } from "../../domain/launch/model.js";
import { mask } from "../../domain/redact/mask.js";

/**
 * The engine's own arguments: after `vllm serve`, after `-m MODULE` (vLLM, SGLang), after llama-server, else from the
 * first `--flag`.
 */
export function engineArgs(argv: readonly string[]): string[] {
  const serve = argv.findIndex((w, i) => w === "serve" && i > 0 && /(^|\/)vllm$/.test(argv[i - 1]!));
  if (serve >= 0) return argv.slice(serve + 1);
  const m = argv.indexOf("-m");
  if (m >= 0 && m + 1 < argv.length && /^(vllm|sglang)\./.test(argv[m + 1]!)) return argv.slice(m + 2);
  // llama.cpp's server takes short flags (-m MODEL) first
  const llama = argv.findIndex((w) => /(^|\/)(llama-)?server$/.test(w));
  if (llama >= 0) return argv.slice(llama + 1);
  const first = argv.findIndex((w) => w.startsWith("--"));
  return first < 0 ? [] : argv.slice(first);
}

export function liveFlags(argv: readonly string[]): Flag[] {
  const words: Word[] = engineArgs(argv).map((text, i) => ({
    text,
    line: i + 1,
    optional: false,
    dynamic: false,
    resolved: text,
  }));
  return readFlags(words).flags;
}

export function flagValue(flags: readonly Flag[], name: string): string | null {
  const want = normalizeFlagName(name);
  return flags.filter((f) => normalizeFlagName(f.name) === want).at(-1)?.value ?? null;
}

export interface ContractResult {
  spec: string;
  status: "present" | "missing" | "value-differs";
  live: string | null;
  expected: string | null;
}

export function contractFlags(flags: Flag[], specs: readonly string[]): ContractResult[] {
  return specs.map((spec) => {
    const r = findFlag(flags, spec);
    const name = parseFlagSpec(spec).name;
    return {
      spec,
      status: r.status,
      live: r.flag ? mask(name, r.flag.value) : null,
      expected: mask(name, r.expectedValue),
    };
  });
}

export interface DriftItem {
  flag: string;
  kind: "missing-on-host" | "added-on-host" | "value-differs" | "unresolved";
  repo: string | null;
  host: string | null;
  /** line of the flag in the serve script */
  line: number | null;
}

const show = (f: Flag | undefined) => (f === undefined ? null : f.value === null ? "(switch)" : f.value);

/** Script flags (the last occurrence of each name wins, as vLLM reads them) against the live ones. */
export function driftOf(script: readonly Flag[], live: readonly Flag[]): DriftItem[] {
  const byName = (flags: readonly Flag[]) => {
    const m = new Map<string, Flag>();
    for (const f of flags) m.set(normalizeFlagName(f.name), f);
    return m;
  };
  const repo = byName(script);
  const host = byName(live);
  const out: DriftItem[] = [];
  for (const [name, f] of repo) {
    const h = host.get(name);
    if (!h) {
      // ${X:+--flag} that the script's defaults leave off is not drift.
      if (!f.optional)
        out.push({ flag: name, kind: "missing-on-host", repo: mask(name, show(f)), host: null, line: f.line });
      continue;
    }
    if (f.value === null && h.value === null) continue;
    const want = f.resolvedValue ?? (f.value !== null && !/\$/.test(f.value) ? f.value : undefined);
    if (want === undefined) {
      out.push({ flag: name, kind: "unresolved", repo: mask(name, show(f)), host: mask(name, show(h)), line: f.line });
      continue;
    }
    if (h.value === null || !sameValue(want, h.value))
      out.push({ flag: name, kind: "value-differs", repo: mask(name, want), host: mask(name, show(h)), line: f.line });
  }
  for (const [name, h] of host) {
    if (!repo.has(name))
      out.push({ flag: name, kind: "added-on-host", repo: null, host: mask(name, show(h)), line: null });
  }
  return out;
}

export function describeDrift(d: DriftItem, script: string): string {
  const at = d.line === null ? "" : ` (${script}:${d.line})`;
  switch (d.kind) {
    case "missing-on-host":
      return `${d.flag}: in the repo${at}${d.repo === "(switch)" ? "" : ` as ${d.repo}`}, absent from the live argv`;
    case "added-on-host":
      return `${d.flag}: live argv has ${d.host}, the repo's script does not pass it`;
    case "value-differs":
      return `${d.flag}: repo${at} ${d.repo}, host ${d.host}`;
    case "unresolved":
      return `${d.flag}: repo${at} ${d.repo} is set at run time, host ${d.host} (not compared)`;
  }
}
