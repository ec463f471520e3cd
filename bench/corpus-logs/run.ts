// Blind log-diagnosis corpus: runs the real `explain` on every fixture of test/fixtures/corpora/logs-1 (or
// --dir DIR) and scores it against expected.json, written before the tool was run. A measurement: exit 0.
//   npx tsx bench/corpus-logs/run.ts [--dir DIR]
import { join, resolve } from "node:path";
import { HEALTHY, scoreCorpus, totals, type Ratio, type Row } from "./score.js";

function argDir(argv: string[]): string {
  const i = argv.indexOf("--dir");
  const d = i >= 0 ? argv[i + 1] : undefined;
  return resolve(d ?? join(import.meta.dirname, "../../test/fixtures/corpora/logs-1"));
}

const pct = ({ n, d }: Ratio): string => (d === 0 ? "n/a" : `${n}/${d} = ${((100 * n) / d).toFixed(1)}%`);
const cut = (s: string, n: number): string => (s.length > n ? s.slice(0, n - 1) + "…" : s);
const pad = (s: string, n: number): string => s.padEnd(n);
const ratio = (n: readonly Row[], d: readonly Row[]): Ratio => ({ n: n.length, d: d.length });

async function main(): Promise<void> {
  const rows = await scoreCorpus(argDir(process.argv.slice(2)));
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
