// The reference decoder: the JSON.parse-per-line decoder as it was before the field scanner, kept as the
// slow path the fast one (src/forensics/journal.ts) must match byte for byte (differential test, bench).
// Memory stays flat: partial pieces, the podman duplicate window and the cursor set are all bounded.
import type { LogRecord } from "../../../src/domain/journal/record.js";
import { cleanLine } from "../../../src/domain/journal/line.js";

type Raw = Record<string, unknown>;
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

function str(v: unknown): string | null {
  return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? (v[0] as string) : null;
}

function sourceOf(raw: Raw): Source {
  if (raw.CONTAINER_ID !== undefined || raw.CONTAINER_NAME !== undefined) return "container";
  return raw._TRANSPORT === "stdout" ? "stdout" : "other";
}

export class ReferenceJournalDecoder {
  readonly stats: JournalStats = {
    records: 0,
    malformed: 0,
    truncatedNull: 0,
    podmanDuplicates: 0,
    cursorDuplicates: 0,
    joinedPieces: 0,
  };
  private readonly partial = new Map<string, { raw: Raw; chunks: Buffer[]; size: number }>();
  private readonly pending: Pending[] = [];
  private head = 0;
  /** Unpaired pending lines by source, then text, oldest first: the podman twin lookup. */
  private readonly unpaired = { container: new Map<string, Pending[]>(), stdout: new Map<string, Pending[]>() };
  private readonly cursorsAt = new Map<number, string[]>();
  private readonly cursorRing: Array<number | undefined> = new Array<number | undefined>(CURSORS);
  private cursorAt = 0;

  push(jsonLine: string): LogRecord[] {
    const line = jsonLine.trim();
    if (line === "") return [];
    let raw: Raw;
    try {
      raw = JSON.parse(line) as Raw;
    } catch {
      this.stats.malformed++; // a dump cut mid-line; the rest still decodes
      return [];
    }
    this.stats.records++;
    if (this.seenCursor(raw.__CURSOR, Number(raw.__REALTIME_TIMESTAMP) || 0)) return [];
    const out: LogRecord[] = [];
    if (typeof raw.MESSAGE === "string" && !this.needsJoin(raw)) {
      this.emitMessage(raw, raw.MESSAGE); // the common case: no bytes round trip
    } else {
      const bytes = messageBytes(raw.MESSAGE);
      if (bytes === null) {
        this.stats.truncatedNull++;
        return [];
      }
      const whole = this.join(raw, bytes);
      if (whole) this.emitMessage(whole.raw, whole.bytes.toString("utf8")); // lossy: invalid sequences become U+FFFD
    }
    this.drain(WINDOW, out);
    return out;
  }

  /** End of input: everything still held back. */
  flush(): LogRecord[] {
    const out: LogRecord[] = [];
    for (const [, p] of this.partial) this.emitMessage(p.raw, Buffer.concat(p.chunks).toString("utf8"));
    this.partial.clear();
    this.drain(0, out);
    return out;
  }

  /**
   * Overlapping exports repeat records. Keyed by timestamp (a number hashes faster than a 60-char cursor),
   * confirmed by cursor; a ring bounds it.
   */
  private seenCursor(cursor: unknown, ts: number): boolean {
    if (typeof cursor !== "string") return false;
    const same = this.cursorsAt.get(ts);
    if (same?.includes(cursor)) {
      this.stats.cursorDuplicates++;
      return true;
    }
    if (same) same.push(cursor);
    else this.cursorsAt.set(ts, [cursor]);
    const old = this.cursorRing[this.cursorAt];
    if (old !== undefined) {
      const list = this.cursorsAt.get(old);
      if (list && list.length > 1) list.shift();
      else this.cursorsAt.delete(old);
    }
    this.cursorRing[this.cursorAt] = ts;
    this.cursorAt = (this.cursorAt + 1) % CURSORS;
    return false;
  }

  private needsJoin(raw: Raw): boolean {
    if (raw.CONTAINER_PARTIAL_MESSAGE === "true" || raw._LINE_BREAK === "line-max") return true;
    if (this.partial.size === 0) return false;
    return this.partial.has(`c:${str(raw.CONTAINER_ID)}`) || this.partial.has(`s:${str(raw._STREAM_ID)}`);
  }

  /**
   * conmon's CONTAINER_PARTIAL_MESSAGE pieces and journald's LineMax cuts, joined as bytes (a UTF-8 char may straddle).
   */
  private join(raw: Raw, bytes: Buffer): { raw: Raw; bytes: Buffer } | null {
    const isPartial = raw.CONTAINER_PARTIAL_MESSAGE === "true";
    const key =
      raw.CONTAINER_ID !== undefined
        ? `c:${str(raw.CONTAINER_ID)}`
        : raw._STREAM_ID !== undefined
          ? `s:${str(raw._STREAM_ID)}`
          : null;
    const isLineMax = raw._LINE_BREAK === "line-max";
    const held = key ? this.partial.get(key) : undefined;
    if ((isPartial || isLineMax) && key) {
      if (held) {
        held.chunks.push(bytes);
        held.size += bytes.length;
        this.stats.joinedPieces++;
        if (held.size < MAX_PARTIAL_BYTES) return null;
        this.partial.delete(key);
        return { raw: held.raw, bytes: Buffer.concat(held.chunks) };
      }
      this.partial.set(key, { raw, chunks: [bytes], size: bytes.length });
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
    const priority = str(raw.PRIORITY);
    const base = {
      ts,
      priority: priority === null ? null : Number(priority),
      container: str(raw.CONTAINER_NAME) ?? str(raw.CONTAINER_ID),
      unit: str(raw.UNIT) ?? str(raw.USER_UNIT) ?? str(raw._SYSTEMD_UNIT),
      identifier: str(raw.SYSLOG_IDENTIFIER) ?? str(raw._COMM),
    };
    const src = sourceOf(raw);
    for (const physical of text.split("\n")) {
      const line = cleanLine(physical);
      if (line === "") continue;
      this.enqueue({ rec: { ...base, text: line }, src, paired: false });
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
export function decodeJournalReference(text: string): { records: LogRecord[]; stats: JournalStats } {
  const decoder = new ReferenceJournalDecoder();
  const records: LogRecord[] = [];
  for (const line of text.split("\n")) records.push(...decoder.push(line));
  records.push(...decoder.flush());
  return { records, stats: decoder.stats };
}
