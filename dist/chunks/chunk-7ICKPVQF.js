#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);

// src/domain/redact/names.ts
var SECRET_ARG_KEY = /(^|_)(api_key|hf_token|token|secret|password|watermark_config)$/i;
function isSecretArgKey(key) {
  return SECRET_ARG_KEY.test(key);
}
var SECRET_PART = /^(token|key|apikey|secret|password|passwd|passphrase|pass|pwd|credential|credentials|auth|bearer)$/i;
function looksSecret(name) {
  return name.replace(/^-+/, "").split(/[-_.]/).some((part) => SECRET_PART.test(part));
}
var isRedactedName = (name) => looksSecret(name) || /(password|passwd|passphrase|secret|token|apikey|api_key)$/i.test(name);
var TRAP_SECRET_FLAGS = /* @__PURE__ */ new Set(["--api-key", "--hf-token", "--token", "--password"]);
var TRAP_SECRET_ENV = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY)(_|$)/i;
var SECRET_FLAG_ASSIGNMENT = /^(--[\w-]*(?:key|token|password|secret)[\w-]*=).*/i;

// src/domain/redact/shapes.ts
var HF_TOKEN = /\bhf_[A-Za-z0-9]{20,}\b/g;
var REDACTOR_TOKEN_SHAPES = [
  HF_TOKEN,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g
];
var TRAP_LITERAL_TOKEN = /\b(hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,})\b/;
function valueLooksSecret(value) {
  const v = value.trim();
  if (REDACTOR_TOKEN_SHAPES.some((re) => new RegExp(re.source).test(v))) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^\s/@]+@/i.test(v)) return true;
  return v.length >= 32 && /^[A-Za-z0-9+_=]+$/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v) && /[0-9]/.test(v);
}

// src/domain/redact/redact.ts
var M = "***";
var NAME_MAX = 127;
var VALUE = String.raw`(\[[^\]\n]*\]|"[^"]*"|'[^']*'|\$\{[A-Za-z_]\w*\}|[^\s"',;}]+)`;
var SOURCE_REF = /(?:\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\}|\$\((?:cat|<)\s*[^()$`;|&]+\)|@[/.\w][^\s"']*)/.source;
var REFERENCE = new RegExp(String.raw`^(["']?)${SOURCE_REF}\1$`);
var PROSE = /^(?:\(\S*|a|an|the|and|or|to|from|in|into|on|of|for|with|by|is|are|be|was|not|no|it|its|this|that|as|at|if|then|when|instead|only|also|add|set|use|pass|see|check|run|remove|give)$/;
var PROSE_AFTER_COLON = new RegExp(
  `${PROSE.source.slice(0, -2)}|permission|operation|invalid|cannot|could|failed|unknown)$`,
  "i"
);
var ENGINE_FLAG_VALUE = new RegExp(
  String.raw`(--(?:api-key|hf-token)(?:=|[ \t]+))(?!(["']?)${SOURCE_REF}\2(?:[\s,;.)]|$))(?!\(|(?:or|from|and|to|is|in|with)\b)\S+`,
  "gi"
);
var FILE_NAME = /\.(sh|bash|zsh|service|container|ya?ml|json|toml|conf|py|txt|md|gguf|socket|timer)$/i;
var NAMES_A_SECRET = /* @__PURE__ */ new Set(["--secret", "--secret-id"]);
var secretFlagValue = (flag, v) => isRedactedName(flag.slice(2)) && !NAMES_A_SECRET.has(flag) && !v.startsWith("-") && v !== M && !REFERENCE.test(v) && !PROSE.test(v);
var quoteOf = (v) => v.startsWith('"') || v.startsWith("'") ? v[0] : "";
var masked = (v) => `${quoteOf(v)}${M}${quoteOf(v)}`;
function redactSecrets(text) {
  return text.replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)(['"])(?:(?!\2).)*\2/gi, "$1$2***$2").replace(/(['"]?(?:api_key|hf_token)['"]?\s*[:=]\s*)\[[^\]\n]*\]/gi, "$1[***]").replace(ENGINE_FLAG_VALUE, "$1***").replace(/(Bearer )\S+/g, "$1***").replace(HF_TOKEN, "hf_***");
}
function redact(text) {
  let out = redactSecrets(text);
  out = out.replace(
    /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/@:]*)(:[^\s/]*)?@/gi,
    (_m, scheme, user, pw) => pw ? `${scheme}${user}:${M}@` : `${scheme}${M}@`
  );
  out = out.replace(
    /\b((?:proxy-)?authorization\s*:\s*)(?:(basic|bearer|token|digest|negotiate)\s+)?\S+/gi,
    (_m, head, scheme) => `${head}${scheme ? `${scheme} ` : ""}${M}`
  );
  out = out.replace(/\b((?:set-)?cookie\s*:\s*).+$/gim, `$1${M}`);
  out = namedValues(out);
  out = out.replace(
    /(["'])(--[A-Za-z][\w-]{0,127})\1(\s*,\s*)(["'])((?:(?!\4)[^\n])*)\4/g,
    (m, q, flag, comma, vq, v) => secretFlagValue(flag, v) ? `${q}${flag}${q}${comma}${vq}${M}${vq}` : m
  );
  out = out.replace(
    new RegExp(String.raw`(--[A-Za-z][\w-]{0,${NAME_MAX}})(=|[ \t]+)${VALUE}`, "g"),
    (m, flag, sep, v) => secretFlagValue(flag, v) ? `${flag}${sep}${masked(v)}` : m
  );
  for (const re of REDACTOR_TOKEN_SHAPES) out = out.replace(re, M);
  return out;
}
function namedValues(text, depth = 0) {
  return text.replace(
    new RegExp(String.raw`(["']?)([A-Za-z_][\w.-]{0,${NAME_MAX}})\1(\s*[=:]\s*)${VALUE}`, "g"),
    (m, q, name, sep, v) => {
      if (isRedactedName(name) && !FILE_NAME.test(name))
        return v !== M && !v.includes(M) && !REFERENCE.test(v) && !(sep.includes(":") ? PROSE_AFTER_COLON : PROSE).test(v) ? `${q}${name}${q}${sep}${masked(v)}` : m;
      return depth < 3 && /[=:]/.test(v) ? `${q}${name}${q}${sep}${namedValues(v, depth + 1)}` : m;
    }
  );
}

// src/domain/journal/line.ts
var ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
function stripAnsi(text) {
  return text.includes("\x1B") ? text.replace(ANSI, "") : text;
}
function cleanLine(raw) {
  let line = stripAnsi(raw);
  if (line.includes("\r")) {
    line = line.replace(/\r(?=['’"]?: )/g, "^M");
    const parts = line.split("\r").filter((p) => p.length > 0);
    line = parts[parts.length - 1] ?? "";
  }
  return line.charCodeAt(0) === FRAME ? unframe(line) : line;
}
var FRAME = 9474;
function unframe(line) {
  let inner = line.slice(line.charCodeAt(1) === 32 ? 2 : 1).trimEnd();
  if (inner.charCodeAt(inner.length - 1) === FRAME) inner = inner.slice(0, -1).trimEnd();
  return inner;
}
var OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
var CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
var ESC = /\x1b[@-_]?/g;
var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
function stripControl(text) {
  return text.replace(/\r\n/g, "\n").replace(OSC, "").replace(CSI, "").replace(ESC, "").replace(CONTROL, "");
}

export {
  isSecretArgKey,
  looksSecret,
  TRAP_SECRET_FLAGS,
  TRAP_SECRET_ENV,
  SECRET_FLAG_ASSIGNMENT,
  TRAP_LITERAL_TOKEN,
  valueLooksSecret,
  redactSecrets,
  redact,
  cleanLine,
  stripControl
};
