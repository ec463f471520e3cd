// Overlapping exports repeat records: a record whose timestamp and cursor match one of the last CURSORS
// records is a repeat. A repeat has its original's timestamp, so a timestamp above every one seen so far
// is new without a lookup (the common case: one export, in order); otherwise the ring is searched.
// Cursors are kept as bytes in one fixed buffer: no string per record.

const CURSORS = 4096;
/** Cursor bytes kept per slot; a longer (or escaped) cursor is kept as a string instead. */
const SLOT = 96;

export class CursorRing {
  private readonly ts = new Float64Array(CURSORS).fill(NaN);
  private readonly bytes = Buffer.alloc(CURSORS * SLOT);
  /** Byte length in the slot, or -1: the cursor is in `strings`. */
  private readonly length = new Int16Array(CURSORS);
  private readonly strings: Array<string | undefined> = new Array<string | undefined>(CURSORS);
  private at = 0;
  private maxTs = -Infinity;

  /** Seen already (then not kept again), for a cursor held as buf[a, e) without escapes. */
  seenBytes(buf: Buffer, a: number, e: number, ts: number): boolean {
    if (ts <= this.maxTs && this.find(ts, (i) => this.sameBytes(i, buf, a, e))) return true;
    if (ts > this.maxTs) this.maxTs = ts;
    const n = e - a;
    if (n > SLOT) return this.keep(ts, buf.toString("utf8", a, e));
    const base = this.at * SLOT;
    for (let i = 0; i < n; i++) this.bytes[base + i] = buf[a + i]!;
    this.length[this.at] = n;
    this.ts[this.at] = ts;
    this.at = (this.at + 1) % CURSORS;
    return false;
  }

  /** Seen already, for a cursor held as a string. */
  seenString(cursor: string, ts: number): boolean {
    if (ts <= this.maxTs) {
      const asBytes = Buffer.from(cursor, "utf8");
      if (this.find(ts, (i) => this.sameBytes(i, asBytes, 0, asBytes.length))) return true;
    } else this.maxTs = ts;
    return this.keep(ts, cursor);
  }

  private keep(ts: number, cursor: string): false {
    this.length[this.at] = -1;
    this.strings[this.at] = cursor;
    this.ts[this.at] = ts;
    this.at = (this.at + 1) % CURSORS;
    return false;
  }

  private find(ts: number, same: (slot: number) => boolean): boolean {
    for (let i = 0; i < CURSORS; i++) if (this.ts[i] === ts && same(i)) return true;
    return false;
  }

  private sameBytes(slot: number, buf: Buffer, a: number, e: number): boolean {
    const n = this.length[slot]!;
    if (n < 0) return this.strings[slot] === buf.toString("utf8", a, e);
    if (n !== e - a) return false;
    const base = slot * SLOT;
    for (let i = 0; i < n; i++) if (this.bytes[base + i] !== buf[a + i]) return false;
    return true;
  }
}
