// The one I/O piece of explain: a file as a stream of lines, so a 200 MB dump never sits in memory.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export function fileLines(path: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(path), crlfDelay: Infinity });
}
