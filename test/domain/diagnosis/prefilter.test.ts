// The prefilter (one literal scan per line, then only the pattern groups whose literals the line holds) changes no
// diagnosis: every fixture in test/fixtures (journal dumps, pasted logs, the blind corpora, response bodies, scripts)
// is diagnosed with it and without it, and the two answers are the same.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explain, explainBytes } from "../../../src/commands/explain/sniff.js";
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

  // Lines without any literal skip even the prefix parse once the engine is known (classify.ts quiet): what they
  // still count must come out the same.
  it("counts a literal-free line as an engine line, and reads a later banner, as without it", () => {
    const quiet = "INFO 12-01 10:00:01 [loader.py:12] nothing to see in this line";
    // the engine named by a line with no vLLM prefix: only the quiet lines make it an engine's log (booting)
    const sglang = ["[2026-12-01 10:00:00] server_args=ServerArgs(model_path='m')", quiet, quiet].join("\n");
    expect(explain(sglang).class).toBe("booting");
    expect(explain(sglang)).toEqual(explain(sglang, { prefilter: false }));
    // a second banner after quiet lines starts a new boot, whose lines alone decide: the first boot's OOM is past
    const twice = [
      "INFO 12-01 10:00:00 [api_server.py:1] vLLM API server version 0.9.0",
      "ERROR 12-01 10:00:02 [core.py:9] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
      quiet,
      "INFO 12-01 10:05:00 [api_server.py:1] vLLM API server version 0.9.0",
      quiet,
      "INFO:     Application startup complete.",
    ].join("\n");
    expect(explain(twice).class).toBe("ready");
    expect(explain(twice)).toEqual(explain(twice, { prefilter: false }));
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
