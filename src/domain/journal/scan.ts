// Finds the few journald fields the decoder needs in one `journalctl -o json` line, as bytes, without
// building the object or any string: where each wanted value lies (a span), nothing else. Pure.
//
// JSON.parse of ~20 fields per record was most of the decoder's cost, and so was turning every read into
// a string first. Here a line is walked key to key: a key's bytes are read to know it, a string value is
// jumped over with a native indexOf for its closing quote. Anything the walk does not expect (numbers or
// arrays in a wanted field, nested values, arrays of strings, escaped keys) makes scan() return false and
// the caller parses that line with JSON.parse: the same result, slower.
import { isAscii } from "node:buffer";

export const WANTED = [
  "__CURSOR",
  "__REALTIME_TIMESTAMP",
  "_SOURCE_REALTIME_TIMESTAMP",
  "MESSAGE",
  "CONTAINER_ID",
  "CONTAINER_NAME",
  "_TRANSPORT",
  "CONTAINER_PARTIAL_MESSAGE",
  "_LINE_BREAK",
  "_STREAM_ID",
  "PRIORITY",
  "UNIT",
  "USER_UNIT",
  "_SYSTEMD_UNIT",
  "SYSLOG_IDENTIFIER",
  "_COMM",
] as const;

/** Field numbers: indexes into WANTED. */
export const F_CURSOR = 0,
  F_RT = 1,
  F_SRT = 2,
  F_MESSAGE = 3,
  F_CID = 4,
  F_CNAME = 5,
  F_TRANSPORT = 6,
  F_PARTIAL = 7,
  F_LINE_BREAK = 8,
  F_STREAM = 9,
  F_PRIORITY = 10,
  F_UNIT = 11,
  F_USER_UNIT = 12,
  F_SYSTEMD_UNIT = 13,
  F_IDENT = 14,
  F_COMM = 15;

/** What a span holds: a string without escapes, one with, a byte array (decoded into `bytes`), null. */
export const ABSENT = 0,
  STR = 1,
  STR_ESC = 2,
  BYTES = 3,
  NULL = 4;

const QUOTE = 34,
  BACKSLASH = 92,
  COMMA = 44,
  CLOSE = 125,
  COLON = 58,
  BRACKET_CLOSE = 93;

/**
 * Wanted keys by a hash of their bytes, computed while a key is read: an open-addressed table, so most
 * keys are known unwanted after one probe and only a hash match is compared byte by byte.
 */
const KEY_BYTES = WANTED.map((k) => Buffer.from(k, "latin1"));
const TABLE = 256;
const tableHash = new Int32Array(TABLE);
const tableField = new Int8Array(TABLE).fill(-1);
const keyHash = (h: number, c: number) => (Math.imul(h, 31) + c) | 0;
const slotOf = (h: number) => (h ^ (h >>> 8) ^ (h >>> 16)) & (TABLE - 1);
KEY_BYTES.forEach((key, f) => {
  let h = 0;
  for (const c of key) h = keyHash(h, c);
  let slot = slotOf(h);
  while (tableField[slot] !== -1) slot = (slot + 1) & (TABLE - 1);
  tableHash[slot] = h;
  tableField[slot] = f;
});

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

type Slicer = (this: Buffer, start: number, end: number) => string;
const proto = Buffer.prototype as unknown as { latin1Slice?: Slicer; utf8Slice?: Slicer };
// Buffer's own per-encoding slicers: toString(enc, a, b) costs several times more per short string.
const latin1Slice: Slicer =
  proto.latin1Slice ??
  function (this: Buffer, a, b) {
    return this.toString("latin1", a, b);
  };
const utf8Slice: Slicer =
  proto.utf8Slice ??
  function (this: Buffer, a, b) {
    return this.toString("utf8", a, b);
  };

/** buf[a, e) as UTF-8 text (lossy); `ascii`: known to be ASCII, so a plain copy. */
export function bytesText(buf: Buffer, a: number, e: number, ascii: boolean): string {
  return ascii ? latin1Slice.call(buf, a, e) : utf8Slice.call(buf, a, e);
}

export class SpanScanner {
  buf: Buffer = Buffer.alloc(0);
  /** Per wanted field: its kind and, for STR/STR_ESC, the bytes between the quotes. */
  readonly kind = new Uint8Array(WANTED.length);
  readonly start = new Int32Array(WANTED.length);
  readonly end = new Int32Array(WANTED.length);
  /** A byte-array MESSAGE, decoded: valid until the next scan (copy what is kept). */
  bytes: Buffer = Buffer.allocUnsafe(4096);
  bytesLength = 0;
  /** Every byte of the byte-array MESSAGE is below 0x80. */
  bytesAscii = true;
  /** Where the next backslash at or after the last string value is (-1: none left in buf). */
  private nextBackslash = -2;

  /** Every byte of buf is below 0x80: a span becomes a string by a plain copy. */
  ascii = false;

  reset(buf: Buffer): void {
    this.buf = buf;
    this.nextBackslash = -2;
    this.ascii = isAscii(buf);
  }

  /** buf[a, e) as UTF-8 text (lossy, as Buffer's toString). */
  text(a: number, e: number): string {
    return bytesText(this.buf, a, e, this.ascii);
  }

  /** Reads the object in buf[a, b) (trimmed, `{` ... `}`); false: leave the line to JSON.parse. */
  scan(a: number, b: number): boolean {
    const s = this.buf;
    const kind = this.kind;
    for (let f = 0; f < kind.length; f++) kind[f] = ABSENT;
    let i = a + 1;
    for (let first = true; ; first = false) {
      let c = s[i]!;
      if (c !== QUOTE) {
        while (i < b && isSpace(s[i]!)) i++;
        c = s[i]!;
        if (c === CLOSE) return first && i === b - 1; // `{}`; after a comma a key must follow
        if (c !== QUOTE) return false;
      }
      let ke = i + 1;
      let h = 0;
      while (ke < b && (c = s[ke]!) !== QUOTE) {
        if (c === BACKSLASH) return false;
        h = keyHash(h, c);
        ke++;
      }
      if (ke >= b) return false;
      const want = this.wanted(i + 1, ke, h);
      let v = ke + 1;
      if (s[v] !== COLON) {
        while (v < b && isSpace(s[v]!)) v++;
        if (s[v] !== COLON) return false;
      }
      c = s[++v]!;
      if (isSpace(c)) {
        while (v < b && isSpace(s[v]!)) v++;
        c = s[v]!;
      }
      let next: number;
      if (c === QUOTE) {
        let e = s.indexOf(QUOTE, v + 1);
        while (e > 0 && e < b && s[e - 1] === BACKSLASH && escaped(s, e)) e = s.indexOf(QUOTE, e + 1);
        if (e < 0 || e >= b) return false;
        if (want >= 0) {
          let bs = this.nextBackslash;
          if (bs === -2 || (bs >= 0 && bs <= v)) this.nextBackslash = bs = s.indexOf(BACKSLASH, v + 1);
          this.kind[want] = bs >= 0 && bs < e ? STR_ESC : STR;
          this.start[want] = v + 1;
          this.end[want] = e;
        }
        next = e + 1;
      } else if (want < 0) {
        next = skipOther(s, v, b, c);
        if (next < 0) return false;
      } else if (c === 110 /* n */ && s[v + 1] === 117 && s[v + 2] === 108 && s[v + 3] === 108) {
        this.kind[want] = NULL;
        next = v + 4;
      } else if (c === 91 /* [ */ && want === F_MESSAGE) {
        next = this.byteArray(v, b);
        if (next < 0) return false;
        this.kind[want] = BYTES;
      } else return false;
      c = s[next]!;
      if (c === COMMA) {
        i = next + 1;
        continue;
      }
      if (isSpace(c)) {
        while (next < b && isSpace(s[next]!)) next++;
        c = s[next]!;
      }
      if (c === COMMA) i = next + 1;
      else if (c === CLOSE) return next === b - 1;
      else return false;
    }
  }

  /** Index into WANTED of the key buf[k, e) whose hash is h, or -1. */
  private wanted(k: number, e: number, h: number): number {
    for (let slot = slotOf(h); ; slot = (slot + 1) & (TABLE - 1)) {
      const f = tableField[slot]!;
      if (f < 0) return -1;
      if (tableHash[slot] !== h) continue;
      const key = KEY_BYTES[f]!;
      if (key.length !== e - k) continue;
      const s = this.buf;
      let x = 0;
      while (x < key.length && key[x] === s[k + x]) x++;
      if (x === key.length) return f;
    }
  }

  /** `[27,91,...]`, journald's form of a value with control characters: decoded into `bytes`; just past it, or -1. */
  private byteArray(v: number, b: number): number {
    const fast = this.compactByteArray(v, b);
    return fast !== -2 ? fast : this.spacedByteArray(v, b);
  }

  /** The compact form journalctl writes, element by element; -2: not that form (spaces, `[]`). */
  private compactByteArray(v: number, b: number): number {
    const s = this.buf;
    let out = this.bytes;
    let n = 0;
    let high = 0;
    let i = v + 1;
    for (;;) {
      let d = s[i]! - 48;
      if (d < 0 || d > 9) return -2;
      let x = d;
      d = s[++i]! - 48;
      if (d >= 0 && d <= 9) {
        x = x * 10 + d;
        d = s[++i]! - 48;
        if (d >= 0 && d <= 9) {
          x = x * 10 + d;
          i++;
          if (x > 255) return -1;
        }
      }
      if (n === out.length) out = this.grow(n);
      out[n++] = x;
      high |= x;
      const c = s[i];
      if (c === COMMA) i++;
      else if (c === BRACKET_CLOSE && i < b) {
        this.bytesLength = n;
        this.bytesAscii = high < 0x80;
        return i + 1;
      } else return -2;
    }
  }

  private grow(n: number): Buffer {
    const grown = Buffer.allocUnsafe(n * 2);
    this.bytes.copy(grown);
    return (this.bytes = grown);
  }

  /** Any spacing, and `[]`. */
  private spacedByteArray(v: number, b: number): number {
    const s = this.buf;
    let n = 0;
    let cur = -1;
    let high = 0;
    let out = this.bytes;
    for (let i = v + 1; i < b; i++) {
      const c = s[i]!;
      if (c >= 48 && c <= 57) {
        cur = cur < 0 ? c - 48 : cur * 10 + (c - 48);
        if (cur > 255) return -1;
      } else if (c === COMMA || c === BRACKET_CLOSE) {
        if (cur < 0) {
          if (c !== BRACKET_CLOSE || n !== 0) return -1;
          this.bytesLength = 0; // []
          this.bytesAscii = true;
          return i + 1;
        }
        if (n === out.length) out = this.grow(n);
        out[n++] = cur;
        high |= cur;
        cur = -1;
        if (c === BRACKET_CLOSE) {
          this.bytesLength = n;
          this.bytesAscii = high < 0x80;
          return i + 1;
        }
      } else if (!isSpace(c)) return -1; // an array of strings: a multi-valued field, left to JSON.parse
    }
    return -1;
  }
}

/** Just past an unwanted non-string value at v, or -1 for a shape left to JSON.parse. */
function skipOther(s: Buffer, v: number, b: number, c: number): number {
  if (c === 91 /* [ */) {
    let j = v + 1;
    while (j < b && isSpace(s[j]!)) j++;
    const d = s[j];
    if (d === QUOTE || d === 91 || d === 123) return -1; // strings may hold `]`
    const e = s.indexOf(BRACKET_CLOSE, v);
    return e < 0 || e >= b ? -1 : e + 1;
  }
  if (c === 123 /* { */) return -1;
  let j = v;
  while (j < b && s[j] !== COMMA && s[j] !== CLOSE) j++;
  return j;
}

/** An odd number of backslashes before position e: the quote is part of the string. */
function escaped(s: Buffer, e: number): boolean {
  let n = 0;
  for (let i = e - 1; s[i] === BACKSLASH; i--) n++;
  return (n & 1) === 1;
}
