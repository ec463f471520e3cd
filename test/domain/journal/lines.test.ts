import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lineBatches } from "../../../src/domain/journal/lines.js";
import { fileChunks } from "../../../src/commands/explain/explain.js";

const dir = mkdtempSync(join(tmpdir(), "explain-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const b of lineBatches(fileChunks(path))) out.push(...b);
  return out;
}

describe("lineBatches over fileChunks", () => {
  it("splits on \\n only and never cuts a multi-byte character at a chunk edge", async () => {
    // 3-byte and 4-byte characters on lines long enough to straddle several 256 KiB chunks
    const lines = Array.from({ length: 3000 }, (_, i) => `${i} ▄█ 𝛑 ${"é".repeat(i % 97)}\rrewrite █`);
    const path = join(dir, "multi.log");
    writeFileSync(path, lines.join("\n") + "\nlast line without newline");
    expect(await collect(path)).toEqual([...lines, "last line without newline"]);
  });

  it("yields batches, not one await per line", async () => {
    const path = join(dir, "many.log");
    writeFileSync(path, "x\n".repeat(200_000));
    let batches = 0;
    let total = 0;
    for await (const b of lineBatches(fileChunks(path))) {
      batches++;
      total += b.length;
    }
    expect(total).toBe(200_000);
    expect(batches).toBeLessThan(10);
  });
});

describe("input without newlines", () => {
  it("comes in bounded pieces, whole characters each, and explain stays bounded", async () => {
    const path = join(dir, "one-line.bin");
    const text = "é▄".repeat(1_500_000); // 7.5 MB, no newline
    writeFileSync(path, text);
    let longest = 0;
    let joined = "";
    for await (const b of lineBatches(fileChunks(path)))
      for (const l of b) {
        longest = Math.max(longest, l.length);
        joined += l;
      }
    expect(longest).toBeLessThanOrEqual(1 << 20);
    expect(joined).toBe(text);
    const { explainStream } = await import("../../../src/commands/explain/sniff.js");
    const r = await explainStream(lineBatches(fileChunks(path)));
    expect(r.class).toBe("unknown");
    // the evidence of an unknown is the tail, each line shortened
    expect(r.evidence.length).toBeGreaterThan(0);
    expect(Math.max(...r.evidence.map((e) => e.length))).toBeLessThanOrEqual(501);
    const { explainBytes } = await import("../../../src/commands/explain/sniff.js");
    expect(await explainBytes(fileChunks(path))).toEqual(r);
  });

  it("a journal line that never ends gives an unknown, not a crash or a decoded record", async () => {
    const path = join(dir, "one-journal-line.json");
    writeFileSync(path, `{"__REALTIME_TIMESTAMP":"1","MESSAGE":"${"x".repeat(12 << 20)}`);
    const { explainBytes } = await import("../../../src/commands/explain/sniff.js");
    const r = await explainBytes(fileChunks(path));
    expect(r.class).toBe("unknown");
    expect(r.decisive).toBeNull();
  });
});
