// The WebAssembly half of the journal decoder (src/forensics/wasm/, C): one instance per decoder (it holds the
// cursor ring and the name table), its memory laid out as [statics | input | arena], and the entries of a
// call read through typed views. The module is compiled once per process (8 KB, synchronously).
import { JOURNAL_LINES_WASM } from "./wasm/lines.generated.js";
import { bytesText } from "./scan.js";

export const E_SLOW = 0;
/**
 * MESSAGE's kind: none (null or absent), a string span of the input, decoded escapes (2, read as a string's), a byte
 * array.
 */
export const M_NONE = 0,
  M_STR = 1,
  M_BYTES = 3;
/**
 * How a message not joined to a piece becomes records: one line [cs, ce), the lines of [cs, ce), or emitMessage's
 * cleaning.
 */
export const EM_ONE = 1,
  EM_LINES = 2,
  EM_JS = 3;
export const FL_SRC = 3,
  FL_PARTIAL = 4,
  FL_LINE_MAX = 8,
  FL_CID = 16,
  FL_SID = 32,
  FL_DUP = 64,
  FL_ASCII = 128;

interface Exports {
  memory: WebAssembly.Memory;
  init(): void;
  heapBase(): number;
  layout(): number;
  names(): number;
  cursorSeen(at: number, n: number, ts: number): number;
  lines(base: number, from: number, end: number, arena: number): number;
  expandLiterals(compact: number, n: number, delta: number, out: number, fail: number): void;
}

let compiled: WebAssembly.Module | null = null;
const PAGE = 65536;
/** Input read ahead of a call's end: the vector loops stop 16 bytes short, the scanner may look one past. */
const PAD = 64;
/** Entries one call returns at most (MAXE in wasm/lines.c). */
const MAXE = 4096;

/** Bytes per state of the literal automaton's compact form (src/domain/diagnosis/prefilter-automaton.ts). */
const LITERAL_RECORD = 5;

/**
 * The diagnosis's literal automaton expanded from its compact form (wasm/automaton.h), in an instance of its own whose
 * memory then holds the table for the process (never grown, so the views stay): 16-bit states x 128 columns, and
 * each state's groups.
 */
export function expandLiterals(compact: Uint8Array): { delta: Uint16Array; out: Int32Array } {
  compiled ??= new WebAssembly.Module(Buffer.from(JOURNAL_LINES_WASM, "base64"));
  const x = new WebAssembly.Instance(compiled, {}).exports as unknown as Exports;
  const n = compact.length / LITERAL_RECORD + 1;
  // [compact | fail | delta | out] past the statics; a fresh instance's memory is zeroed, as delta must start
  const at = (x.heapBase() + 15) & ~15;
  const fail = at + ((compact.length + 15) & ~15);
  const delta = fail + n * 4;
  const out = delta + n * 128 * 2;
  const have = x.memory.buffer.byteLength;
  if (out + n * 4 > have) x.memory.grow(Math.ceil((out + n * 4 - have) / PAGE));
  new Uint8Array(x.memory.buffer, at, compact.length).set(compact);
  x.expandLiterals(at, n, delta, out, fail);
  return { delta: new Uint16Array(x.memory.buffer, delta, n * 128), out: new Int32Array(x.memory.buffer, out, n) };
}

export class WasmLines {
  private readonly x: Exports;
  private readonly at: Uint32Array;
  private readonly base: number;
  private cap = 0;
  private gen = -1;
  private names: Array<string | undefined> = [];
  mem!: Buffer;
  ts!: Float64Array;
  a!: Int32Array;
  b!: Int32Array;
  ms!: Int32Array;
  me!: Int32Array;
  cs!: Int32Array;
  ce!: Int32Array;
  emit!: Uint8Array;
  container!: Int32Array;
  unit!: Int32Array;
  ident!: Int32Array;
  cid!: Int32Array;
  sid!: Int32Array;
  status!: Uint8Array;
  kind!: Uint8Array;
  flags!: Uint8Array;
  prio!: Int8Array;
  private i32!: Int32Array;
  private nameOff!: Uint32Array;
  private nameLen!: Uint8Array;
  private readonly nameHeap: number;

  constructor() {
    compiled ??= new WebAssembly.Module(Buffer.from(JOURNAL_LINES_WASM, "base64"));
    this.x = new WebAssembly.Instance(compiled, {}).exports as unknown as Exports;
    this.x.init();
    this.base = (this.x.heapBase() + 15) & ~15;
    this.at = new Uint32Array(this.x.memory.buffer, this.x.layout(), 21).slice();
    this.nameHeap = this.x.names();
    this.views();
  }

  private get arenaAt(): number {
    return this.base + this.cap + PAD;
  }

  /** Room for n bytes of input (and as many decoded). */
  reserve(n: number): void {
    if (n <= this.cap) return;
    const cap = Math.max(n, this.cap * 2, 1 << 16);
    const need = this.base + 2 * (cap + PAD);
    const have = this.x.memory.buffer.byteLength;
    if (need > have) this.x.memory.grow(Math.ceil((need - have) / PAGE));
    this.cap = cap;
    this.views();
  }

  /** Copies buf[a, e) in: the caller then runs lines() over [0, e - a). */
  load(buf: Buffer, a: number, e: number): void {
    this.reserve(e - a);
    buf.copy(this.mem, this.base, a, e);
    this.mem.fill(10, this.base + (e - a), this.base + (e - a) + PAD);
  }

  /** The lines of the loaded input from offset `from` to `end`: how many entries; resume() says where to go on. */
  run(from: number, end: number): number {
    const n = this.x.lines(this.base, from, end, this.arenaAt); // the C side never grows the memory: the views hold
    const gen = this.i32[this.at[15]! >> 2]!;
    if (gen !== this.gen) {
      this.gen = gen;
      this.names = [];
    }
    return n;
  }

  /** The name table's generation: it starts again when full (names are ids within one). */
  get generation(): number {
    return this.gen;
  }

  resume(): number {
    return this.i32[this.at[14]! >> 2]!;
  }

  /** An interned name (unit, container, identifier, stream), or null for -1. */
  name(id: number): string | null {
    if (id < 0) return null;
    let s = this.names[id];
    if (s === undefined) {
      const off = this.nameHeap + this.nameOff[id]!;
      s = this.names[id] = bytesText(this.mem, off, off + this.nameLen[id]!, false);
    }
    return s;
  }

  /** Overlapping exports: the cursor buf[a, e) at time ts was seen already (it is kept otherwise). */
  seenCursor(buf: Buffer, a: number, e: number, ts: number): boolean {
    this.reserve(e - a);
    buf.copy(this.mem, this.arenaAt, a, e);
    return this.x.cursorSeen(this.arenaAt, e - a, ts) === 1;
  }

  private views(): void {
    const m = this.x.memory.buffer;
    const at = this.at;
    this.mem = Buffer.from(m);
    this.ts = new Float64Array(m, at[0], MAXE);
    const i32 = (i: number) => new Int32Array(m, at[i], MAXE);
    this.a = i32(1);
    this.b = i32(2);
    this.ms = i32(3);
    this.me = i32(4);
    this.container = i32(5);
    this.unit = i32(6);
    this.ident = i32(7);
    this.cid = i32(8);
    this.sid = i32(9);
    this.cs = i32(18);
    this.ce = i32(19);
    this.emit = new Uint8Array(m, at[20], MAXE);
    this.status = new Uint8Array(m, at[10], MAXE);
    this.kind = new Uint8Array(m, at[11], MAXE);
    this.flags = new Uint8Array(m, at[12], MAXE);
    this.prio = new Int8Array(m, at[13], MAXE);
    this.i32 = new Int32Array(m);
    this.nameOff = new Uint32Array(m, at[16], 2048);
    this.nameLen = new Uint8Array(m, at[17], 2048);
  }
}
