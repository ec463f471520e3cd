// The flags an engine's image knows, read from its own --help (vLLM's `vllm serve --help=all`, SGLang's
// argparse help, llama-server's table), and the launch file's flags judged against them, naming the
// change that dropped or renamed a flag where it is known. Pure.
import type { EngineKind } from "./kind.js";

/** Option spellings at the start of help lines: each word from the line's start that is a flag, a metavar
 *  (MAX_MODEL_LEN, N, {a,b}, <x>) or a comma; the description (a lowercase or mixed-case word) ends them. */
export function flagsInHelp(help: string): Set<string> {
  const out = new Set<string>();
  for (const line of help.split("\n")) {
    const t = line.trim();
    if (!/^-{1,2}[A-Za-z0-9]/.test(t)) continue;
    for (const raw of t.split(/\s+/)) {
      const w = raw.replace(/,$/, "");
      if (w === "") continue;
      const flag = /^(-{1,2}[A-Za-z0-9][\w.-]*)(?:[=[].*)?$/.exec(w);
      if (flag) {
        out.add(flag[1]!);
        continue;
      }
      if (/^([A-Z0-9_]+|\{[^}]*\}?|<[^>]*>|\[[^\]]*\]?|N)$/.test(w)) continue;
      break;
    }
  }
  return out;
}

/** What is known of a flag an image no longer has (vllm-project/vllm pull requests). */
const GONE: Partial<Record<EngineKind, Record<string, string>>> = {
  vllm: {
    "--enable-reasoning":
      "deprecated in vLLM 0.9.0 (PR #17452) and refused as an unrecognized argument by 0.10.0: --reasoning-parser alone enables reasoning",
    "--guided-decoding-backend":
      'vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2): --structured-outputs-config \'{"backend": "xgrammar"}\'',
    "--guided-decoding-disable-fallback":
      "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--guided-decoding-disable-any-whitespace":
      "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--guided-decoding-disable-additional-properties":
      "vLLM replaced the --guided-decoding-* flags with --structured-outputs-config (PR #22772, 0.10.2)",
    "--task":
      "vLLM deprecated --task for --runner (generate, pooling) and --convert (embed, classify...) in PR #21470: use those",
  },
};

export interface UnknownFlag {
  flag: string;
  /** the change that dropped or renamed it, when known */
  known: string | null;
}

const norm = (kind: EngineKind, f: string) => (kind === "vllm" ? f.replace(/_/g, "-") : f);

/** The launch file's flags (names, in order) that the image's help does not list. */
export function judgeFlags(kind: EngineKind, flags: readonly string[], help: ReadonlySet<string>): UnknownFlag[] {
  const known = new Set([...help].map((f) => norm(kind, f)));
  const out: UnknownFlag[] = [];
  const seen = new Set<string>();
  for (const f of flags) {
    // vLLM reads a config flag's sub-key as --flag.key (--structured-outputs-config.backend)
    const name = norm(kind, kind === "vllm" ? f.replace(/^(--[\w-]+)\..*$/, "$1") : f);
    if (known.has(name) || seen.has(name)) continue;
    seen.add(name);
    out.push({ flag: f, known: GONE[kind]?.[name] ?? null });
  }
  return out;
}
