// conmon's CONTAINER_PARTIAL_MESSAGE pieces and journald's LineMax cuts, joined as bytes (a UTF-8 character
// may straddle two pieces) per container or stream, in the order the streams began a held message.
import type { Head } from "./head.js";

/** A partial message that never ends is let go at this size. */
const MAX_PARTIAL_BYTES = 1 << 20;

interface Held {
  container: boolean;
  id: string | null;
  head: Head;
  bytes: Buffer;
  size: number;
}

/** The reference keys pieces by `c:${id}` / `s:${id}`: null and "null" are one key. */
const sameId = (a: string | null, b: string | null) =>
  a === b || (a === null ? b === "null" : b === null && a === "null");

/** Object.assign for a Head, field by field (the generic copy costs more per piece). */
function copyHead(to: Head, from: Head): void {
  to.cursor = from.cursor;
  to.cursorTs = from.cursorTs;
  to.ts = from.ts;
  to.priority = from.priority;
  to.container = from.container;
  to.unit = from.unit;
  to.identifier = from.identifier;
  to.src = from.src;
  to.partial = from.partial;
  to.lineMax = from.lineMax;
  to.cidPresent = from.cidPresent;
  to.cid = from.cid;
  to.sidPresent = from.sidPresent;
  to.sid = from.sid;
}

export class Pieces {
  joined = 0;
  /** After take() returned true: emit buf[start, end) now (valid until the next take), under head's fields. */
  head!: Head;
  buf!: Buffer;
  start = 0;
  end = 0;
  /** The bytes to emit are the ones passed in (not a joined message): the caller's ASCII knowledge holds. */
  ascii = false;
  private readonly held: Held[] = [];
  private readonly spare: Held[] = [];

  get size(): number {
    return this.held.length;
  }

  /** A piece of this record's container or stream is held: the record ends it. */
  holds(h: Head): boolean {
    return this.find(true, h.cid) >= 0 || this.find(false, h.sid) >= 0;
  }

  /** One record's MESSAGE, buf[a, e) (copied when held). True: emit buf/start/end now. */
  take(h: Head, buf: Buffer, a: number, e: number): boolean {
    const keyed = h.cidPresent || h.sidPresent;
    const id = h.cidPresent ? h.cid : h.sid;
    const at = keyed ? this.find(h.cidPresent, id) : -1;
    if ((h.partial || h.lineMax) && keyed) {
      if (at < 0) {
        const p = this.spare.pop() ?? {
          container: false,
          id: null,
          head: { ...h },
          bytes: Buffer.allocUnsafe(4096),
          size: 0,
        };
        p.container = h.cidPresent;
        p.id = id;
        copyHead(p.head, h);
        p.size = 0;
        this.append(p, buf, a, e);
        this.held.push(p);
        return false;
      }
      const p = this.held[at]!;
      this.append(p, buf, a, e);
      this.joined++;
      return p.size < MAX_PARTIAL_BYTES ? false : this.release(at);
    }
    if (at >= 0) {
      this.append(this.held[at]!, buf, a, e);
      this.joined++;
      return this.release(at);
    }
    this.head = h;
    this.buf = buf;
    this.start = a;
    this.end = e;
    this.ascii = true;
    return true;
  }

  /** End of input: every held message as it stands, oldest first. */
  *rest(): Generator<{ head: Head; bytes: Buffer }> {
    while (this.held.length > 0) {
      this.release(0);
      yield { head: this.head, bytes: this.buf.subarray(this.start, this.end) };
    }
  }

  private find(container: boolean, id: string | null): number {
    for (let i = 0; i < this.held.length; i++)
      if (this.held[i]!.container === container && sameId(this.held[i]!.id, id)) return i;
    return -1;
  }

  private release(at: number): true {
    // The newest held piece is the one usually ended: pop() costs less than splice().
    const p = at === this.held.length - 1 ? this.held.pop() : this.held.splice(at, 1)[0];
    this.head = p!.head;
    this.buf = p!.bytes;
    this.start = 0;
    this.end = p!.size;
    this.ascii = false;
    if (this.spare.length < 8) this.spare.push(p!); // reused only by a later take(): the caller is done with it by then
    return true;
  }

  private append(p: Held, buf: Buffer, a: number, e: number): void {
    const need = p.size + (e - a);
    if (need > p.bytes.length) {
      const grown = Buffer.allocUnsafe(need * 2);
      p.bytes.copy(grown, 0, 0, p.size);
      p.bytes = grown;
    }
    p.bytes.set(buf.subarray(a, e), p.size); // a typed-array copy: cheaper per call than Buffer.copy's checks
    p.size = need;
  }
}
