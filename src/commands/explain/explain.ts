// `explain FILE|-`: a saved journal dump, plain log or response body diagnosed, read as a stream of chunks.
import { createReadStream, existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { renderExplain } from "../../domain/report/diagnosis-text.js";
import { sanitizeValue } from "../../domain/report/sanitize.js";
import { colourOf, UsageError, type Io, type Options } from "../options.js";
import { explainBytes } from "./sniff.js";

/** A file's bytes in 1 MiB chunks: the decoder's run size, a quarter of the reads, buffers and events of 256 KiB. */
export async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
}

/** `explain FILE|-`: the diagnosis alone; exit 0 when the log shows a ready or still-booting engine. */
export async function explainCommand(opts: Options, io: Io): Promise<number> {
  const file = opts.file!;
  const path = file === "-" ? "/dev/stdin" : resolve(io.cwd, file);
  if (file !== "-" && !existsSync(path))
    throw new UsageError(
      `explain: ${file} does not exist (save a dump with: journalctl -o json --since "30 min ago" > boot.json)`,
    );
  if (file !== "-" && statSync(path).isDirectory())
    throw new UsageError(
      `explain: ${file} is a directory: pass a file (a journalctl -o json dump, a plain log or a response body), or - for stdin`,
    );
  // The log is host text: the same redaction and control-character pass as every report.
  const result = sanitizeValue(await explainBytes(fileChunks(path)));
  io.out(opts.json ? JSON.stringify(result, null, 2) + "\n" : renderExplain(result, colourOf(opts, io)));
  return result.class === "ready" || result.class === "booting" ? 0 : 1;
}
