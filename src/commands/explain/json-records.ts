// Journal records written across lines (`journalctl -o json-pretty`) or wrapped in a JSON array (`jq -s`,
// an API that returns records as a list) as one object per line: the journal decoder's input. The
// top-level objects are found by depth, outside strings; a raw newline inside one is whitespace (JSON
// escapes the newlines of a string). Streaming and bounded: an object past MAX_OBJECT is passed on as it
// is and the decoder counts it malformed. Pure over its chunks.

const MAX_OBJECT = 4 << 20;
const QUOTE = 34,
  BACKSLASH = 92,
  LF = 10,
  CR = 13,
  SPACE = 32;

/** The splitter's state across chunks: push() returns the whole records (one line each) a chunk completed. */
export class RecordSplitter {
  private obj = Buffer.allocUnsafe(64 << 10);
  private n = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.depth === 0) {
        // between records: the array's brackets and commas, whitespace; anything else is a line of its own
        if (c === 0x7b /* { */) {
          this.put(c);
          this.depth = 1;
        } else if (c === LF) {
          if (this.n > 0) out.push(this.take());
        } else if (this.n > 0 || (c !== 0x5b && c !== 0x5d && c !== 0x2c && c > SPACE)) this.put(c);
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) this.depth--;
      this.put(c === LF || c === CR ? SPACE : c);
      if (this.depth === 0 || this.n > MAX_OBJECT) out.push(this.take());
    }
    return out;
  }

  end(): Buffer[] {
    return this.n > 0 ? [this.take()] : [];
  }

  private put(c: number): void {
    if (this.n === this.obj.length) {
      const grown = Buffer.allocUnsafe(this.obj.length * 2);
      this.obj.copy(grown, 0, 0, this.n);
      this.obj = grown;
    }
    this.obj[this.n++] = c;
  }

  private take(): Buffer {
    this.put(LF);
    const line = Buffer.from(this.obj.subarray(0, this.n));
    this.n = 0;
    this.depth = 0;
    this.inString = this.escaped = false;
    return line;
  }
}

export async function* recordLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const s = new RecordSplitter();
  for await (const chunk of chunks) {
    const out = s.push(chunk);
    if (out.length) yield out.length === 1 ? out[0]! : Buffer.concat(out);
  }
  const last = s.end();
  if (last.length) yield last[0]!;
}

/** The first non-empty line opens records across lines: `{` alone (json-pretty) or `[` (an array). */
export function opensRecords(firstLine: string): boolean {
  return firstLine === "{" || /^\[\s*(?:\{|$)/.test(firstLine);
}
