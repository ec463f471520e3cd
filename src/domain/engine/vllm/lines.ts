// vLLM line anatomy (reference §1.1–1.2): parsers match the message body, never the prefix.

/** CSI sequences: colour (`m`) and the cursor/erase codes tqdm writes. */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/**
 * All eras of the vLLM prefix after ANSI strip: optional `(NAME pid=N) ` process prefix, then an optional
 * `LEVEL MM-DD HH:MM:SS [file:line] ` record prefix (2024 had no `[`).
 */
const PREFIX =
  /^(?:\((?<proc>[A-Za-z_][\w ]*?(?: rank=\d+)?) pid=(?<pid>\d+)\) )?(?:(?<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<mm>\d\d)-(?<dd>\d\d) (?<time>\d\d:\d\d:\d\d) \[?(?<file>[^\]\s]+):(?<line>\d+)\] )?(?<msg>.*)$/s;

export interface VllmLine {
  proc: string | null;
  pid: number | null;
  level: string | null;
  file: string | null;
  msg: string;
}

export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/**
 * One physical line as a terminal would show it: ANSI stripped, and of `\r`-separated rewrites (tqdm, and
 * the `\r` NewLineFormatter leaves before every continuation) the last non-empty one.
 */
export function cleanLine(raw: string): string {
  let line = stripAnsi(raw);
  if (line.includes("\r")) {
    const parts = line.split("\r").filter((p) => p.length > 0);
    line = parts[parts.length - 1] ?? "";
  }
  return line;
}

export function parseLine(raw: string): VllmLine {
  const line = cleanLine(raw);
  const g = PREFIX.exec(line)?.groups ?? {};
  return {
    proc: g.proc ?? null,
    pid: g.pid === undefined ? null : Number(g.pid),
    level: g.level ?? null,
    file: g.file ?? null,
    msg: g.msg ?? line,
  };
}

/** The message body of a line, prefixes removed. */
export function messageOf(raw: string): string {
  return parseLine(raw).msg;
}

/** `42,656` -> 42656; `nan` and garbage -> null. */
export function parseNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text.replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}

const SECRET_KEY = /(^|_)(api_key|hf_token|token|secret|password|watermark_config)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Hide secret values in free text (`'api_key': 'sk-…'`, `api_key='…'`, `--api-key X`, `Bearer X`). */
export function redactSecrets(text: string): string {
  return text
    .replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)(['"])(?:(?!\2).)*\2/gi, "$1$2***$2")
    .replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)\[[^\]\n]*\]/gi, "$1[***]") // the list form of a repr: ['sk-…']
    // "$VAR", "$(cat FILE)", @FILE: where it comes from, kept; a ${VAR:-default} carries a literal, masked
    .replace(/(--(?:api-key|hf-token)[= ])(?!(["']?)(?:\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|\$\((?:cat|<)\s*[^()$`;|&]+\)|@[/.\w][^\s"']*)\2(?:\s|$))(?!\(|(?:or|from|and|to|is|in|with)\b)\S+/gi, "$1***")
    .replace(/(Bearer )\S+/g, "$1***")
    .replace(/\bhf_[A-Za-z0-9]{20,}\b/g, "hf_***");
}
