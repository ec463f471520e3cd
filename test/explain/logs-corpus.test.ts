// The log-diagnosis corpora (test/fixtures/logs-corpus, logs-holdout and logs-third, each written blind for the
// project: their SOURCES.md) held at their figures: no false alarm on a healthy log, every failure called
// with its class. Reproduce the tables: npx tsx bench/corpus-logs/run.ts [--dir test/fixtures/logs-holdout|logs-third]
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreCorpus, totals } from "../../bench/corpus-logs/score.js";

describe("log-diagnosis corpus", () => {
  it("precision 100%, no false alarm on the 16 healthy logs, every failure's class right, 35 of 36 decisive lines", async () => {
    const rows = await scoreCorpus(join(import.meta.dirname, "../fixtures/logs-corpus"));
    const t = totals(rows);
    const misses = rows.filter((r) => !r.classOk || r.decisiveOk === false).map((r) => `${r.exp.file}: ${r.got}: ${r.decisive.slice(0, 120)}`);
    expect(t.falseAlarms, misses.join("\n")).toEqual({ n: 0, d: 16 });
    expect(t.precision).toEqual({ n: 37, d: 37 });
    expect(t.recall, misses.join("\n")).toEqual({ n: 37, d: 37 });
    expect(t.healthyExact).toEqual({ n: 16, d: 16 });
    // the one left: SGLang's capture OOM names torch's own line (with the numbers) over SGLang's wrapper of it
    expect(t.decisive, misses.join("\n")).toEqual({ n: 35, d: 36 });
  }, 60_000);

  it("the second set: every failure's class and decisive line, no false alarm on its 10 healthy logs", async () => {
    const rows = await scoreCorpus(join(import.meta.dirname, "../fixtures/logs-holdout"));
    const t = totals(rows);
    const misses = rows.filter((r) => !r.classOk || r.decisiveOk === false).map((r) => `${r.exp.file}: ${r.got}: ${r.decisive.slice(0, 120)}`);
    expect(t.falseAlarms, misses.join("\n")).toEqual({ n: 0, d: 10 });
    expect(t.recall, misses.join("\n")).toEqual({ n: 24, d: 24 });
    expect(t.decisive, misses.join("\n")).toEqual({ n: 23, d: 23 });
    expect(t.precision).toEqual({ n: 24, d: 24 });
  }, 60_000);

  it("the third set, mostly failures after readiness: every class and decisive line, no false alarm on its 12 healthy logs", async () => {
    const rows = await scoreCorpus(join(import.meta.dirname, "../fixtures/logs-third"));
    const t = totals(rows);
    const misses = rows.filter((r) => !r.classOk || r.decisiveOk === false).map((r) => `${r.exp.file}: ${r.got}: ${r.decisive.slice(0, 120)}`);
    expect(t.falseAlarms, misses.join("\n")).toEqual({ n: 0, d: 12 });
    expect(t.recall, misses.join("\n")).toEqual({ n: 20, d: 20 });
    expect(t.decisive, misses.join("\n")).toEqual({ n: 20, d: 20 });
    expect(t.precision).toEqual({ n: 20, d: 20 });
  }, 60_000);
});
