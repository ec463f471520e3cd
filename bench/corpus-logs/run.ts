// Blind log-diagnosis corpus: runs the real `explain` on every fixture of test/fixtures/corpora/logs-1 (or
// --dir DIR) and scores it against expected.json, written before the tool was run. A measurement: exit 0.
//   npx tsx bench/corpus-logs/run.ts [--dir DIR]
// Real public logs live outside the repository (a cache); their key is committed:
//   npx tsx bench/corpus-logs/run.ts --key test/fixtures/corpora/field-logs-5/expected.json \
//     --logs /work/main/.cache/field/logs-5
// Without the cache (CI) it says so and exits 0.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { HEALTHY, scoreCorpus, totals, type Ratio, type Row } from "./score.js";
import { figuresOf, figureTotals } from "./figures.js";

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function argDir(argv: string[]): string {
  const d = arg(argv, "--dir");
  return resolve(d ?? join(import.meta.dirname, "../../test/fixtures/corpora/logs-1"));
}

const pct = ({ n, d }: Ratio): string => (d === 0 ? "n/a" : `${n}/${d} = ${((100 * n) / d).toFixed(1)}%`);
const cut = (s: string, n: number): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);
const pad = (s: string, n: number): string => s.padEnd(n);
const ratio = (n: readonly Row[], d: readonly Row[]): Ratio => ({ n: n.length, d: d.length });

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const key = arg(argv, "--key");
  const logs = arg(argv, "--logs");
  if (logs && !existsSync(logs)) {
    console.log(`corpus-logs: skipped: the log cache ${logs} is absent (real logs are never committed; CI has none)`);
    return;
  }
  const rows = key
    ? await scoreCorpus(dirname(resolve(key)), { key: resolve(key), ...(logs ? { logs: resolve(logs) } : {}) })
    : await scoreCorpus(argDir(argv));
  const w = Math.max(...rows.map((r) => r.exp.file.length));
  console.log(`${pad("fixture", w)}  ${pad("expected", 19)} ${pad("got", 19)} class decisive`);
  for (const r of rows) {
    const dec = r.decisiveOk === null ? "-" : r.decisiveOk ? "ok" : "MISS";
    console.log(
      `${pad(r.exp.file, w)}  ${pad(r.exp.class, 19)} ${pad(r.got, 19)} ${pad(r.classOk ? "ok" : "MISS", 5)} ${dec}`,
    );
  }
  const t = totals(rows);
  const healthy = rows.filter((r) => HEALTHY.has(r.exp.class)).length;
  console.log("\n== totals ==");
  console.log(`fixtures: ${rows.length} (failures ${rows.length - healthy}, healthy/booting ${healthy})`);
  console.log(`class accuracy on failures (recall): ${pct(t.recall)}`);
  console.log(`failures detected as some failure:   ${pct(t.detected)}`);
  console.log(`decisive-line accuracy (failures with an expected line): ${pct(t.decisive)}`);
  console.log(`  of which with the class right:     ${pct(t.decisiveAndClass)}`);
  console.log(`precision (called a failure and is one): ${pct(t.precision)}`);
  console.log(`false alarms on the healthy set:     ${pct(t.falseAlarms)} (unknown on healthy: ${t.healthyUnknown})`);
  console.log(`healthy state exact (ready/booting): ${pct(t.healthyExact)}`);
  console.log(`overall class accuracy:              ${pct(t.overall)}`);

  console.log("\n== per engine (class accuracy: failures | healthy) ==");
  for (const eng of ["vllm", "sglang", "llama.cpp", null] as const) {
    const of = rows.filter((r) => r.exp.engine === eng);
    const f = of.filter((r) => !HEALTHY.has(r.exp.class));
    const h = of.filter((r) => HEALTHY.has(r.exp.class));
    const fd = f.filter((r) => r.decisiveOk !== null);
    console.log(
      `${pad(eng ?? "below-engine", 13)} failures ${pad(
        pct(
          ratio(
            f.filter((r) => r.classOk),
            f,
          ),
        ),
        16,
      )} ` +
        `decisive ${pad(
          pct(
            ratio(
              fd.filter((r) => r.decisiveOk),
              fd,
            ),
          ),
          16,
        )} healthy ${pct(
          ratio(
            h.filter((r) => r.classOk),
            h,
          ),
        )}`,
    );
  }
  const ft = figureTotals(rows);
  const tally = ({ ok, of }: { ok: number; of: number }) => pct({ n: ok, d: of });
  console.log("\n== every figure (class, decisive, each plan and OOM number) ==");
  console.log(`all figures:  ${tally(ft.all)}`);
  for (const [k, t] of Object.entries(ft.byKind)) if (t.of > 0) console.log(`  ${pad(k, 10)} ${tally(t)}`);
  console.log("by family:");
  for (const [g, t] of [...ft.byGroup].sort()) console.log(`  ${pad(g, 16)} ${tally(t)}`);
  const missing = rows.filter((r) => r.missing).map((r) => r.exp.file);
  if (missing.length) console.log(`not in the cache (scored wrong): ${missing.join(", ")}`);
  const wrongFigures = rows.flatMap((r) =>
    figuresOf(r)
      .filter((f) => !f.ok && (f.kind === "plan" || f.kind === "oom"))
      .map((f) => `- ${r.exp.file}: ${f.name} want ${String(f.want)}, got ${String(f.got)}`),
  );
  if (wrongFigures.length)
    console.log(`\n== wrong plan/OOM figures (${wrongFigures.length}) ==\n${wrongFigures.join("\n")}`);

  const misses = rows.filter((r) => !r.classOk || r.decisiveOk === false);
  console.log(`\n== misses (${misses.length}) ==`);
  for (const r of misses) {
    console.log(
      `- ${r.exp.file}: expected ${r.exp.class}, got ${r.got}${r.decisiveOk === false ? " (decisive wrong)" : ""}`,
    );
    console.log(`    decisive got: ${cut(r.decisive || "(none)", 220)}`);
  }
}

await main().catch((e: unknown) => console.error(e));
process.exitCode = 0;
