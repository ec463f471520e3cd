// preflight.dropped-flags: engine flags present at the base ref but gone now. A dropped flag that
// changes a client contract fails; any other dropped flag warns (it may be intended, but say so).
import { normalizeFlagName } from "../../domain/launch/contract.js";
import type { Flag } from "../../domain/launch/model.js";
import { codeSpan } from "../../domain/report/code-span.js";
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import { mask } from "../../domain/redact/mask.js";
import type { EngineKind } from "../../domain/engine/kind.js";
import { lossOf } from "../../domain/engine/flag-roles.js";

const CHECK = "preflight.dropped-flags";

/** Flags whose loss silently changes what clients get (seed 000 §6), or what the host can hold. */
export const CRITICAL_FLAGS = new Set([
  "--reasoning-parser",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "--chat-template",
  "--default-chat-template-kwargs",
  "--served-model-name",
  "--max-model-len",
  "--kv-cache-memory-bytes",
  "--speculative-config",
  "--trust-remote-code",
  "--port",
]);

/** What clients rely on, per engine: SGLang and llama.cpp name context, served name and templates their own way. */
export const CLIENT_FLAGS: Record<EngineKind, ReadonlySet<string>> = {
  vllm: CRITICAL_FLAGS,
  sglang: new Set([...CRITICAL_FLAGS, "--context-length"]),
  "llama.cpp": new Set([
    "--port",
    "-c",
    "--ctx-size",
    "--jinja",
    "-a",
    "--alias",
    "--chat-template",
    "--chat-template-file",
    "--reasoning-format",
    "--reasoning-budget",
  ]),
};

const words = (name: string) => new Set(normalizeFlagName(name).replace(/^-+/, "").split("-"));

/** `ctx-size` of `context-size`, `ngl` of `n-gpu-layers`: the short name's letters in order in the long one. */
function abbreviates(a: string, b: string): boolean {
  const [short, long] = [a, b].map((n) =>
    normalizeFlagName(n)
      .replace(/[^a-z0-9]/gi, "")
      .toLowerCase(),
  );
  const [s, l] = short!.length <= long!.length ? [short!, long!] : [long!, short!];
  if (!s || s[0] !== l[0]) return false;
  let i = 0;
  for (const ch of l) if (ch === s[i]) i++;
  return i === s.length;
}

/** One setting, each engine's spelling: vLLM's, SGLang's, llama.cpp's. */
const SETTINGS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(["--max-model-len", "--context-length", "--ctx-size"]),
  new Set(["--tensor-parallel-size", "--tp-size"]),
  new Set(["--gpu-memory-utilization", "--mem-fraction-static"]),
  new Set(["--max-num-seqs", "--max-running-requests", "--parallel"]),
  new Set(["--model", "--model-path"]),
];

/**
 * One option under a fork's name and the upstream one (the least tokens between two context checkpoints:
 * ik_llama.cpp's `--ctx-checkpoints-interval`, llama.cpp's `--checkpoint-min-step`): a switch between them is the
 * option respelt, whatever value it has now (the value is the setting's, not a sign of a port).
 */
const RESPELT: ReadonlyArray<ReadonlySet<string>> = [new Set(["--ctx-checkpoints-interval", "--checkpoint-min-step"])];
const sameSetting = (a: string, b: string) =>
  SETTINGS.some((s) => s.has(normalizeFlagName(a)) && s.has(normalizeFlagName(b)));

/**
 * `--draft-model "$D"` gone and `--spec-draft-model "$D"` new, or `--context-size $CTX` gone and `--ctx-size $CTX`
 * new: the same value (a path, a name, a variable, not a bare number) under a name holding every word of the old
 * one, or an abbreviation of it, is one setting respelt (a flag the engine never knew, fixed), not a drop. The added
 * flag, or null.
 */
function movedValue(f: Flag, added: readonly Flag[]): Flag | null {
  const twin = added.filter((g) =>
    RESPELT.some((r) => r.has(normalizeFlagName(f.name)) && r.has(normalizeFlagName(g.name)) && g.name !== f.name),
  );
  if (twin.length === 1) return twin[0]!;
  if (f.value === null || f.value === "") return null;
  const old = words(f.name);
  const same = added.filter((g) => g.value === f.value);
  const hit = same.length === 1 ? same[0]! : null;
  if (!hit) return null;
  // a bare number is too common a value to say the setting moved unless the new name abbreviates the old, or is
  // the same setting in another engine's words (a command ported from vLLM to SGLang)
  if (abbreviates(f.name, hit.name) || sameSetting(f.name, hit.name)) return hit;
  return /[^\d.]/.test(f.value) && f.value.length >= 3 && [...old].every((w) => words(hit.name).has(w)) ? hit : null;
}

/**
 * A setting and the switch that means it, in the engine's own parser: vLLM's `--worker-use-ray` set
 * `distributed_executor_backend = "ray"` (vllm/engine/arg_utils.py, until the switch was removed).
 */
const SWITCHES: Readonly<Record<string, { flag: string; value: string }>> = {
  "--worker-use-ray": { flag: "--distributed-executor-backend", value: "ray" },
};

/** `--distributed-executor-backend ray` now written `--worker-use-ray` (or back): the same setting. */
function switchFor(f: Flag, now: readonly Flag[]): boolean {
  const val = (x: Flag) => (x.resolvedValue ?? x.value ?? "").replace(/^["']|["']$/g, "");
  const to = Object.entries(SWITCHES).find(([, s]) => s.flag === f.name && s.value === val(f))?.[0];
  if (to) return now.some((n) => n.name === to);
  const from = SWITCHES[f.name];
  return from !== undefined && now.some((n) => n.name === from.flag && val(n) === from.value);
}

/**
 * `--disable-radix-cache` now written `--disable-radix-cach`: SGLang's server parser is a plain
 * `argparse.ArgumentParser()` (launch_server.py) and vLLM's FlexibleArgumentParser keeps argparse's allow_abbrev
 * (Python's default), which takes a prefix no other option shares for the whole option: the setting stays (an
 * ambiguous one stops the boot with argparse's own error). llama.cpp's parser (common/arg.cpp) matches whole names.
 */
function prefixOf(f: Flag, added: readonly Flag[], engine: EngineKind): boolean {
  // (only the last word cut short: `--enable` of `--enable-auto-tool-choice` is ambiguous, a boot error, not this)
  const cut = (g: Flag) => f.name.startsWith(g.name) && !/-/.test(f.name.slice(g.name.length)) && !g.name.endsWith("-");
  return engine !== "llama.cpp" && added.some((g) => /^--.{4,}/.test(g.name) && cut(g));
}

/** `baseFile`: the script's name at the base, when it was renamed since. */
export function droppedFlags(
  baseFlags: readonly Flag[],
  nowFlags: readonly Flag[],
  file: string,
  baseLabel: string,
  contractNames: ReadonlySet<string> = new Set(),
  baseRef = baseLabel,
  baseFile = file,
  engine: EngineKind = "vllm",
): Finding[] {
  const clientFlags = CLIENT_FLAGS[engine];
  // --max_model_len and --max-model-len are one flag to the engine: renaming one to the other drops nothing
  const key = (f: Flag) => normalizeFlagName(f.name);
  const now = new Set(nowFlags.map(key));
  // a flag moved into an if-branch the defaults do not take (`if [[ $USE_JINJA == on ]]; then ARGS+=(--jinja)`,
  // USE_JINJA=off) no longer reaches the engine by default: gone, unless it was off by default at the base too
  const onDefault = new Set(nowFlags.filter((f) => !f.offDefault).map(key));
  const offNow = (f: Flag) => (f.offDefault ? undefined : nowFlags.find((n) => n.offDefault && key(n) === key(f)));
  const before = new Set(baseFlags.map(key));
  const seen = new Set<string>();
  // `-max-model-len` respelt `--max-model-len`: a typo fixed, not a flag dropped
  const typo = (f: Flag) => /^-[^-]/.test(f.name) && f.name.length > 3 && now.has(normalizeFlagName(`-${f.name}`));
  const newFlags = nowFlags.filter((f) => !before.has(key(f)));
  // a name respelt in one place (`--ngl $NGL` -> `-ngl $NGL`) is respelt wherever else it stood (`--ngl 0`)
  // (a setting can move onto a name the base already had: `--n-gpu-layers 0` -> `--ngl 0` beside `--ngl $NGL`)
  const moved = nowFlags.filter((f) => !baseFlags.some((b) => key(b) === key(f) && b.value === f.value));
  const respelt = new Set(
    baseFlags
      .filter(
        (f) => typo(f) || movedValue(f, moved) !== null || switchFor(f, nowFlags) || prefixOf(f, newFlags, engine),
      )
      .map(key),
  );
  const dropped = baseFlags.filter(
    (f) =>
      !(f.offDefault ? now : onDefault).has(key(f)) && !respelt.has(key(f)) && !seen.has(key(f)) && seen.add(key(f)),
  );
  const added = [...new Set(newFlags.map((f) => f.name))];
  const renamed = baseFile === file ? {} : { baseFile };
  const asBase = baseFile === file ? "" : ` (where it was ${baseFile})`;
  if (dropped.length === 0) {
    return [
      pass(CHECK, `${file}: no engine flag dropped since ${baseLabel}${asBase}`, {
        file,
        data: { base: baseLabel, added, ...renamed },
      }),
    ];
  }
  return dropped.map((f) => {
    const critical = clientFlags.has(key(f)) || [...contractNames].some((c) => normalizeFlagName(c) === key(f));
    // a dropped --api-key's value is the secret: the report names the flag, never the value
    const value = mask(f.name, f.value);
    const shown = value === null ? f.name : `${f.name} ${value}`;
    const mk = critical ? fail : warn;
    const off = offNow(f);
    const gone = off ? `is now only in a branch the defaults do not take (line ${off.line})` : "is gone now";
    return mk(
      CHECK,
      `${file}: ${shown} was in the engine argv at ${baseRef} (${(f.file ?? baseFile) === file ? "" : `${f.file ?? baseFile} `}line ${f.line}) and ${gone}`,
      {
        file,
        evidence: [`base: ${baseLabel}${asBase}`, `${baseRef}:${f.file ?? baseFile}:${f.line}: ${shown}`],
        fix: critical
          ? `restore ${codeSpan(shown)} in ${f.file ?? file}: without it ${lossOf(engine, key(f)) ?? "a contract declared in deploy-gate.yml breaks"}; if the removal is intended, update contracts and the base (--base)`
          : `if dropping ${f.name} is intended, say so in the commit message; else restore ${codeSpan(shown)}`,
        // (a flag written in another file than the launch: a sourced library, a values file, a patch)
        data: { flag: f.name, value, base: baseLabel, baseLine: f.line, critical, added, ...renamed, ...written(f) },
      },
    );
  });
}

const written = (f: Flag) => (f.file ? { flagFile: f.file } : {});
