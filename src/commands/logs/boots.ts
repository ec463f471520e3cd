// One endpoint's journal, split into boots of its container, and the boot the user asked for. Pure.
// A boot begins at systemd's "Starting" line for the unit (or its "Started" line when no "Starting" came
// just before: journald may drop one); lines before the first such line are a boot cut by the window.
import type { LogRecord } from "../../domain/journal/record.js";

export type BootSelector = { kind: "relative"; offset: number } | { kind: "absolute"; index: number };

/** `current` (0), `previous` (-1), `-N` (N before the current), `N` (the N-th in the window, from 1). */
export function parseBoot(text: string): BootSelector | null {
  if (text === "current") return { kind: "relative", offset: 0 };
  if (text === "previous") return { kind: "relative", offset: -1 };
  if (/^-\d{1,4}$/.test(text) || text === "0") return { kind: "relative", offset: Number(text) };
  if (/^\d{1,4}$/.test(text)) return { kind: "absolute", index: Number(text) };
  return null;
}

export interface Boot {
  /** 1-based position in the window */
  index: number;
  container: string | null;
  startTs: number;
  endTs: number;
  records: LogRecord[];
  /** lines dropped from the front because the boot held more than MAX_BOOT_LINES */
  cut: number;
}

const MAX_BOOT_LINES = 50_000;

/** Streams records in; keeps only what the selector can still pick (memory bounded by one or a few boots). */
export class BootSplitter {
  private readonly kept: Boot[] = [];
  private current: Boot | null = null;
  private count = 0;
  private sawStarting = false;

  constructor(
    private readonly service: string,
    private readonly want: BootSelector,
  ) {}

  /** Returns the boot the record opened, if it opened one (for --follow's headers). */
  push(rec: LogRecord): Boot | null {
    let opened: Boot | null = null;
    const fromSystemd = rec.identifier === "systemd" && rec.unit === this.service;
    const starting = fromSystemd && rec.text.startsWith("Starting ");
    const started = fromSystemd && rec.text.startsWith("Started ");
    if (!this.current || starting || (started && !this.sawStarting)) opened = this.open(rec.ts);
    if (starting) this.sawStarting = true;
    else if (started || rec.container) this.sawStarting = false;
    const b = this.current!;
    if (rec.container && !b.container) b.container = rec.container;
    if (rec.ts) b.endTs = rec.ts;
    b.records.push(rec);
    if (b.records.length > MAX_BOOT_LINES * 1.25) {
      const drop = b.records.length - MAX_BOOT_LINES; // in bulk: a shift per line would be quadratic
      b.records.splice(0, drop);
      b.cut += drop;
    }
    return opened;
  }

  private open(ts: number): Boot {
    this.count++;
    const b: Boot = { index: this.count, container: null, startTs: ts, endTs: ts, records: [], cut: 0 };
    this.current = b;
    if (this.want.kind === "absolute") {
      if (b.index === this.want.index) this.kept.push(b);
    } else {
      this.kept.push(b);
      while (this.kept.length > 1 - this.want.offset) this.kept.shift();
    }
    return b;
  }

  /** How many boots the window held. */
  get total(): number {
    return this.count;
  }

  /** The boot asked for, or null with why not. */
  selected(): { boot: Boot; fromCurrent: number } | { boot: null; why: string } {
    if (this.want.kind === "absolute") {
      const b = this.kept[0];
      return b
        ? { boot: b, fromCurrent: b.index - this.count }
        : { boot: null, why: `the window holds ${this.count} boot(s); there is no boot ${this.want.index}` };
    }
    const back = -this.want.offset;
    if (this.count <= back)
      return {
        boot: null,
        why: `the window holds ${this.count} boot(s); none is ${back} before the current one (widen it with --since)`,
      };
    const b = this.kept[this.kept.length - 1 - back]!;
    return { boot: b, fromCurrent: -back };
  }
}
