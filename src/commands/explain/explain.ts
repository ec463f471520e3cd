// `explain FILE|-`: a saved journal dump, plain log or response body diagnosed, read as a stream of chunks.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { renderExplain } from "../../domain/report/diagnosis-text.js";
import { sanitizeValue } from "../../domain/report/sanitize.js";
import { colourOf, UsageError, type Io, type Options } from "../options.js";
import { explainBytes } from "./sniff.js";

/** Chunks that a reader may be told to read into one buffer again and again (explain's journal path). */
export interface FileChunks extends AsyncIterable<Buffer> {
  /**
   * From the next chunk on, one buffer is read into each time: a chunk is valid only until the next is asked for.
   * A fresh 1 MiB buffer per read costs its page faults: 35 ms CPU of 42 reading 50 MB, against 7 reusing one.
   */
  reuse(): void;
}

/**
 * A file's bytes in 1 MiB chunks (the decoder's run size); each a buffer of its own until `reuse()`. A file is read
 * synchronously (explain has nothing else to do meanwhile, and each read then costs no trip through libuv's thread
 * pool and its promise); stdin (`/dev/stdin`) asynchronously, since a pipe or terminal may be non-blocking, where a
 * synchronous read fails with EAGAIN.
 */
export function fileChunks(path: string): FileChunks {
  let reused: Buffer | null = null;
  let reuse = false;
  const buffer = () => (reuse ? (reused ??= Buffer.allocUnsafe(CHUNK)) : Buffer.allocUnsafe(CHUNK));
  const chunk = (buf: Buffer, n: number) => (n === CHUNK ? buf : buf.subarray(0, n));
  return {
    reuse: () => void (reuse = true),
    async *[Symbol.asyncIterator]() {
      if (path === "/dev/stdin") {
        const fh = await open(path, "r");
        try {
          for (let buf = buffer(), n; (n = (await fh.read(buf, 0, CHUNK, null)).bytesRead) > 0; buf = buffer())
            yield chunk(buf, n);
        } finally {
          await fh.close();
        }
        return;
      }
      const fd = openSync(path, "r");
      try {
        for (let buf = buffer(), n; (n = readSync(fd, buf, 0, CHUNK, null)) > 0; buf = buffer()) yield chunk(buf, n);
      } finally {
        closeSync(fd);
      }
    },
  };
}

const CHUNK = 1 << 20;

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
