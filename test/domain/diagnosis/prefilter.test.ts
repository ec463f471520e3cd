// The prefilter (one literal scan per line, then only the pattern groups whose literals the line holds) changes no
// diagnosis: every fixture in test/fixtures (journal dumps, pasted logs, the blind corpora, response bodies, scripts)
// is diagnosed with it and without it, and the two answers are the same.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainBytes } from "../../../src/commands/explain/sniff.js";
import { fileChunks } from "../../../src/commands/explain/explain.js";
import { ALL, BELOW, FAIL, groupsOf, NOISE, PLAN, SERVING } from "../../../src/domain/diagnosis/prefilter.js";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const FIXTURES = files(join(import.meta.dirname, "../../fixtures")).filter((f) => statSync(f).size < 4 << 20);

describe("prefilter", () => {
  it("finds each group's literals in any case, and nothing in a line without them", () => {
    expect(groupsOf("(APIServer pid=1) INFO 12-01 [x.py:1] GPU KV cache size: 1,000 tokens") & PLAN).toBe(PLAN);
    expect(groupsOf("torch.OutOfMemoryError: CUDA OUT OF MEMORY") & FAIL).toBe(FAIL);
    expect(groupsOf("Error: statfs /models: no such file or directory") & BELOW).toBe(BELOW);
    expect(groupsOf("leaked semaphore objects")).toBe(NOISE);
    expect(groupsOf('INFO:     10.0.0.7:4000 - "GET /health HTTP/1.1" 200 OK')).toBe(SERVING);
    // vLLM's stats line holds no literal a pattern needs
    expect(
      groupsOf(
        "Engine 000: Avg prompt throughput: 1.5 tokens/s, GPU KV cache usage: 3.1%, Prefix cache hit rate: 41.0%",
      ),
    ).toBe(0);
    // a character outside ASCII breaks a literal, as it breaks the word
    expect(groupsOf("out of mémory") & FAIL).toBe(0);
    expect(ALL & FAIL).toBe(FAIL);
  });

  it.each(FIXTURES.map((f) => [f.slice(f.indexOf("test/fixtures/") + 14), f]))(
    "%s: the same diagnosis with and without it",
    async (_name, path) => {
      const fast = await explainBytes(fileChunks(path));
      const full = await explainBytes(fileChunks(path), { prefilter: false });
      expect(fast).toEqual(full);
    },
  );
});
