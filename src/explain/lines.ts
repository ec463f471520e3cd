// The one I/O piece of explain: a file as a stream of lines, so a 200 MB dump never sits in memory.
// Split on "\n" only: a lone "\r" is part of the line (tqdm rewrites, NewLineFormatter) and cleanLine reads it.
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** Lines in batches, one per 256 KiB chunk: an await per line would cost more than decoding it. */
export async function* fileLineBatches(path: string): AsyncGenerator<string[]> {
  const decoder = new StringDecoder("utf8"); // a multi-byte character may straddle two chunks
  let rest = "";
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 18 })) {
    const lines = (rest + decoder.write(chunk as Buffer)).split("\n");
    rest = lines.pop()!;
    yield lines;
  }
  rest += decoder.end();
  if (rest !== "") yield [rest];
}

export async function* fileLines(path: string): AsyncGenerator<string> {
  for await (const batch of fileLineBatches(path)) yield* batch;
}
