// The decoder's output window: decoded lines wait here (at most WINDOW of them) for their podman twin. An
// attached `podman run` logs every line twice, conmon's record and the unit's stdout copy; one is kept, at
// the first copy's place, with the container's identity.
//
// Lines are numbered in arrival order and held in a ring; no object is made per line besides the record.
import { CONTAINER, OTHER, type Head } from "./head.js";
import type { LogRecord } from "./record.js";

const WAITING = 0,
  PAIRED = 1;

export class TwinWindow {
  duplicates = 0;
  private recs: Array<LogRecord | undefined> = new Array<LogRecord | undefined>(1024);
  private src = new Uint8Array(1024);
  private state = new Uint8Array(1024);
  private mask = 1023;
  /** Numbers of the oldest held line and of the next one. */
  private first = 0;
  private next = 0;
  /**
   * Numbers of the unpaired lines per source (CONTAINER, STDOUT), oldest first. Twins arrive close
   * together, so the oldest equal text is found by a short walk; paired and emitted lines are dropped
   * from the front, which keeps each list within the window.
   */
  private readonly unpaired: [number[], number[]] = [[], []];
  private readonly unpairedHead = [0, 0];

  /** One line under h's fields: a twin's second copy only marks the first (no record is made of it). */
  add(h: Head, text: string, src: number): void {
    if (src !== OTHER) {
      const twin = this.takeTwin(1 - src, text);
      if (twin) {
        if (src === CONTAINER) {
          twin.container = h.container;
          twin.identifier = h.identifier;
          twin.priority = h.priority;
        }
        this.duplicates++;
        return;
      }
    }
    const rec: LogRecord = {
      ts: h.ts,
      priority: h.priority,
      container: h.container,
      unit: h.unit,
      identifier: h.identifier,
      text,
    };
    if (this.next - this.first > this.mask) this.grow();
    const slot = this.next & this.mask;
    this.recs[slot] = rec;
    this.src[slot] = src;
    this.state[slot] = WAITING;
    if (src !== OTHER) this.unpaired[src]!.push(this.next);
    this.next++;
  }

  /** Emits all but the newest `keep` lines, oldest first. */
  drain(keep: number, out: LogRecord[]): void {
    while (this.next - this.first > keep) {
      const slot = this.first & this.mask;
      out.push(this.recs[slot]!);
      this.recs[slot] = undefined;
      this.first++;
      const src = this.src[slot]!;
      if (src !== OTHER && this.state[slot] === WAITING) this.skipStale(src);
    }
  }

  /** The oldest unpaired line of `src` with this text, marked paired. */
  private takeTwin(src: number, text: string): LogRecord | null {
    const list = this.unpaired[src]!;
    for (let i = this.unpairedHead[src]!; i < list.length; i++) {
      const n = list[i]!;
      if (n < this.first) continue;
      const slot = n & this.mask;
      if (this.state[slot] === WAITING && this.recs[slot]!.text === text) {
        this.state[slot] = PAIRED;
        this.skipStale(src);
        return this.recs[slot]!;
      }
    }
    return null;
  }

  private skipStale(src: number): void {
    const list = this.unpaired[src]!;
    let h = this.unpairedHead[src]!;
    while (h < list.length && (list[h]! < this.first || this.state[list[h]! & this.mask] === PAIRED)) h++;
    if (h > 1024) {
      list.splice(0, h);
      h = 0;
    }
    this.unpairedHead[src] = h;
  }

  /** A message of more lines than the ring holds: double it, keeping each line's number. */
  private grow(): void {
    const size = (this.mask + 1) * 2;
    const recs = new Array<LogRecord | undefined>(size);
    const src = new Uint8Array(size);
    const state = new Uint8Array(size);
    for (let n = this.first; n < this.next; n++) {
      const from = n & this.mask;
      const to = n & (size - 1);
      recs[to] = this.recs[from];
      src[to] = this.src[from]!;
      state[to] = this.state[from]!;
    }
    this.recs = recs;
    this.src = src;
    this.state = state;
    this.mask = size - 1;
  }
}
