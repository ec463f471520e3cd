// `explain` on input without newlines (a binary file, a minified blob): bounded memory and linear time.
// The bound is checked on what the line reader holds (no line over its cap reaches the decoder), not by a timer.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainStream } from "../../../src/commands/explain/sniff.js";
import { lineBatches } from "../../../src/domain/journal/lines.js";
import { JournalDecoder } from "../../../src/domain/journal/decoder.js";
import { fileChunks } from "../../../src/commands/explain/explain.js";

describe("input without newlines", () => {
  const dir = mkdtempSync(join(tmpdir(), "dg-nonl-"));
  const path = join(dir, "blob.txt");
  // 24 MiB of one line: a JSON-looking start, then filler
  writeFileSync(path, `{"MESSAGE":"${"x".repeat(24 << 20)}`);

  it("the line reader never hands on a piece larger than its cap, and hands on all of it", async () => {
    let longest = 0;
    let total = 0;
    for await (const batch of lineBatches(fileChunks(path)))
      for (const l of batch) {
        longest = Math.max(longest, l.length);
        total += l.length;
      }
    expect(longest).toBeLessThanOrEqual((1 << 20) + (1 << 18));
    expect(total).toBe((24 << 20) + 12);
  });

  it("explain finishes with a diagnosis (no decisive line in filler)", async () => {
    const r = await explainStream(lineBatches(fileChunks(path)));
    expect(r.class).toBe("unknown");
    rmSync(dir, { recursive: true, force: true });
  });

  it("the journal decoder's byte path holds at most its cap of an unfinished line", () => {
    const d = new JournalDecoder();
    const chunk = Buffer.alloc(1 << 20, 0x78);
    for (let i = 0; i < 24; i++) d.pushBytes(chunk);
    d.flush();
    expect(d.stats.malformed).toBeGreaterThanOrEqual(4); // pieces of at most 4 MiB went through, none kept
    expect(d.stats.records).toBe(0);
  });
});
