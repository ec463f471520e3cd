// What the decoder needs of one journal record besides its MESSAGE, read either from the scanner's spans
// (the fast path) or from a JSON.parse'd object (the fallback), with one meaning for both: the reference
// decoder's (test/forensics/journal-reference.ts), where a field counts only as a string (or the first
// string of a multi-valued array).
import {
  F_CID,
  F_CNAME,
  F_COMM,
  F_IDENT,
  F_LINE_BREAK,
  F_PARTIAL,
  F_PRIORITY,
  F_RT,
  F_SRT,
  F_STREAM,
  F_SYSTEMD_UNIT,
  F_TRANSPORT,
  F_UNIT,
  F_USER_UNIT,
  ABSENT,
  STR,
  STR_ESC,
  type SpanScanner,
} from "./scan.js";

export const CONTAINER = 0,
  STDOUT = 1,
  OTHER = 2;

export interface Head {
  /**
   * __CURSOR when it is a string, from a parsed object only (the fast path checks the cursor's bytes where they lie).
   */
  cursor: string | null;
  /** Number(__REALTIME_TIMESTAMP) || 0: the cursor check's key. */
  cursorTs: number;
  ts: number;
  priority: number | null;
  container: string | null;
  unit: string | null;
  identifier: string | null;
  /** CONTAINER, STDOUT or OTHER: which copy of an attached podman run's line this is. */
  src: number;
  partial: boolean;
  lineMax: boolean;
  cidPresent: boolean;
  cid: string | null;
  sidPresent: boolean;
  sid: string | null;
}

export function emptyHead(): Head {
  return {
    cursor: null,
    cursorTs: 0,
    ts: 0,
    priority: null,
    container: null,
    unit: null,
    identifier: null,
    src: OTHER,
    partial: false,
    lineMax: false,
    cidPresent: false,
    cid: null,
    sidPresent: false,
    sid: null,
  };
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : Array.isArray(v) && typeof v[0] === "string" ? (v[0] as string) : null;
}

/** The field's string value (escapes decoded), or null when it holds no string. */
export function spanStr(sc: SpanScanner, f: number): string | null {
  const k = sc.kind[f];
  if (k === STR) return sc.text(sc.start[f]!, sc.end[f]!);
  if (k === STR_ESC) return JSON.parse(sc.text(sc.start[f]! - 1, sc.end[f]! + 1)) as string;
  return null;
}

/** The field holds exactly these bytes (an escaped spelling counts too). */
function spanIs(sc: SpanScanner, f: number, lit: Buffer): boolean {
  const k = sc.kind[f];
  if (k === STR) return sameBytes(sc.buf, sc.start[f]!, sc.end[f]!, lit);
  return k === STR_ESC && spanStr(sc, f) === lit.toString("utf8");
}

function sameBytes(buf: Buffer, a: number, e: number, lit: Buffer): boolean {
  if (e - a !== lit.length) return false;
  for (let i = 0; i < lit.length; i++) if (buf[a + i] !== lit[i]) return false;
  return true;
}

const STDOUT_BYTES = Buffer.from("stdout"),
  TRUE_BYTES = Buffer.from("true"),
  LINE_MAX_BYTES = Buffer.from("line-max");

/** Values remembered per field: a stream alternates between a few (conmon's and podman's identifiers). */
const SLOTS = 8;

/**
 * spanStr() that returns the same string object for a repeated value (a unit, a container name): no new string per
 * record.
 */
export class Interner {
  private readonly bytes: Buffer[][] = [];
  private readonly strings: string[][] = [];
  private readonly next: number[] = [];

  get(sc: SpanScanner, f: number): string | null {
    if (sc.kind[f] !== STR) return spanStr(sc, f);
    const a = sc.start[f]!;
    const e = sc.end[f]!;
    const held = (this.bytes[f] ??= []);
    for (let i = 0; i < held.length; i++) if (sameBytes(sc.buf, a, e, held[i]!)) return this.strings[f]![i]!;
    const strings = (this.strings[f] ??= []);
    const at = held.length < SLOTS ? held.length : (this.next[f] = ((this.next[f] ?? 0) + 1) % SLOTS);
    held[at] = Buffer.from(sc.buf.subarray(a, e));
    return (strings[at] = sc.text(a, e));
  }
}

/** Number(text) for a decimal string, without making a string of it when it is plain digits. */
function spanNumber(sc: SpanScanner, f: number): number {
  if (sc.kind[f] === STR) {
    const s = sc.buf;
    const a = sc.start[f]!;
    const e = sc.end[f]!;
    if (e > a && e - a <= 16) {
      let n = 0;
      let i = a;
      for (; i < e; i++) {
        const c = s[i]! - 48;
        if (c < 0 || c > 9) break;
        n = n * 10 + c;
      }
      if (i === e && n <= Number.MAX_SAFE_INTEGER) return n; // exact: every step stayed below 2^53
    }
  }
  return Number(spanStr(sc, f));
}

export function headFromSpans(sc: SpanScanner, h: Head, intern: Interner): void {
  const k = sc.kind;
  h.cursor = null; // the decoder reads the cursor's bytes itself
  // Wanted fields are strings, null or absent here (anything else went to JSON.parse).
  const rt = k[F_RT] === STR || k[F_RT] === STR_ESC;
  h.cursorTs = rt ? spanNumber(sc, F_RT) || 0 : 0;
  h.ts = rt ? h.cursorTs : k[F_SRT] === STR || k[F_SRT] === STR_ESC ? spanNumber(sc, F_SRT) || 0 : 0;
  if (k[F_PRIORITY] === STR && sc.end[F_PRIORITY]! - sc.start[F_PRIORITY]! === 1) {
    const d = sc.buf[sc.start[F_PRIORITY]!]! - 48;
    h.priority = d >= 0 && d <= 9 ? d : Number(spanStr(sc, F_PRIORITY));
  } else {
    const p = spanStr(sc, F_PRIORITY);
    h.priority = p === null ? null : Number(p);
  }
  h.cid = intern.get(sc, F_CID);
  h.container = intern.get(sc, F_CNAME) ?? h.cid;
  h.unit = intern.get(sc, F_UNIT) ?? intern.get(sc, F_USER_UNIT) ?? intern.get(sc, F_SYSTEMD_UNIT);
  h.identifier = intern.get(sc, F_IDENT) ?? intern.get(sc, F_COMM);
  h.cidPresent = k[F_CID] !== ABSENT;
  h.sidPresent = k[F_STREAM] !== ABSENT;
  h.sid = h.sidPresent ? intern.get(sc, F_STREAM) : null;
  h.src = h.cidPresent || k[F_CNAME] !== ABSENT ? CONTAINER : spanIs(sc, F_TRANSPORT, STDOUT_BYTES) ? STDOUT : OTHER;
  h.partial = spanIs(sc, F_PARTIAL, TRUE_BYTES);
  h.lineMax = spanIs(sc, F_LINE_BREAK, LINE_MAX_BYTES);
}

export function headFromObject(raw: Record<string, unknown>, h: Head): void {
  h.cursor = typeof raw.__CURSOR === "string" ? raw.__CURSOR : null;
  h.cursorTs = Number(raw.__REALTIME_TIMESTAMP) || 0;
  h.ts = Number(str(raw.__REALTIME_TIMESTAMP) ?? str(raw._SOURCE_REALTIME_TIMESTAMP) ?? 0) || 0;
  const p = str(raw.PRIORITY);
  h.priority = p === null ? null : Number(p);
  h.cid = str(raw.CONTAINER_ID);
  h.container = str(raw.CONTAINER_NAME) ?? h.cid;
  h.unit = str(raw.UNIT) ?? str(raw.USER_UNIT) ?? str(raw._SYSTEMD_UNIT);
  h.identifier = str(raw.SYSLOG_IDENTIFIER) ?? str(raw._COMM);
  h.cidPresent = raw.CONTAINER_ID !== undefined;
  h.sidPresent = raw._STREAM_ID !== undefined;
  h.sid = str(raw._STREAM_ID);
  h.src = h.cidPresent || raw.CONTAINER_NAME !== undefined ? CONTAINER : raw._TRANSPORT === "stdout" ? STDOUT : OTHER;
  h.partial = raw.CONTAINER_PARTIAL_MESSAGE === "true";
  h.lineMax = raw._LINE_BREAK === "line-max";
}
