// Byte chunks as lines, so a 200 MB dump never sits in memory (commands/explain/explain.ts reads the file). Split on
// "\n" only: a lone "\r" is part of the line (tqdm rewrites,
// NewLineFormatter) and cleanLine reads it.

/** Longer than journald's LineMax (48K) by far: a "line" past this is no log line, so it is cut into pieces. */
const MAX_LINE = 1 << 20;

/** Lines in batches, one per chunk: an await per line would cost more than decoding it. */
export async function* lineBatches(chunks: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  // Cut at the last "\n" byte so no UTF-8 character is split; the tail waits for the next chunk as bytes.
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    const buf: Buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    const cut = buf.lastIndexOf(10);
    if (cut < 0) {
      // Input without newlines (a binary file, one huge JSON): hand on a bounded piece, never hold it all.
      if (buf.length > MAX_LINE) {
        let at = MAX_LINE;
        while (at > 0 && (buf[at]! & 0xc0) === 0x80) at--; // not inside a UTF-8 character
        rest = buf.subarray(at);
        yield [buf.toString("utf8", 0, at)];
      } else rest = buf;
      continue;
    }
    rest = buf.subarray(cut + 1);
    yield buf.toString("utf8", 0, cut).split("\n");
  }
  if (rest.length > 0) yield [rest.toString("utf8")];
}

/**
 * UTF-16 input (PowerShell 5's `>` writes UTF-16LE with a BOM) as UTF-8 bytes, so it is read like any log;
 * anything else passes as it is. The decoder keeps a character cut between two chunks for the next one.
 */
export async function* utf8Chunks(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let decoder: TextDecoder | null | undefined;
  for await (const chunk of chunks) {
    if (decoder === undefined) {
      const le = chunk[0] === 0xff && chunk[1] === 0xfe;
      const be = chunk[0] === 0xfe && chunk[1] === 0xff;
      decoder = le || be ? new TextDecoder(le ? "utf-16le" : "utf-16be") : null; // the BOM is dropped by the decoder
    }
    if (decoder === null) yield chunk;
    else yield Buffer.from(decoder.decode(chunk, { stream: true }), "utf8");
  }
  if (decoder) yield Buffer.from(decoder.decode(), "utf8");
}
