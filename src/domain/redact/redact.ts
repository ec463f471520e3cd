// The redactor: every line that came from the host or the repository passes here before any output.
// Pure. Masks values, never whole lines, so the evidence still says what happened.
import { redactSecrets } from "../engine/vllm/lines.js";
import { looksSecret } from "./mask.js";

const M = "***";
/** A value after `=` or `:`: a list (`['sk-…']`, a Python repr), quoted, a `${VAR}`, or up to whitespace. */
const VALUE = String.raw`(\[[^\]\n]*\]|"[^"]*"|'[^']*'|\$\{[A-Za-z_]\w*\}|[^\s"',;}]+)`;
/**
 * A value that only names where the secret comes from (`$VAR`, `"${VAR}"`, `"$(cat FILE)"`, `@FILE`): kept, it
 * is the evidence. Whole values only: `${KEY:-literal}` carries a literal default, and is masked.
 */
const REFERENCE = /^(["']?)(?:\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|\$\((?:cat|<)\s*[^()$`;|&]+\)|@[/.\w][^\s"']*)\1$/;
/**
 * A word of prose after a secret-looking name (`host key: add …`, `--api-key (or VLLM_API_KEY)`, `--api-key from the
 * script`): the gate's own sentences, never a credential, so never masked.
 */
const PROSE = /^(?:\(\S*|a|an|the|and|or|to|from|in|into|on|of|for|with|by|is|are|be|was|not|no|it|its|this|that|as|at|if|then|when|instead|only|also|add|set|use|pass|see|check|run|remove|give)$/;

/** Flags whose value names a secret store entry, never the secret (podman/docker `--secret NAME,type=env`). */
const NAMES_A_SECRET = new Set(["--secret", "--secret-id"]);
/** Token shapes that are secrets wherever they appear. */
const TOKEN_SHAPES = [
  /\bhf_[A-Za-z0-9]{20,}\b/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

const quoteOf = (v: string) => (v.startsWith('"') || v.startsWith("'") ? v[0]! : "");
const masked = (v: string) => `${quoteOf(v)}${M}${quoteOf(v)}`;
/** `HF_TOKEN`, `DB_PASSWORD`, `DBPASSWORD`, `api-key`; not `MAX_TOKENS` (parts are whole words). */
const secretName = (name: string) => looksSecret(name) || /(password|passwd|secret|token|apikey|api_key)$/i.test(name);

export function redact(text: string): string {
  let out = redactSecrets(text);
  // URLs with credentials: scheme://user:password@host, scheme://token@host.
  out = out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]+)(:[^\s/@]*)?@/gi, (_m, scheme: string, user: string, pw?: string) => (pw ? `${scheme}${user}:${M}@` : `${scheme}${M}@`));
  // Header forms: Authorization/Proxy-Authorization with their scheme kept, cookies whole.
  out = out.replace(/\b((?:proxy-)?authorization\s*:\s*)(?:(basic|bearer|token|digest|negotiate)\s+)?\S+/gi, (_m, head: string, scheme?: string) => `${head}${scheme ? `${scheme} ` : ""}${M}`);
  out = out.replace(/\b((?:set-)?cookie\s*:\s*).+$/gim, `$1${M}`);
  out = namedValues(out);
  out = out.replace(new RegExp(String.raw`(--[A-Za-z][\w-]*)([= ])${VALUE}`, "g"), (m, flag: string, sep: string, v: string) =>
    secretName(flag.slice(2)) && !NAMES_A_SECRET.has(flag) && !v.startsWith("-") && v !== M && !REFERENCE.test(v) && !PROSE.test(v) ? `${flag}${sep}${masked(v)}` : m);
  for (const re of TOKEN_SHAPES) out = out.replace(re, M);
  return out;
}

/**
 * NAME=value, "name": "value", name: value, for names that look secret. A value that is itself NAME=value
 * (`Environment=VLLM_API_KEY=…`, `--env=HF_TOKEN=…`) is looked into: the outer name is not the secret's.
 */
function namedValues(text: string, depth = 0): string {
  return text.replace(new RegExp(String.raw`(["']?)([A-Za-z_][\w.-]*)\1(\s*[=:]\s*)${VALUE}`, "g"), (m, q: string, name: string, sep: string, v: string) => {
    if (secretName(name)) return v !== M && !v.includes(M) && !REFERENCE.test(v) && !PROSE.test(v) ? `${q}${name}${q}${sep}${masked(v)}` : m;
    return depth < 3 && /[=:]/.test(v) ? `${q}${name}${q}${sep}${namedValues(v, depth + 1)}` : m;
  });
}

/** A value that is a credential by its looks: a known token shape, a URL with credentials, or a long random string. */
export function valueLooksSecret(value: string): boolean {
  const v = value.trim();
  if (TOKEN_SHAPES.some((re) => new RegExp(re.source).test(v))) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^\s/@]+@/i.test(v)) return true;
  // Random-looking: long, one unbroken run (no "-", ".", "/": names and versions have those), upper and
  // lower case and digits mixed. A served model name like Qwen3Coder30BA3BInstruct is shorter than this.
  return v.length >= 32 && /^[A-Za-z0-9+_=]+$/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v) && /[0-9]/.test(v);
}
