// The one I/O piece of explain: a file as a stream of lines, so a 200 MB dump never sits in memory.
// Split on "\n" only: a lone "\r" is part of the line (tqdm rewrites, NewLineFormatter) and cleanLine reads it.
import { createReadStream } from "node:fs";

const MAX_HELD_LINE = 1 << 20;

/** Lines in batches, one per 256 KiB chunk: an await per line would cost more than decoding it. */
export async function* fileLineBatches(path: string): AsyncGenerator<string[]> {
  // Cut at the last "\n" byte so no UTF-8 character is split; the tail waits for the next chunk as bytes.
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 18 })) {
    const buf: Buffer = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    const cut = buf.lastIndexOf(10);
    if (cut < 0) {
      // Input without newlines: hold at most MAX_HELD_LINE, then pass the piece on as a line of its own,
      // so memory stays bounded and the work linear (no re-copy of an ever-growing line per chunk).
      if (buf.length > MAX_HELD_LINE) {
        rest = Buffer.alloc(0);
        yield [buf.toString("utf8")];
      } else rest = buf;
      continue;
    }
    rest = buf.subarray(cut + 1);
    yield buf.toString("utf8", 0, cut).split("\n");
  }
  if (rest.length > 0) yield [rest.toString("utf8")];
}

export async function* fileLines(path: string): AsyncGenerator<string> {
  for await (const batch of fileLineBatches(path)) yield* batch;
}
