// The log-diagnosis corpora (test/fixtures/corpora/logs-1 to logs-4, in the order they were written, each blind for the
// project: their SOURCES.md) held at their figures: no false alarm on a healthy log, every failure called
// with its class. Reproduce the tables: npx tsx bench/corpus-logs/run.ts [--dir
// test/fixtures/corpora/logs-2|logs-3|logs-4]
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreCorpus, totals } from "../../bench/corpus-logs/score.js";

describe("log-diagnosis corpora", () => {
  // [set, healthy logs, failures, decisive lines right of those scored]; each set's first blind run is in
  // docs/accuracy.md
  it.each([
    ["logs-1", 16, 37, { n: 35, d: 36 }], // the one left: SGLang's capture OOM names torch's own line over SGLang's wrapper
    ["logs-2", 10, 24, { n: 23, d: 23 }],
    ["logs-3", 12, 20, { n: 20, d: 20 }], // mostly engines dying after readiness
    ["logs-4", 8, 26, { n: 25, d: 25 }], // engines run straight under systemd: venv, uv, shared libraries, start timeouts
  ] as const)(
    "%s: no false alarm on its %i healthy logs, every one of its %i failures classed right",
    async (set, healthy, failures, decisive) => {
      const rows = await scoreCorpus(join(import.meta.dirname, "../fixtures/corpora", set));
      const t = totals(rows);
      const misses = rows
        .filter((r) => !r.classOk || r.decisiveOk === false)
        .map((r) => `${r.exp.file}: ${r.got}: ${r.decisive.slice(0, 120)}`)
        .join("\n");
      expect(t.falseAlarms, misses).toEqual({ n: 0, d: healthy });
      expect(t.precision, misses).toEqual({ n: failures, d: failures });
      expect(t.recall, misses).toEqual({ n: failures, d: failures });
      expect(t.healthyExact, misses).toEqual({ n: healthy, d: healthy });
      expect(t.decisive, misses).toEqual(decisive);
    },
    60_000,
  );
});
