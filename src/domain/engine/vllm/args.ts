// `non-default args: {...}` is a Python dict repr (single quotes, True/None, enum and dataclass reprs),
// not JSON. Older vLLM printed api_key verbatim, so every secret value is redacted before it leaves here.
import { messageOf } from "./lines.js";
import { isSecretArgKey } from "../../redact/names.js";

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

const MARKER = "non-default args: ";

class PyReprParser {
  private i = 0;
  constructor(private readonly s: string) {}

  parseValue(): PyValue {
    this.ws();
    const c = this.s[this.i];
    if (c === "'" || c === '"') return this.str();
    if (c === "{") return this.dict();
    if (c === "[") return this.seq("]");
    if (c === "(") return this.seq(")");
    const word = /^(True|False|None)(?![\w.(])/.exec(this.s.slice(this.i, this.i + 6));
    if (word) {
      this.i += word[1]!.length;
      return word[1] === "True" ? true : word[1] === "False" ? false : null;
    }
    const num = /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.(])/i.exec(this.s.slice(this.i, this.i + 40));
    if (num) {
      this.i += num[0].length;
      return Number(num[0]);
    }
    return this.raw();
  }

  private ws(): void {
    while (this.s[this.i] === " ") this.i++;
  }

  private str(): string {
    const q = this.s[this.i++];
    let out = "";
    while (this.i < this.s.length && this.s[this.i] !== q) {
      const c = this.s[this.i++]!;
      if (c === "\\" && this.i < this.s.length) {
        const e = this.s[this.i++]!;
        out += e === "n" ? "\n" : e === "t" ? "\t" : e;
      } else out += c;
    }
    this.i++;
    return out;
  }

  private dict(): PyValue {
    this.i++;
    const out: Record<string, PyValue> = {};
    const items: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.atClose()) break;
      if (this.stray()) continue;
      const key = this.parseValue();
      this.ws();
      if (this.s[this.i] === ":") {
        this.i++;
        out[String(key)] = this.parseValue();
      } else items.push(key); // a set literal
      this.ws();
      if (this.s[this.i] === ",") this.i++;
    }
    if (this.s[this.i] === "}") this.i++;
    return items.length > 0 && Object.keys(out).length === 0 ? items : out;
  }

  private seq(close: string): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.atClose()) break;
      if (this.stray()) continue;
      out.push(this.parseValue());
      this.ws();
      if (this.s[this.i] === ",") this.i++;
    }
    if (this.s[this.i] === close) this.i++;
    return out;
  }

  /**
   * The end of the text or any closer ends the container being read, its own or not: in a garbled line
   * (`{'a': [1}, 'api_key': 'sk-x'}`) a list does not take in the keys and values after it, secrets among them.
   */
  private atClose(): boolean {
    const c = this.s[this.i];
    return c === undefined || c === "}" || c === "]" || c === ")";
  }

  /**
   * A lone `>`, `,` or `:` where a value starts: skipped (a value read there would be empty, and the loop would spin).
   */
  private stray(): boolean {
    const c = this.s[this.i];
    if (c !== ">" && c !== "," && c !== ":") return false;
    this.i++;
    return true;
  }

  /** Anything else (`<Enum.X: 'x'>`, `PosixPath('/m')`, `Config(a=1)`): kept as its text, balanced. */
  private raw(): string {
    const start = this.i;
    let depth = 0;
    let quote: string | null = null;
    for (; this.i < this.s.length; this.i++) {
      const c = this.s[this.i]!;
      if (quote) {
        if (c === "\\") this.i++;
        else if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if ("([{<".includes(c)) depth++;
      else if (")]}>".includes(c)) {
        if (depth === 0) break;
        depth--;
      } else if (c === "," && depth === 0) break;
    }
    return this.s.slice(start, this.i).trim();
  }
}

function redact(value: PyValue, key?: string): PyValue {
  if (key !== undefined && isSecretArgKey(key) && value !== null) return "***";
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

/** The record of a `non-default args:` line, secrets redacted; null when the line is not one. */
export function readNonDefaultArgs(line: string): Record<string, PyValue> | null {
  const msg = messageOf(line);
  const at = msg.indexOf(MARKER);
  if (at < 0) return null;
  const body = msg.slice(at + MARKER.length).trim();
  if (!body.startsWith("{")) return null;
  const value = redact(new PyReprParser(body).parseValue());
  return value && typeof value === "object" && !Array.isArray(value) ? value : null;
}
