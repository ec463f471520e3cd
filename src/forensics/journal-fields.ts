// Reads the few journald fields the decoder needs out of `journalctl -o json` lines without building the
// whole object (JSON.parse of ~20 fields per record is most of the cost). Pure: text in, fields out.
//
// Anything the fast path does not expect (numbers, nested values, arrays of strings, bad bytes) returns
// FALLBACK and the caller parses that line with JSON.parse: the result is the same, only slower.

export const WANTED = [
  "__CURSOR", "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP", "MESSAGE", "CONTAINER_ID", "CONTAINER_NAME",
  "_TRANSPORT", "CONTAINER_PARTIAL_MESSAGE", "_LINE_BREAK", "_STREAM_ID", "PRIORITY", "UNIT", "USER_UNIT",
  "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER", "_COMM",
] as const;

export type FieldName = (typeof WANTED)[number];
/** string, null, Buffer (a byte array) or, from the JSON.parse fallback, whatever the JSON held; undefined: absent */
export type Fields = Record<FieldName, unknown>;

export const FALLBACK = Symbol("fallback");

const QUOTE = 34;
const MESSAGE = WANTED.indexOf("MESSAGE");
const BACKSLASH = 92;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** A fresh record with every wanted field absent (one shape for all: the engine keeps it monomorphic). */
export function emptyFields(): Fields {
  return {
    __CURSOR: undefined, __REALTIME_TIMESTAMP: undefined, _SOURCE_REALTIME_TIMESTAMP: undefined, MESSAGE: undefined,
    CONTAINER_ID: undefined, CONTAINER_NAME: undefined, _TRANSPORT: undefined, CONTAINER_PARTIAL_MESSAGE: undefined,
    _LINE_BREAK: undefined, _STREAM_ID: undefined, PRIORITY: undefined, UNIT: undefined, USER_UNIT: undefined,
    _SYSTEMD_UNIT: undefined, SYSLOG_IDENTIFIER: undefined, _COMM: undefined,
  };
}

/** The wanted fields of a parsed object (the fallback), with the same absent/present meaning. */
export function fieldsOf(raw: Record<string, unknown>): Fields {
  const f = emptyFields();
  for (const k of WANTED) f[k] = raw[k];
  return f;
}

/** Wanted keys by length: a key is compared only with the wanted ones of its length. */
const BY_LENGTH: number[][] = [];
WANTED.forEach((k, i) => (BY_LENGTH[k.length] ??= []).push(i));

/**
 * Walks one object key to key with native indexOf jumps: a wanted key's value is read, any other value
 * skipped. Each line is touched once; no string is made for a key or a skipped value.
 */
export class FieldScanner {
  private text = "";
  private nextBackslash = -2;
  private bytes = Buffer.allocUnsafe(4096);
  /** Reused for every line: valid until the next scan (the decoder copies what it keeps). */
  private readonly fields = emptyFields();

  reset(text: string): void {
    this.text = text;
    this.nextBackslash = -2;
  }

  /**
   * The fields of the JSON object in text[a, b) (trimmed, starts with `{`, ends with `}`), or FALLBACK. The
   * object and a byte-array MESSAGE (a view of a scratch buffer) are valid until the next scan.
   */
  scan(a: number, b: number): Fields | typeof FALLBACK {
    const s = this.text;
    const f = this.fields;
    for (const k of WANTED) f[k] = undefined;
    let i = a + 1;
    for (;;) {
      while (i < b && isSpace(s.charCodeAt(i))) i++;
      if (s.charCodeAt(i) === 125 /* } */) return i === b - 1 ? f : FALLBACK;
      if (s.charCodeAt(i) !== QUOTE) return FALLBACK;
      const ke = s.indexOf('"', i + 1); // journald field names are [A-Z0-9_]: no escapes
      if (ke < 0 || ke >= b) return FALLBACK;
      const want = this.wanted(i + 1, ke);
      let v = ke + 1;
      while (v < b && isSpace(s.charCodeAt(v))) v++;
      if (s.charCodeAt(v) !== 58 /* : */) return FALLBACK;
      v++;
      while (v < b && isSpace(s.charCodeAt(v))) v++;
      let next: number;
      if (want >= 0) {
        const val = this.value(v, b, want === MESSAGE);
        if (val === FALLBACK) return FALLBACK;
        f[WANTED[want]!] = val;
        next = this.end;
      } else {
        next = this.skip(v, b);
        if (next < 0) return FALLBACK;
      }
      while (next < b && isSpace(s.charCodeAt(next))) next++;
      const c = s.charCodeAt(next);
      if (c === 44 /* , */) i = next + 1;
      else if (c === 125) return next === b - 1 ? f : FALLBACK;
      else return FALLBACK;
    }
  }

  /** Index into WANTED of the key text[k, e), or -1. */
  private wanted(k: number, e: number): number {
    const c = BY_LENGTH[e - k];
    if (!c) return -1;
    for (const w of c) if (this.text.startsWith(WANTED[w]!, k)) return w;
    return -1;
  }

  /** Where a value read by value() ended (just past it). */
  private end = 0;

  /** Just past an unwanted value at v, or -1 for a shape left to JSON.parse. */
  private skip(v: number, b: number): number {
    const s = this.text;
    const c = s.charCodeAt(v);
    if (c === QUOTE) {
      const e = this.closingQuote(v, b);
      return e < 0 ? -1 : e + 1;
    }
    if (c === 91 /* [ */) {
      let j = v + 1;
      while (j < b && isSpace(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === QUOTE || s.charCodeAt(j) === 91 || s.charCodeAt(j) === 123) return -1; // strings may hold `]`
      const e = s.indexOf("]", v);
      return e < 0 || e >= b ? -1 : e + 1;
    }
    if (c === 123 /* { */) return -1;
    let j = v;
    while (j < b && s.charCodeAt(j) !== 44 && s.charCodeAt(j) !== 125) j++;
    return j;
  }

  private closingQuote(v: number, b: number): number {
    const s = this.text;
    let e = s.indexOf('"', v + 1);
    while (e > 0 && e < b && escaped(s, e)) e = s.indexOf('"', e + 1);
    return e < 0 || e >= b ? -1 : e;
  }

  private value(v: number, b: number, bytesAllowed: boolean): unknown {
    const s = this.text;
    const c = s.charCodeAt(v);
    if (c === QUOTE) return this.string(v, b);
    if (c === 91 /* [ */) return bytesAllowed ? this.byteArray(v, b) : FALLBACK; // only MESSAGE is read as bytes
    if (c === 110 /* n */ && s.startsWith("null", v)) {
      this.end = v + 4;
      return null;
    }
    return FALLBACK;
  }

  private string(v: number, b: number): string | typeof FALLBACK {
    const s = this.text;
    const e = this.closingQuote(v, b);
    if (e < 0) return FALLBACK;
    this.end = e + 1;
    let bs = this.nextBackslash;
    if (bs === -2 || (bs >= 0 && bs <= v)) this.nextBackslash = bs = s.indexOf("\\", v + 1);
    if (bs >= 0 && bs < e) {
      try {
        return JSON.parse(s.slice(v, e + 1)) as string;
      } catch {
        return FALLBACK;
      }
    }
    return s.slice(v + 1, e);
  }

  /** `[27,91,...]`: journald's form of a value with control characters. */
  private byteArray(v: number, b: number): Buffer | typeof FALLBACK {
    const s = this.text;
    let n = 0;
    let cur = -1;
    for (let i = v + 1; i < b; i++) {
      const c = s.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        cur = cur < 0 ? c - 48 : cur * 10 + (c - 48);
        if (cur > 255) return FALLBACK;
      } else if (c === 44 /* , */ || c === 93 /* ] */) {
        if (cur < 0) {
          if (c === 93 && n === 0) {
            this.end = i + 1;
            return Buffer.alloc(0);
          }
          return FALLBACK;
        }
        if (n === this.bytes.length) {
          const grown = Buffer.allocUnsafe(n * 2);
          this.bytes.copy(grown);
          this.bytes = grown;
        }
        this.bytes[n++] = cur;
        cur = -1;
        if (c === 93) {
          this.end = i + 1;
          return this.bytes.subarray(0, n);
        }
      } else if (!isSpace(c)) return FALLBACK; // an array of strings: a multi-valued field
    }
    return FALLBACK;
  }
}

/** An odd number of backslashes before position e: the quote is part of the string. */
function escaped(s: string, e: number): boolean {
  let n = 0;
  for (let i = e - 1; s.charCodeAt(i) === BACKSLASH; i--) n++;
  return (n & 1) === 1;
}
