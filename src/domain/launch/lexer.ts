// A bash word lexer for serve scripts as people write them. It follows bash's quoting rules closely
// enough that the words it yields are the words bash would pass to `podman run`, but it never
// expands anything: a `$VAR` stays in the word text and marks the word dynamic. It never throws:
// an unterminated quote runs to the end of the text (bash -n reports that, not us).
import type { Word } from "./model.js";

/** One piece of a word: literal text, a parameter expansion, or a command/arithmetic substitution. */
export type Part =
  | { kind: "lit"; text: string }
  | {
      kind: "param";
      name: string;
      index: string | null;
      op: string | null;
      arg: string;
      raw: string;
      quoted: boolean;
      line: number;
    }
  | { kind: "sub"; raw: string; body: string; line: number };

export interface LexWord extends Word {
  parts: Part[];
  /** `NAME=value` or `NAME+=value` with an unquoted name, as bash reads an assignment */
  assignment: { name: string; value: string; append: boolean } | null;
  /** the array name when the word is exactly "${NAME[@]}" / ${NAME[*]} */
  arrayRef: string | null;
  /** `"${@:2}"`: the array's words from this index on (0-based) */
  arrayFrom?: number;
  /** a word of `${NAME:+words}`: NAME is set and non-empty wherever this word exists */
  guard?: string;
}

export type Token =
  | { kind: "word"; word: LexWord }
  | { kind: "op"; op: string; line: number }
  | { kind: "redirect"; op: string; target: string; line: number }
  | { kind: "array"; name: string; append: boolean; words: LexWord[]; line: number };

const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const OPS = [";;&", ";;", ";&", "&&", "||", "|&", "|", ";", "&", "(", ")"];
const REDIRECTS = ["&>>", "&>", "<<<", "<<-", "<<", ">>", ">|", ">&", "<&", "<>", ">", "<"];
const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/** Past this many nested quotes and substitutions a file is no serve script a person wrote (bash itself
 *  nests far deeper): it is refused by name instead of running the lexer's recursion out of stack. */
export const MAX_NESTING = 256;

/** A file nested deeper than MAX_NESTING: the reader reports that file and goes on with the others. */
export class NestingTooDeep extends Error {
  constructor(readonly line: number) {
    super(`quotes and substitutions nested more than ${MAX_NESTING} deep (from line ${line}): not read`);
  }
}

export function lex(text: string, firstLine = 1): Token[] {
  return new Lexer(text, firstLine).run();
}

/** Lex text as the words of one command line (used for `${VAR:+...}` alternatives). */
export function lexWords(text: string, firstLine: number): LexWord[] {
  return lex(text, firstLine).flatMap((t) => (t.kind === "word" ? [t.word] : t.kind === "array" ? t.words : []));
}

class Lexer {
  private pos = 0;
  private line: number;
  private readonly tokens: Token[] = [];
  private readonly heredocs: { delim: string; strip: boolean }[] = [];

  constructor(
    private readonly src: string,
    firstLine: number,
  ) {
    this.line = firstLine;
  }

  run(): Token[] {
    while (this.pos < this.src.length) this.step();
    return this.tokens;
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? "";
  }

  private step(): void {
    const c = this.peek();
    if (c === " " || c === "\t" || c === "\r") {
      this.pos++;
      return;
    }
    if (c === "\\" && this.peek(1) === "\n") {
      this.pos += 2;
      this.line++;
      return;
    }
    if (c === "#") {
      this.skipComment();
      return;
    }
    if (c === "\n") {
      this.tokens.push({ kind: "op", op: "\n", line: this.line });
      this.pos++;
      this.line++;
      this.skipHeredocBodies();
      return;
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(?=[<>])/.exec(this.src.slice(this.pos, this.pos + 12));
      if (m) {
        this.pos += m[0].length;
        this.redirect(m[0]);
        return;
      }
    }
    if (c === "<" || c === ">" || (c === "&" && this.peek(1) === ">")) {
      this.redirect("");
      return;
    }
    if (c === "(" && this.peek(1) === "(") {
      this.arithmeticCommand();
      return;
    }
    for (const op of OPS) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        this.tokens.push({ kind: "op", op, line: this.line });
        return;
      }
    }
    const word = this.word(false);
    if (word) this.emitWord(word);
  }

  private emitWord(word: LexWord): void {
    // `# a comment` in backquotes (a continued command's inline note): an unquoted empty expansion, no word at all
    const only = word.parts.length === 1 ? word.parts[0]! : null;
    if (only?.kind === "sub" && word.text === only.raw && /^\s*(#[^\n]*)?$/.test(only.body)) return;
    // NAME=( ... ): an array assignment; its words are kept for "${NAME[@]}".
    const a = word.assignment;
    if (a && a.value === "" && this.peek() === "(" && word.parts.length === 1) {
      const line = word.line;
      this.pos++;
      this.tokens.push({ kind: "array", name: a.name, append: a.append, words: this.arrayWords(), line });
      return;
    }
    for (const w of splitOptional(word)) this.tokens.push({ kind: "word", word: w });
  }

  private arrayWords(): LexWord[] {
    const words: LexWord[] = [];
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === ")") {
        this.pos++;
        break;
      }
      if (c === "\n") {
        this.pos++;
        this.line++;
        continue;
      }
      if (c === " " || c === "\t" || c === "\r") {
        this.pos++;
        continue;
      }
      if (c === "\\" && this.peek(1) === "\n") {
        this.pos += 2;
        this.line++;
        continue;
      }
      if (c === "#") {
        this.skipComment();
        continue;
      }
      const w = this.word(true);
      if (w) words.push(...splitOptional(w));
      else this.pos++;
    }
    return words;
  }

  private skipComment(): void {
    while (this.pos < this.src.length && this.peek() !== "\n") this.pos++;
  }

  private redirect(fd: string): void {
    const op = REDIRECTS.find((r) => this.src.startsWith(r, this.pos)) ?? this.peek();
    this.pos += op.length;
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
    const line = this.line;
    const w = this.word(false);
    const target = w?.text ?? "";
    if (op === "<<" || op === "<<-") {
      this.heredocs.push({ delim: target, strip: op === "<<-" });
      this.tokens.push({ kind: "redirect", op: fd + op, target, line });
      return;
    }
    // 2>&1 and >&2 read as one operator: what the trap rules look for.
    if ((op === ">&" || op === "<&") && /^([0-9]+|-)$/.test(target)) {
      this.tokens.push({ kind: "redirect", op: `${fd}${op}${target}`, target: `&${target}`, line });
      return;
    }
    this.tokens.push({ kind: "redirect", op: fd + op, target, line });
  }

  private skipHeredocBodies(): void {
    while (this.heredocs.length > 0) {
      const { delim, strip } = this.heredocs.shift()!;
      while (this.pos < this.src.length) {
        const end = this.src.indexOf("\n", this.pos);
        const lineText = this.src.slice(this.pos, end === -1 ? undefined : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        this.line++;
        if ((strip ? lineText.replace(/^\t+/, "") : lineText) === delim) break;
      }
    }
  }

  private arithmeticCommand(): void {
    const start = this.pos;
    const line = this.line;
    this.pos = this.balancedEnd(this.pos + 1, "(", ")");
    const raw = this.src.slice(start, this.pos);
    const parts: Part[] = [{ kind: "sub", raw, body: raw.slice(2, -2), line }];
    this.tokens.push({ kind: "word", word: makeWord(parts, line, false) });
  }

  /** Reads one word; null when nothing word-like is at the cursor. */
  private word(inArray: boolean): LexWord | null {
    const startLine = this.line;
    // an assignment needs its name unquoted in the source, so `"A=b"` is a plain word
    const assignable = ASSIGN.test(this.src.slice(this.pos, this.pos + 256));
    const parts: Part[] = [];
    let lit = "";
    let quoted = false;
    const flush = () => {
      if (lit) {
        parts.push({ kind: "lit", text: lit });
        lit = "";
      }
    };
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (META.has(c) || (inArray && c === ")")) break;
      if (c === "\\") {
        const n = this.peek(1);
        this.pos += 2;
        if (n === "\n") this.line++;
        else {
          lit += n;
          quoted = true;
        }
        continue;
      }
      if (c === "'") {
        quoted = true;
        const end = this.src.indexOf("'", this.pos + 1);
        const body = this.src.slice(this.pos + 1, end === -1 ? undefined : end);
        lit += body;
        this.countLines(body);
        this.pos = end === -1 ? this.src.length : end + 1;
        continue;
      }
      if (c === '"') {
        quoted = true;
        flush();
        this.pos++;
        this.doubleQuoted(parts);
        continue;
      }
      if (c === "$" && this.peek(1) === "'") {
        quoted = true;
        this.pos += 2;
        lit += this.ansiC();
        continue;
      }
      if (c === "$" || c === "`") {
        const p = this.expansion(false);
        if (p) {
          flush();
          parts.push(p);
          continue;
        }
      }
      lit += c;
      this.pos++;
    }
    flush();
    if (parts.length === 0 && !quoted) return null;
    return makeWord(parts, startLine, assignable);
  }

  private doubleQuoted(parts: Part[]): void {
    let lit = "";
    const flush = () => {
      if (lit) {
        parts.push({ kind: "lit", text: lit });
        lit = "";
      }
    };
    while (this.pos < this.src.length) {
      const c = this.peek();
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === "\\" && '$`"\\\n'.includes(this.peek(1))) {
        const n = this.peek(1);
        this.pos += 2;
        if (n === "\n") this.line++;
        else lit += n;
        continue;
      }
      if (c === "$" || c === "`") {
        const p = this.expansion(true);
        if (p) {
          flush();
          parts.push(p);
          continue;
        }
      }
      if (c === "\n") this.line++;
      lit += c;
      this.pos++;
    }
    flush();
    if (parts.length === 0) parts.push({ kind: "lit", text: "" });
  }

  private ansiC(): string {
    const map: Record<string, string> = {
      n: "\n",
      t: "\t",
      r: "\r",
      "\\": "\\",
      "'": "'",
      '"': '"',
      e: "\x1b",
      a: "\x07",
    };
    let out = "";
    while (this.pos < this.src.length && this.peek() !== "'") {
      const c = this.peek();
      if (c === "\\") {
        const n = this.peek(1);
        out += map[n] ?? `\\${n}`;
        this.pos += 2;
        continue;
      }
      if (c === "\n") this.line++;
      out += c;
      this.pos++;
    }
    this.pos++;
    return out;
  }

  private expansion(quoted: boolean): Part | null {
    const start = this.pos;
    const line = this.line;
    const c = this.peek();
    const n = this.peek(1);
    if (c === "`") {
      let i = this.pos + 1;
      while (i < this.src.length && this.src[i] !== "`") i += this.src[i] === "\\" ? 2 : 1;
      this.pos = Math.min(i + 1, this.src.length);
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return { kind: "sub", raw, body: raw.slice(1, -1), line };
    }
    if (n === "(") {
      const arith = this.peek(2) === "(";
      this.pos = this.balancedEnd(this.pos + 1, "(", ")");
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return { kind: "sub", raw, body: arith ? "" : raw.slice(2, -1), line };
    }
    if (n === "{") {
      this.pos = this.balancedEnd(this.pos + 1, "{", "}");
      const raw = this.src.slice(start, this.pos);
      this.countLines(raw);
      return paramPart(raw, raw.slice(2, -1), quoted, line);
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]|[@*#?$!-])/.exec(this.src.slice(this.pos + 1, this.pos + 200));
    if (!m) return null;
    this.pos += 1 + m[0].length;
    return { kind: "param", name: m[0], index: null, op: null, arg: "", raw: `$${m[0]}`, quoted, line };
  }

  /** Index just past the bracket matching the one at `open`, skipping quotes and nested pairs. */
  private nesting = 0;

  private balancedEnd(openAt: number, open: string, close: string): number {
    if (++this.nesting > MAX_NESTING) throw new NestingTooDeep(this.line);
    try {
      return this.balancedEndAt(openAt, open, close);
    } finally {
      this.nesting--;
    }
  }

  private balancedEndAt(openAt: number, open: string, close: string): number {
    let depth = 0;
    let i = openAt;
    while (i < this.src.length) {
      const c = this.src[i]!;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === "'" && open === "(") {
        const e = this.src.indexOf("'", i + 1);
        i = e === -1 ? this.src.length : e + 1;
        continue;
      }
      if (c === '"') {
        i = this.skipDoubleQuote(i + 1);
        continue;
      }
      if (c === "#" && open === "(" && /[\s(]/.test(this.src[i - 1] ?? "")) {
        const e = this.src.indexOf("\n", i);
        i = e === -1 ? this.src.length : e;
        continue;
      }
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return this.src.length;
  }

  private skipDoubleQuote(i: number): number {
    while (i < this.src.length) {
      const c = this.src[i]!;
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === '"') return i + 1;
      if (c === "$" && (this.src[i + 1] === "(" || this.src[i + 1] === "{")) {
        const [o, cl] = this.src[i + 1] === "(" ? ["(", ")"] : ["{", "}"];
        i = this.balancedEnd(i + 1, o!, cl!);
        continue;
      }
      i++;
    }
    return i;
  }

  private countLines(s: string): void {
    for (const ch of s) if (ch === "\n") this.line++;
  }
}

function paramPart(raw: string, inner: string, quoted: boolean, line: number): Part {
  const m = /^(#?)([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?/.exec(inner);
  if (!m) return { kind: "param", name: "", index: null, op: inner, arg: "", raw, quoted, line };
  const rest = inner.slice(m[0].length);
  const opm = /^(:[-=+?]|[-=+?]|##?|%%?|\/\/?|:|\^\^?|,,?)/.exec(rest);
  const op = m[1] ? "#" : opm ? opm[0] : rest ? rest : null;
  const arg = opm ? rest.slice(opm[0].length) : "";
  return {
    kind: "param",
    name: m[2]!,
    index: m[3] ? m[3].slice(1, -1) : null,
    op: m[1] ? "length" : op,
    arg,
    raw,
    quoted,
    line,
  };
}

function makeWord(parts: Part[], line: number, assignable: boolean): LexWord {
  const text = parts.map((p) => (p.kind === "lit" ? p.text : p.raw)).join("");
  const dynamic = parts.some((p) => p.kind !== "lit");
  const first = parts[0];
  let assignment: LexWord["assignment"] = null;
  if (first?.kind === "lit") {
    const m = ASSIGN.exec(first.text);
    if (m && assignable) {
      assignment = { name: m[1]!, value: text.slice(m[0].length), append: m[2] === "+" };
    }
  }
  const only = parts.length === 1 && first?.kind === "param" ? first : null;
  // "${ARGS[@]}", and "${ARGS[@]:-}" (the set -u safe spelling), name the whole array
  const wholeArray =
    only &&
    (only.index === "@" || only.index === "*") &&
    (only.op === null || ((only.op === ":-" || only.op === "-") && only.arg === ""));
  // "$@" / "$*": the positional parameters, an array `set -- ...` fills (ARRAY_POSITIONAL)
  const positional = only && (only.name === "@" || only.name === "*") && only.index === null && only.op === null;
  // "${@:2}": the positional parameters from the second on
  const from = only?.name === "@" && only.index === null && only.op === ":" ? /^\d+$/.exec(only.arg) : null;
  const arrayRef = only && wholeArray ? only.name : positional || from ? "@" : null;
  const slice = from ? { arrayFrom: Math.max(0, Number(from[0]) - 1) } : {};
  return { text, line, optional: false, dynamic, parts, assignment, arrayRef, ...slice };
}

/** `${VAR:+--flag "$VAR"}` standing alone yields its words, each optional. */
function splitOptional(word: LexWord): LexWord[] {
  const p = word.parts.length === 1 ? word.parts[0] : undefined;
  if (!p || p.kind !== "param" || (p.op !== ":+" && p.op !== "+")) return [word];
  if (p.quoted) {
    const inner = lexWords(p.arg, p.line);
    // "${ARGS[@]+"${ARGS[@]}"}": the set -u safe spelling of an array's words (none when it is empty)
    if ((p.index === "@" || p.index === "*") && inner.length && inner.every((w) => w.arrayRef))
      return inner.map((w) => ({ ...w, optional: true }));
    return [
      { ...word, text: inner.map((w) => w.text).join(" "), optional: true, dynamic: inner.some((w) => w.dynamic) },
    ];
  }
  return lexWords(p.arg, p.line).map((w) => ({ ...w, optional: true, ...(p.op === ":+" ? { guard: p.name } : {}) }));
}
