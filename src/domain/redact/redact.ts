// The redactor: every line that came from the host or the repository passes here before any output.
// Pure. Masks values, never whole lines, so the evidence still says what happened.
import { isRedactedName } from "./names.js";
import { HF_TOKEN, REDACTOR_TOKEN_SHAPES } from "./shapes.js";

const M = "***";
/**
 * Names (of a variable, a key, a flag) are read up to this length: unbounded, a long run of word characters
 * (a prompt, a base64 blob) is scanned again from each of its positions, quadratic in the line's length.
 */
const NAME_MAX = 127;
/** A value after `=` or `:`: a list (`['sk-…']`, a Python repr), quoted, a `${VAR}`, or up to whitespace. */
const VALUE = String.raw`(\[[^\]\n]*\]|"[^"]*"|'[^']*'|\$\{[A-Za-z_]\w*\}|[^\s"',;}]+)`;
/** Where a secret comes from, not the secret: `$VAR`, `${VAR}`, `$(cat FILE)`, `$(< FILE)`, `@FILE`. */
const SOURCE_REF = /(?:\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|\$\((?:cat|<)\s*[^()$`;|&]+\)|@[/.\w][^\s"']*)/.source;
/**
 * A value that only names where the secret comes from (`$VAR`, `"${VAR}"`, `"$(cat FILE)"`, `@FILE`): kept, it
 * is the evidence. Whole values only: `${KEY:-literal}` carries a literal default, and is masked.
 */
const REFERENCE = new RegExp(String.raw`^(["']?)${SOURCE_REF}\1$`);
/**
 * A word of prose after a secret-looking name (`host key: add …`, `--api-key (or VLLM_API_KEY)`, `--api-key from the
 * script`): the gate's own sentences, never a credential, so never masked.
 */
const PROSE =
  /^(?:\(\S*|a|an|the|and|or|to|from|in|into|on|of|for|with|by|is|are|be|was|not|no|it|its|this|that|as|at|if|then|when|instead|only|also|add|set|use|pass|see|check|run|remove|give)$/;
/**
 * After a colon only (never after `=`, an assignment is no sentence): an errno starts a sentence
 * (`Failed to determine user credentials: No such process`), so its first word in any case is prose too.
 */
const PROSE_AFTER_COLON = new RegExp(
  `${PROSE.source.slice(0, -2)}|permission|operation|invalid|cannot|could|failed|unknown)$`,
  "i",
);
/** The engine's own secret flags with a literal value; a reference (as REFERENCE) or a word of prose is kept. */
const ENGINE_FLAG_VALUE = new RegExp(
  String.raw`(--(?:api-key|hf-token)(?:=|[ \t]+))(?!(["']?)${SOURCE_REF}\2(?:[\s,;.)]|$))(?!\(|(?:or|from|and|to|is|in|with)\b)\S+`,
  "gi",
);

/** A file name (`serve-api-key.sh`, `hf_token.yaml`): in `NAME: text` it is where the text is about, not a key. */
const FILE_NAME = /\.(sh|bash|zsh|service|container|ya?ml|json|toml|conf|py|txt|md|gguf|socket|timer)$/i;

/** Flags whose value names a secret store entry, never the secret (podman/docker `--secret NAME,type=env`). */
const NAMES_A_SECRET = new Set(["--secret", "--secret-id"]);

/** A literal secret given to a secret flag: not a flag, a reference, a word of prose, or already masked. */
const secretFlagValue = (flag: string, v: string) =>
  isRedactedName(flag.slice(2)) &&
  !NAMES_A_SECRET.has(flag) &&
  !v.startsWith("-") &&
  v !== M &&
  !REFERENCE.test(v) &&
  !PROSE.test(v);

const quoteOf = (v: string) => (v.startsWith('"') || v.startsWith("'") ? v[0]! : "");
const masked = (v: string) => `${quoteOf(v)}${M}${quoteOf(v)}`;

/** Hide secret values in the engine's own text (`'api_key': 'sk-…'`, `api_key='…'`, `--api-key X`, `Bearer X`). */
export function redactSecrets(text: string): string {
  return (
    text
      .replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)(['"])(?:(?!\2).)*\2/gi, "$1$2***$2")
      .replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)\[[^\]\n]*\]/gi, "$1[***]") // the list form of a repr: ['sk-…']
      // "$VAR", "$(cat FILE)", @FILE: where it comes from, kept; a ${VAR:-default} carries a literal, masked
      .replace(ENGINE_FLAG_VALUE, "$1***")
      .replace(/(Bearer )\S+/g, "$1***")
      .replace(HF_TOKEN, "hf_***")
  );
}

export function redact(text: string): string {
  let out = redactSecrets(text);
  // URLs with credentials: scheme://user:password@host, scheme://:password@host, scheme://token@host; a
  // password may hold "@" (the host starts after the last one before the path).
  out = out.replace(
    /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/@:]*)(:[^\s/]*)?@/gi,
    (_m, scheme: string, user: string, pw?: string) => (pw ? `${scheme}${user}:${M}@` : `${scheme}${M}@`),
  );
  // Header forms: Authorization/Proxy-Authorization with their scheme kept, cookies whole.
  out = out.replace(
    /\b((?:proxy-)?authorization\s*:\s*)(?:(basic|bearer|token|digest|negotiate)\s+)?\S+/gi,
    (_m, head: string, scheme?: string) => `${head}${scheme ? `${scheme} ` : ""}${M}`,
  );
  out = out.replace(/\b((?:set-)?cookie\s*:\s*).+$/gim, `$1${M}`);
  out = namedValues(out);
  // an argv printed as a list (a launcher's traceback, JSON): '--api-key', 'KEY'
  out = out.replace(
    /(["'])(--[A-Za-z][\w-]{0,127})\1(\s*,\s*)(["'])((?:(?!\4)[^\n])*)\4/g,
    (m, q: string, flag: string, comma: string, vq: string, v: string) =>
      secretFlagValue(flag, v) ? `${q}${flag}${q}${comma}${vq}${M}${vq}` : m,
  );
  // a flag and its value after "=", or one or more spaces or tabs
  out = out.replace(
    new RegExp(String.raw`(--[A-Za-z][\w-]{0,${NAME_MAX}})(=|[ \t]+)${VALUE}`, "g"),
    (m, flag: string, sep: string, v: string) => (secretFlagValue(flag, v) ? `${flag}${sep}${masked(v)}` : m),
  );
  for (const re of REDACTOR_TOKEN_SHAPES) out = out.replace(re, M);
  return out;
}

/**
 * NAME=value, "name": "value", name: value, for names that look secret. A value that is itself NAME=value
 * (`Environment=VLLM_API_KEY=…`, `--env=HF_TOKEN=…`) is looked into: the outer name is not the secret's.
 */
function namedValues(text: string, depth = 0): string {
  return text.replace(
    new RegExp(String.raw`(["']?)([A-Za-z_][\w.-]{0,${NAME_MAX}})\1(\s*[=:]\s*)${VALUE}`, "g"),
    (m, q: string, name: string, sep: string, v: string) => {
      // `serve-api-key.sh: bash -n passes`: a file's name before a colon, never a secret's name
      if (isRedactedName(name) && !FILE_NAME.test(name))
        return v !== M &&
          !v.includes(M) &&
          !REFERENCE.test(v) &&
          !(sep.includes(":") ? PROSE_AFTER_COLON : PROSE).test(v)
          ? `${q}${name}${q}${sep}${masked(v)}`
          : m;
      return depth < 3 && /[=:]/.test(v) ? `${q}${name}${q}${sep}${namedValues(v, depth + 1)}` : m;
    },
  );
}
