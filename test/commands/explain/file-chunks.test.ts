// explain reads a journal dump into one buffer again and again (a fresh 1 MiB buffer per read cost its page faults):
// the bytes read are the file's, the buffer is in fact reused, and a dump of several reads gets the same diagnosis
// as when every chunk is a buffer of its own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileChunks } from "../../../src/commands/explain/explain.js";
import { explainBytes } from "../../../src/commands/explain/sniff.js";

const dir = mkdtempSync(join(tmpdir(), "dg-chunks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The OOM fixture with ~3.5 MB of engine stats lines in its middle: lines cross every 1 MiB read. */
function bigDump(): string {
  const lines = readFileSync(join(import.meta.dirname, "../../fixtures/journal/classes/oom-tp2.journal.json"), "utf8")
    .trimEnd()
    .split("\n");
  const filler = Array.from(
    { length: 9000 },
    (_, k) =>
      `{"__CURSOR": "s=abc;i=${1000 + k}", "__REALTIME_TIMESTAMP": "${1795000000100000 + k}", "_SYSTEMD_UNIT": "frank-archon.service", "SYSLOG_IDENTIFIER": "podman", "PRIORITY": "6", "MESSAGE": "(APIServer pid=1) INFO 10-20 11:47:${String(k % 60).padStart(2, "0")} [loggers.py:123] Engine 000: Avg prompt throughput: ${k % 97}.0 tokens/s, Avg generation throughput: 12.${k % 10} tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 3.${k % 10}%, Prefix cache hit rate: 41.0%"}`,
  );
  const path = join(dir, "big.journal.json");
  writeFileSync(path, [...lines.slice(0, 45), ...filler, ...lines.slice(45)].join("\n") + "\n");
  return path;
}

/** The same bytes, each chunk a buffer of its own, cut at another size than the reader's. */
async function* fresh(path: string): AsyncGenerator<Buffer> {
  const all = readFileSync(path);
  for (let a = 0; a < all.length; a += 777_777) yield Buffer.from(all.subarray(a, a + 777_777));
}

describe("fileChunks", () => {
  const path = bigDump();

  it("reads the file's bytes, into one buffer once told to", async () => {
    const chunks = fileChunks(path);
    const copies: Buffer[] = [];
    const seen = new Set<ArrayBufferLike>();
    let n = 0;
    for await (const c of chunks) {
      if (++n === 2) chunks.reuse();
      if (n > 2) seen.add(c.buffer);
      copies.push(Buffer.from(c));
    }
    expect(n).toBeGreaterThan(3);
    expect(Buffer.concat(copies).equals(readFileSync(path))).toBe(true);
    expect(seen.size).toBe(1);
  });

  it("gives a dump of several reads the diagnosis it gets from buffers of their own", async () => {
    const reused = await explainBytes(fileChunks(path));
    expect(reused.class).toBe("oom");
    expect(reused).toEqual(await explainBytes(fresh(path)));
  });
});
