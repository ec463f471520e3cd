// `journalctl -o json` decoding (reference §4), streaming: push JSON lines (one, or a text of many), get the
// finished records. Fields are scanned, not parsed (journal-fields.ts); the output is the same as a
// JSON.parse per line (test/forensics/journal-reference.ts, checked by a differential test and the bench).
// Memory stays flat: partial pieces, the podman duplicate window and the cursor set are all bounded.
import { isAscii } from "node:buffer";
import { cleanLine } from "../engine/vllm/lines.js";
import { FALLBACK, FieldScanner, fieldsOf, type Fields } from "./journal-fields.js";
import type { LogRecord } from "./record.js";

type Raw = Fields;
type Source = "container" | "stdout" | "other";

interface Pending {
  rec: LogRecord;
  src: Source;
  paired: boolean;
}

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
const CURSORS = 4096;
/** A partial message that never ends is flushed at this size. */
const MAX_PARTIAL_BYTES = 1 << 20;
/** pushBytes holds at most this much of a line still without its newline. */
const MAX_LINE_BYTES = 4 << 20;

/** MESSAGE as a string, a byte array (non-printable content) or null (over 4096 bytes without `--all`). */
export function messageBytes(value: unknown): Buffer | null {
  if (Buffer.isBuffer(value)) return value; // the scanner's form of a byte array
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (Array.isArray(value)) {
    if (value.length === 0) return Buffer.alloc(0);
    // A multi-valued field is an array of values: the last one is the newest.
    if (typeof value[0] !== "number") return messageBytes(value[value.length - 1]);
    return Buffer.from(value as number[]);
  }
  return null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? (v[0] as string) : null;
}

function sourceOf(raw: Raw): Source {
  if (raw.CONTAINER_ID !== undefined || raw.CONTAINER_NAME !== undefined) return "container";
  return raw._TRANSPORT === "stdout" ? "stdout" : "other";
}

export class JournalDecoder {
  readonly stats: JournalStats = { records: 0, malformed: 0, truncatedNull: 0, podmanDuplicates: 0, cursorDuplicates: 0, joinedPieces: 0 };
  private readonly partial = new Map<string, { raw: Raw; chunks: Buffer[]; size: number }>();
  private readonly pending: Pending[] = [];
  private head = 0;
  /** Unpaired pending lines by source, then text, oldest first: the podman twin lookup. */
  private readonly unpaired = { container: new Map<string, Pending[]>(), stdout: new Map<string, Pending[]>() };
  private readonly ringTs = new Float64Array(CURSORS).fill(NaN);
  private readonly ringCursor: Array<string | undefined> = new Array<string | undefined>(CURSORS);
  private cursorAt = 0;
  private maxTs = -Infinity;
  private readonly scanner = new FieldScanner();

  /** One JSON line. */
  push(jsonLine: string): LogRecord[] {
    const out: LogRecord[] = [];
    this.scanner.reset(jsonLine);
    this.line(jsonLine, 0, jsonLine.length, out);
    return out;
  }

  private tail: Buffer = Buffer.alloc(0);

  /**
   * Raw bytes as read (any cut): whole lines are decoded, the rest waits for the next call. The cut is at a
   * newline byte, so no UTF-8 character is split; an ASCII chunk becomes a string by a plain copy.
   */
  pushBytes(chunk: Buffer, out: LogRecord[] = []): LogRecord[] {
    let from = 0;
    if (this.tail.length > 0) {
      // The held start of a line and this chunk's first line, joined alone (not the whole chunk).
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.tail = Buffer.concat([this.tail, chunk]);
        if (this.tail.length > MAX_LINE_BYTES) this.overlong(out);
        return out;
      }
      const first = Buffer.concat([this.tail, chunk.subarray(0, nl)]);
      this.tail = Buffer.alloc(0);
      this.pushText(first.toString("utf8"), out);
      from = nl + 1;
    }
    const cut = chunk.lastIndexOf(10);
    if (cut < from) {
      this.tail = Buffer.from(chunk.subarray(from));
      if (this.tail.length > MAX_LINE_BYTES) this.overlong(out);
      return out;
    }
    if (cut + 1 < chunk.length) this.tail = Buffer.from(chunk.subarray(cut + 1));
    const body = chunk.subarray(from, cut);
    return this.pushText(isAscii(body) ? body.toString("latin1") : body.toString("utf8"), out);
  }

  /** A line that never ends is not held: its piece goes through as a line (malformed JSON, counted). */
  private overlong(out: LogRecord[]): void {
    const piece = this.tail;
    this.tail = Buffer.alloc(0);
    this.pushText(piece.toString("utf8"), out);
  }

  /** A text of whole lines (a read chunk cut at its last newline): no string per line is made. */
  pushText(text: string, out: LogRecord[] = []): LogRecord[] {
    this.scanner.reset(text);
    let a = 0;
    while (a < text.length) {
      let b = text.indexOf("\n", a);
      if (b < 0) b = text.length;
      this.line(text, a, b, out);
      a = b + 1;
    }
    return out;
  }

  private line(text: string, a: number, b: number, out: LogRecord[]): void {
    while (a < b && text.charCodeAt(a) <= 32) a++;
    while (b > a && text.charCodeAt(b - 1) <= 32) b--;
    if (a === b) return;
    let raw = text.charCodeAt(a) === 123 && text.charCodeAt(b - 1) === 125 ? this.scanner.scan(a, b) : FALLBACK;
    if (raw === FALLBACK) {
      try {
        const v = JSON.parse(text.slice(a, b).trim()) as unknown; // trim: as String.trim, e.g. a BOM
        raw = fieldsOf(typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {});
      } catch {
        this.stats.malformed++; // a dump cut mid-line; the rest still decodes
        return;
      }
    }
    this.stats.records++;
    if (this.seenCursor(raw.__CURSOR, Number(raw.__REALTIME_TIMESTAMP) || 0)) return;
    if (typeof raw.MESSAGE === "string" && !this.needsJoin(raw)) {
      this.emitMessage(raw, raw.MESSAGE); // the common case: no bytes round trip
    } else {
      const bytes = messageBytes(raw.MESSAGE);
      if (bytes === null) {
        this.stats.truncatedNull++;
        return;
      }
      const whole = this.join(raw, bytes);
      if (whole) this.emitMessage(whole.raw, whole.bytes.toString("utf8")); // lossy: invalid sequences become U+FFFD
    }
    this.drain(WINDOW, out);
  }

  /** End of input: everything still held back. */
  flush(): LogRecord[] {
    const out: LogRecord[] = [];
    if (this.tail.length > 0) {
      this.pushText(this.tail.toString("utf8"), out);
      this.tail = Buffer.alloc(0);
    }
    for (const [, p] of this.partial) this.emitMessage(p.raw, Buffer.concat(p.chunks).toString("utf8"));
    this.partial.clear();
    this.drain(0, out);
    return out;
  }

  /**
   * Overlapping exports repeat records: a record whose timestamp and cursor match one of the last CURSORS
   * records is dropped. A repeat has its original's timestamp, so a timestamp above every one seen so far
   * is new without a lookup (the common case: one export, in order); otherwise the ring is searched.
   */
  private seenCursor(cursor: unknown, ts: number): boolean {
    if (typeof cursor !== "string") return false;
    if (ts <= this.maxTs) {
      for (let i = 0; i < CURSORS; i++) {
        if (this.ringTs[i] === ts && this.ringCursor[i] === cursor) {
          this.stats.cursorDuplicates++;
          return true;
        }
      }
    } else this.maxTs = ts;
    this.ringTs[this.cursorAt] = ts;
    this.ringCursor[this.cursorAt] = cursor;
    this.cursorAt = (this.cursorAt + 1) % CURSORS;
    return false;
  }

  private needsJoin(raw: Raw): boolean {
    if (raw.CONTAINER_PARTIAL_MESSAGE === "true" || raw._LINE_BREAK === "line-max") return true;
    if (this.partial.size === 0) return false;
    return this.partial.has(`c:${str(raw.CONTAINER_ID)}`) || this.partial.has(`s:${str(raw._STREAM_ID)}`);
  }

  /** conmon's CONTAINER_PARTIAL_MESSAGE pieces and journald's LineMax cuts, joined as bytes (a UTF-8 char may straddle). */
  private join(raw: Raw, bytes: Buffer): { raw: Raw; bytes: Buffer } | null {
    const isPartial = raw.CONTAINER_PARTIAL_MESSAGE === "true";
    const key = raw.CONTAINER_ID !== undefined ? `c:${str(raw.CONTAINER_ID)}` : raw._STREAM_ID !== undefined ? `s:${str(raw._STREAM_ID)}` : null;
    const isLineMax = raw._LINE_BREAK === "line-max";
    const held = key ? this.partial.get(key) : undefined;
    if ((isPartial || isLineMax) && key) {
      if (held) {
        held.chunks.push(Buffer.from(bytes)); // copies: the scanner reuses its buffers
        held.size += bytes.length;
        this.stats.joinedPieces++;
        if (held.size < MAX_PARTIAL_BYTES) return null;
        this.partial.delete(key);
        return { raw: held.raw, bytes: Buffer.concat(held.chunks) };
      }
      this.partial.set(key, { raw: { ...raw }, chunks: [Buffer.from(bytes)], size: bytes.length });
      return null;
    }
    if (held && key) {
      this.partial.delete(key);
      this.stats.joinedPieces++;
      return { raw: held.raw, bytes: Buffer.concat([...held.chunks, bytes]) };
    }
    return { raw, bytes };
  }

  private emitMessage(raw: Raw, decoded: string): void {
    let text = decoded;
    if (text.endsWith("\n")) text = text.slice(0, -1); // conmon keeps the newline, the stdout copy does not
    const ts = Number(str(raw.__REALTIME_TIMESTAMP) ?? str(raw._SOURCE_REALTIME_TIMESTAMP) ?? 0) || 0;
    const p = str(raw.PRIORITY);
    const priority = p === null ? null : Number(p);
    const container = str(raw.CONTAINER_NAME) ?? str(raw.CONTAINER_ID);
    const unit = str(raw.UNIT) ?? str(raw.USER_UNIT) ?? str(raw._SYSTEMD_UNIT);
    const identifier = str(raw.SYSLOG_IDENTIFIER) ?? str(raw._COMM);
    const src = sourceOf(raw);
    let a = 0;
    for (;;) {
      const nl = text.indexOf("\n", a);
      const line = cleanLine(nl < 0 && a === 0 ? text : text.slice(a, nl < 0 ? text.length : nl));
      if (line !== "") this.enqueue({ rec: { ts, priority, container, unit, identifier, text: line }, src, paired: false });
      if (nl < 0) break;
      a = nl + 1;
    }
  }


  /** An attached `podman run` logs every line twice: conmon's record and the unit's stdout copy. Keep one. */
  private enqueue(p: Pending): void {
    if (p.src !== "other") {
      const twins = this.unpaired[p.src === "container" ? "stdout" : "container"];
      const list = twins.get(p.rec.text);
      const twin = list?.shift();
      if (list?.length === 0) twins.delete(p.rec.text);
      if (twin) {
        twin.paired = true;
        if (p.src === "container") {
          // Keep the first-seen line's place but the container's identity.
          twin.rec.container = p.rec.container;
          twin.rec.identifier = p.rec.identifier;
          twin.rec.priority = p.rec.priority;
        }
        this.stats.podmanDuplicates++;
        return;
      }
      const mine = this.unpaired[p.src];
      const held = mine.get(p.rec.text);
      if (held) held.push(p);
      else mine.set(p.rec.text, [p]);
    }
    this.pending.push(p);
  }

  private drain(keep: number, out: LogRecord[]): void {
    while (this.pending.length - this.head > keep) {
      const p = this.pending[this.head++]!;
      if (!p.paired && p.src !== "other") {
        const map = this.unpaired[p.src];
        const list = map.get(p.rec.text);
        if (list) {
          const i = list.indexOf(p);
          if (i >= 0) list.splice(i, 1);
          if (list.length === 0) map.delete(p.rec.text);
        }
      }
      out.push(p.rec);
    }
    if (this.head > 4096) {
      this.pending.splice(0, this.head);
      this.head = 0;
    }
  }
}

/** A whole dump at once (tests, small files). */
export function decodeJournal(text: string): { records: LogRecord[]; stats: JournalStats } {
  const decoder = new JournalDecoder();
  const records = decoder.pushText(text);
  records.push(...decoder.flush());
  return { records, stats: decoder.stats };
}
