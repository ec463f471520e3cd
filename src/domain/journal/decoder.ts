// `journalctl -o json` decoding (reference §4), streaming: push JSON lines (one, or a text of many), get the
// finished records. Each line's fields are scanned, not parsed: in WebAssembly for text and bytes
// (journal-lines.ts, wasm/), by journal-scan.ts and journal-head.ts for single lines and the lines the C side
// leaves. The output is the same as a JSON.parse per line (test/forensics/journal-reference.ts, checked by
// differential tests and the bench).
// Memory stays flat: partial pieces, the podman duplicate window and the cursor set are all bounded.
import { isAscii } from "node:buffer";
import { emptyHead, headFromObject, headFromSpans, Interner, spanStr, type Head } from "./head.js";
import { Pieces } from "./pieces.js";
import {
  E_SLOW,
  EM_LINES,
  EM_ONE,
  FL_ASCII,
  FL_CID,
  FL_DUP,
  FL_LINE_MAX,
  FL_PARTIAL,
  FL_SID,
  FL_SRC,
  M_BYTES,
  M_NONE,
  M_STR,
  WasmLines,
} from "./wasm-lines.js";
import { BYTES, bytesText, F_CURSOR, F_MESSAGE, SpanScanner, STR, STR_ESC } from "./scan.js";
import { unescapeSimple } from "./unescape.js";
import { TwinWindow } from "./twins.js";
import type { LogRecord } from "./record.js";
import { cleanLine } from "./line.js";

export interface JournalStats {
  records: number;
  malformed: number;
  truncatedNull: number;
  podmanDuplicates: number;
  cursorDuplicates: number;
  joinedPieces: number;
}

/** How many decoded lines wait for their podman twin before they are emitted. */
const WINDOW = 256;
/** pushBytes holds at most this much of a line still without its newline. */
const MAX_LINE_BYTES = 4 << 20;
/** Lines go to the WebAssembly half in runs of about this many bytes (cut after a newline). */
const RUN_BYTES = 1 << 20;

/** MESSAGE as a string, a byte array (non-printable content) or null (over 4096 bytes without `--all`). */
export function messageBytes(value: unknown): Buffer | null {
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (Array.isArray(value)) {
    if (value.length === 0) return Buffer.alloc(0);
    // A multi-valued field is an array of values: the last one is the newest.
    if (typeof value[0] !== "number") return messageBytes(value[value.length - 1]);
    return Buffer.from(value as number[]);
  }
  return null;
}

export class JournalDecoder {
  readonly stats: JournalStats = {
    records: 0,
    malformed: 0,
    truncatedNull: 0,
    podmanDuplicates: 0,
    cursorDuplicates: 0,
    joinedPieces: 0,
  };
  private readonly pieces = new Pieces();
  private readonly window = new TwinWindow();
  /** The per-line work (fields, head, MESSAGE bytes, cursors) in WebAssembly; lines it leaves are read here. */
  private readonly wasm = new WasmLines();
  private readonly head = emptyHead();
  private readonly scanner = new SpanScanner();
  private readonly intern = new Interner();
  /** The start of a line still without its newline, in tail[0, tailLength). */
  private tail = Buffer.alloc(0);
  private tailLength = 0;
  /** This line's MESSAGE with its escapes undone, escaped[0, escapedLength); -1: it is in escapedText. */
  private escaped = Buffer.allocUnsafe(4096);
  private escapedLength = -1;
  private escapedText = "";

  /** One JSON line. */
  push(jsonLine: string): LogRecord[] {
    const out: LogRecord[] = [];
    const buf = Buffer.from(jsonLine, "utf8");
    this.scanner.reset(buf);
    this.line(buf, 0, buf.length, out);
    return out;
  }

  /** A text of whole lines. */
  pushText(text: string, out: LogRecord[] = []): LogRecord[] {
    this.lines(Buffer.from(text, "utf8"), 0, -1, out);
    return out;
  }

  /**
   * Raw bytes as read (any cut): whole lines are decoded in place, the rest waits for the next call. Lines
   * are cut at newline bytes, so no UTF-8 character is split.
   */
  pushBytes(chunk: Buffer, out: LogRecord[] = []): LogRecord[] {
    let from = 0;
    if (this.tailLength > 0) {
      // The held start of a line and this chunk's first line, joined alone (not the whole chunk).
      const nl = chunk.indexOf(10);
      this.hold(nl < 0 ? chunk : chunk.subarray(0, nl));
      if (nl < 0) {
        if (this.tailLength > MAX_LINE_BYTES) this.overlong(out);
        return out;
      }
      const first = this.tail.subarray(0, this.tailLength);
      this.tailLength = 0;
      this.lines(first, 0, first.length, out);
      from = nl + 1;
    }
    const cut = chunk.lastIndexOf(10);
    if (cut >= from) this.lines(chunk, from, cut, out);
    const rest = Math.max(cut + 1, from);
    if (rest < chunk.length) {
      this.hold(chunk.subarray(rest));
      if (this.tailLength > MAX_LINE_BYTES) this.overlong(out);
    }
    return out;
  }

  private hold(piece: Buffer): void {
    const need = this.tailLength + piece.length;
    if (need > this.tail.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.tail.length * 2, 4096));
      this.tail.copy(grown, 0, 0, this.tailLength);
      this.tail = grown;
    }
    piece.copy(this.tail, this.tailLength);
    this.tailLength = need;
  }

  /** A line that never ends is not held: its piece goes through as a line (malformed JSON, counted). */
  private overlong(out: LogRecord[]): void {
    const piece = Buffer.from(this.tail.subarray(0, this.tailLength));
    this.tailLength = 0;
    this.lines(piece, 0, piece.length, out);
  }

  /** The lines of buf[a, b) (b = -1: to the end), in runs of about RUN_BYTES cut after a newline. */
  private lines(buf: Buffer, a: number, b: number, out: LogRecord[]): void {
    const end = b < 0 ? buf.length : b;
    while (a < end) {
      let e = end;
      if (e - a > RUN_BYTES) {
        const nl = buf.lastIndexOf(10, a + RUN_BYTES - 1);
        const far = nl >= a ? nl : buf.indexOf(10, a + RUN_BYTES);
        e = far < 0 || far >= end ? end : far + 1;
      }
      this.run(buf, a, e, out);
      a = e;
    }
  }

  /** One run: the WebAssembly half reads its lines; what it leaves (SLOW) is read by line(), in order. */
  private run(buf: Buffer, a: number, e: number, out: LogRecord[]): void {
    const w = this.wasm;
    const ascii = isAscii(buf.subarray(a, e));
    w.load(buf, a, e);
    for (let from = 0, n = e - a; from < n; from = w.resume()) {
      const count = w.run(from, n);
      for (let i = 0; i < count; i++) {
        if (w.status[i] === E_SLOW) {
          const line = Buffer.from(w.mem.subarray(w.a[i], w.b[i])); // its own bytes: a cursor check may grow the memory
          this.scanner.reset(line);
          this.line(line, 0, line.length, out);
        } else this.fast(w, i, ascii, out);
      }
    }
  }

  /** A line the WebAssembly half read whole: the same steps as line() from its results. */
  private fast(w: WasmLines, i: number, ascii: boolean, out: LogRecord[]): void {
    this.stats.records++;
    const fl = w.flags[i]!;
    if ((fl & FL_DUP) !== 0) {
      this.stats.cursorDuplicates++;
      return;
    }
    const h = this.head;
    h.ts = w.ts[i]!;
    const p = w.prio[i]!;
    h.priority = p < 0 ? null : p;
    h.container = w.name(w.container[i]!);
    h.unit = w.name(w.unit[i]!);
    h.identifier = w.name(w.ident[i]!);
    h.cid = w.name(w.cid[i]!);
    h.sid = w.name(w.sid[i]!);
    h.cidPresent = (fl & FL_CID) !== 0;
    h.sidPresent = (fl & FL_SID) !== 0;
    h.src = fl & FL_SRC;
    h.partial = (fl & FL_PARTIAL) !== 0;
    h.lineMax = (fl & FL_LINE_MAX) !== 0;
    const joining = h.partial || h.lineMax || (this.pieces.size > 0 && this.pieces.holds(h));
    const kind = w.kind[i]!;
    if (kind === M_NONE) {
      this.stats.truncatedNull++;
      return;
    }
    const textAscii = kind === M_BYTES ? (fl & FL_ASCII) !== 0 : ascii;
    if (joining) {
      if (kind === M_STR && !ascii) {
        const bytes = Buffer.from(bytesText(w.mem, w.ms[i]!, w.me[i]!, false), "utf8");
        this.join(h, bytes, 0, bytes.length);
      } else this.join(h, w.mem, w.ms[i]!, w.me[i]!, textAscii);
    } else {
      const emit = w.emit[i];
      if (emit === EM_ONE) this.emitLine(h, bytesText(w.mem, w.cs[i]!, w.ce[i]!, textAscii));
      else if (emit === EM_LINES) this.emitBytes(h, w.mem, w.cs[i]!, w.ce[i]!, textAscii);
      else this.emitMessage(h, bytesText(w.mem, w.ms[i]!, w.me[i]!, false));
    }
    this.window.drain(WINDOW, out);
    this.stats.podmanDuplicates = this.window.duplicates;
  }

  private line(buf: Buffer, a: number, b: number, out: LogRecord[]): void {
    while (a < b && buf[a]! <= 32) a++;
    while (b > a && buf[b - 1]! <= 32) b--;
    if (a === b) return;
    const sc = this.scanner;
    const h = this.head;
    let raw: Record<string, unknown> | null = null;
    let kind: number;
    if (buf[a] === 123 && buf[b - 1] === 125 && sc.scan(a, b)) {
      kind = sc.kind[F_MESSAGE]!;
      if (!this.spanHead(kind)) {
        this.stats.malformed++;
        return;
      }
    } else {
      try {
        const v = JSON.parse(buf.toString("utf8", a, b).trim()) as unknown; // trim: as String.trim, e.g. a BOM
        raw = typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {};
      } catch {
        this.stats.malformed++; // a dump cut mid-line; the rest still decodes
        return;
      }
      headFromObject(raw, h);
      kind = typeof raw.MESSAGE === "string" ? STR_ESC : 0;
    }
    this.stats.records++;
    if (
      raw === null ? this.seenSpanCursor(h.cursorTs) : h.cursor !== null && this.seenCursorString(h.cursor, h.cursorTs)
    ) {
      this.stats.cursorDuplicates++;
      return;
    }
    const joining = h.partial || h.lineMax || (this.pieces.size > 0 && this.pieces.holds(h));
    if (kind === STR && !joining) {
      // The common case. A JSON string holds no raw control character, so no ANSI or \r to clean.
      this.emitLine(h, sc.text(sc.start[F_MESSAGE]!, sc.end[F_MESSAGE]!));
    } else if (kind === STR_ESC && !joining) {
      if (raw !== null) this.emitMessage(h, raw.MESSAGE as string);
      else if (this.escapedLength >= 0) this.emitBytes(h, this.escaped, 0, this.escapedLength, sc.ascii);
      else this.emitMessage(h, this.escapedText);
    } else if (kind === BYTES && !joining) {
      this.emitMessage(h, bytesText(sc.bytes, 0, sc.bytesLength, sc.bytesAscii));
    } else if (!this.joinMessage(h, raw, kind)) {
      this.stats.truncatedNull++;
      return;
    }
    this.window.drain(WINDOW, out);
    this.stats.podmanDuplicates = this.window.duplicates;
  }

  /**
   * The record's fields from the scanner's spans, escaped ones decoded (MESSAGE into `escaped`, or
   * `escapedText` for the escapes unescapeSimple leaves). False: a string JSON.parse refuses (a raw
   * control character, which journalctl never writes): the line is malformed, as JSON.parse of it says.
   */
  private spanHead(kind: number): boolean {
    const sc = this.scanner;
    try {
      headFromSpans(sc, this.head, this.intern);
      if (sc.kind[F_CURSOR] === STR_ESC) this.head.cursor = spanStr(sc, F_CURSOR);
      if (kind === STR_ESC) {
        const a = sc.start[F_MESSAGE]!;
        const e = sc.end[F_MESSAGE]!;
        if (this.escaped.length < e - a) this.escaped = Buffer.allocUnsafe(Math.max(e - a, this.escaped.length * 2));
        this.escapedLength = unescapeSimple(sc.buf, a, e, this.escaped);
        if (this.escapedLength < 0) this.escapedText = spanStr(sc, F_MESSAGE)!;
      }
      return true;
    } catch (err) {
      if (err instanceof SyntaxError) return false;
      throw err;
    }
  }

  /** MESSAGE as bytes to the joiner; false when it has none (null, absent, not a string or byte array). */
  private joinMessage(h: Head, raw: Record<string, unknown> | null, kind: number): boolean {
    const sc = this.scanner;
    if (raw !== null) {
      const bytes = messageBytes(raw.MESSAGE);
      if (bytes !== null) this.join(h, bytes, 0, bytes.length);
      return bytes !== null;
    }
    if (kind === BYTES) this.join(h, sc.bytes, 0, sc.bytesLength, sc.bytesAscii);
    else if (kind === STR && sc.ascii)
      this.join(h, sc.buf, sc.start[F_MESSAGE]!, sc.end[F_MESSAGE]!, true); // the same bytes, no round trip
    else if (kind === STR_ESC && this.escapedLength >= 0) this.join(h, this.escaped, 0, this.escapedLength, sc.ascii);
    else if (kind === STR || kind === STR_ESC) {
      const bytes = Buffer.from(kind === STR ? spanStr(sc, F_MESSAGE)! : this.escapedText, "utf8");
      this.join(h, bytes, 0, bytes.length);
    } else return false;
    return true;
  }

  /** One piece of a message cut by conmon or journald: held, or joined and emitted. */
  private join(h: Head, buf: Buffer, a: number, e: number, ascii = false): void {
    const p = this.pieces;
    if (p.take(h, buf, a, e)) this.emitMessage(p.head, bytesText(p.buf, p.start, p.end, p.ascii && ascii));
    this.stats.joinedPieces = p.joined;
  }

  private seenSpanCursor(ts: number): boolean {
    const sc = this.scanner;
    const k = sc.kind[F_CURSOR];
    if (k === STR) return this.wasm.seenCursor(sc.buf, sc.start[F_CURSOR]!, sc.end[F_CURSOR]!, ts);
    return k === STR_ESC && this.seenCursorString(this.head.cursor!, ts);
  }

  private seenCursorString(cursor: string, ts: number): boolean {
    const bytes = Buffer.from(cursor, "utf8");
    return this.wasm.seenCursor(bytes, 0, bytes.length, ts);
  }

  /** End of input: everything still held back. */
  flush(): LogRecord[] {
    const out: LogRecord[] = [];
    if (this.tailLength > 0) {
      const last = Buffer.from(this.tail.subarray(0, this.tailLength));
      this.tailLength = 0;
      this.lines(last, 0, last.length, out);
    }
    for (const p of this.pieces.rest()) this.emitMessage(p.head, p.bytes.toString("utf8"));
    this.window.drain(0, out);
    this.stats.podmanDuplicates = this.window.duplicates;
    return out;
  }

  /** A decoded MESSAGE: one record per physical line, each cleaned as a terminal shows it. */
  private emitMessage(h: Head, decoded: string): void {
    let text = decoded;
    if (text.endsWith("\n")) text = text.slice(0, -1); // conmon keeps the newline, the stdout copy does not
    let a = 0;
    for (;;) {
      const nl = text.indexOf("\n", a);
      this.emitLine(h, cleanLine(nl < 0 && a === 0 ? text : text.slice(a, nl < 0 ? text.length : nl)));
      if (nl < 0) break;
      a = nl + 1;
    }
  }

  /** A decoded MESSAGE's bytes s[from, n) holding no control byte but \n and \t: emitMessage without cleaning. */
  private emitBytes(h: Head, s: Buffer, from: number, n: number, ascii: boolean): void {
    const end = n > from && s[n - 1] === 10 ? n - 1 : n;
    for (let a = from; a < end;) {
      let nl = s.indexOf(10, a);
      if (nl < 0 || nl > end) nl = end;
      if (nl > a) this.emitLine(h, bytesText(s, a, nl, ascii));
      a = nl + 1;
    }
  }

  /** One clean line (empty ones are dropped). */
  private emitLine(h: Head, line: string): void {
    if (line === "") return;
    this.window.add(h, line, h.src);
  }
}

/** A whole dump at once (tests, small files). */
export function decodeJournal(text: string): { records: LogRecord[]; stats: JournalStats } {
  const decoder = new JournalDecoder();
  const records = decoder.pushText(text);
  records.push(...decoder.flush());
  return { records, stats: decoder.stats };
}
