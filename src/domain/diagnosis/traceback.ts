// Traceback reassembly (seed 000 §1 step 3): drop the skeleton (frames, source lines, carets, `raise`,
// `...<N> lines...`), keep the content lines. The decisive line is usually the last content line.
import { parseLine } from "../engine/vllm/lines.js";
import { WRAPPER } from "../engine/vllm/failures.js";
import { isNoise } from "./below-engine.js";

export interface Traceback {
  /** Content lines, in order, each once. */
  content: string[];
  frames: number;
}

const START = /^\s*Traceback \(most recent call last\):/;
const FRAME = /^\s*File "[^"]*", line \d+/;
const SKELETON =
  /^\s*(?:raise\b|[~^]+\s*$|\.\.\.<\d+ lines>\.\.\.|\.\.\.\s*$|re-raise|The above exception was the direct cause|During handling of the above exception|Process [\w-]+:\s*$)/;
const MAX_CONTENT = 200;
/** A `raise` source line seen outside an assembled traceback (a paste cut above it). */
const RAISE = /^\s*raise\s+[\w.]+\(/;
/** Ends a traceback: an ordinary record (tracebacks come raw or at ERROR). */
const ORDINARY = new Set(["DEBUG", "INFO", "WARNING"]);

export function isSkeleton(msg: string): boolean {
  return START.test(msg) || FRAME.test(msg) || SKELETON.test(msg);
}

export class TracebackAssembler {
  private current: Traceback | null = null;
  private seen = new Set<string>();
  private sourceNext = false;
  /** The newest finished-or-open traceback. */
  last: Traceback | null = null;

  /** Inside a traceback every line counts (content, or an ordinary record that ends it). */
  get inside(): boolean {
    return this.current !== null;
  }

  /** Takes one line; true when it is a traceback's skeleton (a frame, its source line, `raise …`), never a cause. */
  push(raw: string): boolean {
    const { msg, level } = parseLine(raw);
    if (START.test(msg)) {
      if (!this.current) this.open();
      return true;
    }
    if (!this.current) return RAISE.test(msg);
    // Shutdown warnings printed after the traceback (resource_tracker and its `warnings.warn(` source line) are not its
    // content.
    if (isNoise(msg) || /^\s*warnings\.warn\(/.test(msg)) return false;
    if (level !== null && ORDINARY.has(level)) {
      this.current = null;
      return false;
    }
    if (FRAME.test(msg)) {
      this.current.frames++;
      this.sourceNext = true;
      return true;
    }
    // The indented source line under a frame is skeleton too.
    if (this.sourceNext && /^\s{2,}\S/.test(msg)) {
      this.sourceNext = false;
      return true;
    }
    this.sourceNext = false;
    const text = msg.trim();
    if (text === "" || SKELETON.test(msg)) return text !== "";
    if (this.seen.has(text)) return false;
    this.seen.add(text);
    this.current.content.push(text);
    if (this.current.content.length > MAX_CONTENT) this.current.content.shift();
    return false;
  }

  private open(): void {
    this.current = { content: [], frames: 0 };
    this.seen = new Set();
    this.last = this.current;
  }
}

export function reassembleTracebacks(lines: Iterable<string>): Traceback[] {
  const asm = new TracebackAssembler();
  const out: Traceback[] = [];
  for (const line of lines) {
    const before = asm.last;
    asm.push(line);
    if (asm.last && asm.last !== before) out.push(asm.last);
  }
  return out;
}

/** The last content line that is not a wrapper ("see root cause above"). */
export function decisiveOf(tb: Traceback): string | null {
  for (let i = tb.content.length - 1; i >= 0; i--) if (!WRAPPER.test(tb.content[i]!)) return tb.content[i]!;
  return tb.content[tb.content.length - 1] ?? null;
}
