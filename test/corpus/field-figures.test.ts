// The field-log scorer on planted inputs: a key and a cache written here, so every count below is known before
// the scorer runs. Each figure (class, decisive, every plan and OOM number) counts once; a log missing from the cache
// is scored wrong, not dropped; precision counts only logs called a failure.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scoreCorpus, totals } from "../../bench/corpus-logs/score.js";
import { figureTotals, sameNumber } from "../../bench/corpus-logs/figures.js";

const root = mkdtempSync(join(tmpdir(), "dg-field-"));
const cache = join(root, "cache");
const keyDir = join(root, "key");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OOM =
  "ERROR 12-01 10:00:00 [core.py:1] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.57 GiB of which 1.50 GiB is free.";
const READY = [
  "INFO 12-01 10:00:00 [kv_cache_utils.py:1] GPU KV cache size: 252,288 tokens",
  "INFO 12-01 10:00:00 [kv_cache_utils.py:1] Maximum concurrency for 32,768 tokens per request: 7.70x",
  "INFO:     Application startup complete.",
].join("\n");

function plant(): string {
  for (const d of [cache, keyDir]) rmSync(d, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  mkdirSync(keyDir, { recursive: true });
  writeFileSync(join(cache, "oom.log"), OOM + "\n");
  writeFileSync(join(cache, "ready.log"), READY + "\n");
  const key = [
    // 1 class + 1 decisive + 4 oom figures, all right
    {
      file: "oom.log",
      class: "oom",
      decisive: "Tried to allocate",
      engine: "vllm",
      family: "torch-oom",
      note: "",
      oom: { triedGiB: 2, freeGiB: 1.5, totalGiB: 23.57, shortfallGiB: 0.5 },
    },
    // 1 class right, kvTokens right, maxModelLen wrong on purpose (the log says 32768)
    {
      file: "ready.log",
      class: "ready",
      decisive: null,
      engine: "vllm",
      note: "",
      plan: { kvTokens: 252288, maxModelLen: 4096 },
    },
    // not in the cache: class and decisive wrong
    { file: "absent.log", class: "oom", decisive: "x", engine: null, family: "kubernetes", note: "" },
  ];
  const path = join(keyDir, "expected.json");
  writeFileSync(path, JSON.stringify(key));
  return path;
}

describe("field-log scoring", () => {
  it("counts every figure once, a wrong plan number as a miss, a log absent from the cache as wrong", async () => {
    const key = plant();
    const rows = await scoreCorpus(keyDir, { key, logs: cache });
    const f = figureTotals(rows);
    expect(f.all).toEqual({ ok: 8, of: 11 });
    expect(f.byKind).toEqual({
      class: { ok: 2, of: 3 },
      decisive: { ok: 1, of: 2 },
      plan: { ok: 1, of: 2 },
      oom: { ok: 4, of: 4 },
    });
    expect(f.byGroup.get("torch-oom")).toEqual({ ok: 6, of: 6 });
    expect(f.byGroup.get("kubernetes")).toEqual({ ok: 0, of: 2 });
    expect(rows.find((r) => r.exp.file === "absent.log")?.missing).toBe(true);
    // precision: of the logs called a failure (one), one is one
    expect(totals(rows).precision).toEqual({ n: 1, d: 1 });
  });

  it("reads numbers as engines print them", () => {
    expect(sameNumber(9.5, 9.5)).toBe(true);
    expect(sameNumber(8, 8.0001)).toBe(true);
    expect(sameNumber(8, 7.9)).toBe(false);
    expect(sameNumber(252288, 252290)).toBe(true);
    expect(sameNumber(252288, 250000)).toBe(false);
    expect(sameNumber(1, null)).toBe(false);
  });
});

// Sets of real public logs (docs/accuracy.md): their logs are never committed, so each runs where its cache is (a
// developer's machine) and says it skipped elsewhere (CI).
const SETS: ReadonlyArray<readonly [string, number]> = [
  ["field-logs-5", 104],
  ["field-logs-8", 98],
];
for (const [set, figures] of SETS) {
  const logs = `/work/main/.cache/field/logs-${set.split("-").pop()!}`;
  describe.skipIf(!existsSync(logs))(`${set} (real logs, cache present)`, () => {
    it("holds every figure of its key", async () => {
      const dir = join(import.meta.dirname, "../fixtures/corpora", set);
      const rows = await scoreCorpus(dir, { key: join(dir, "expected.json"), logs });
      const wrong = rows.filter((r) => r.missing || !r.classOk || r.decisiveOk === false);
      expect(figureTotals(rows).all, wrong.map((r) => `${r.exp.file}: ${r.got}`).join("\n")).toEqual({
        ok: figures,
        of: figures,
      });
    }, 60_000);
  });
}
