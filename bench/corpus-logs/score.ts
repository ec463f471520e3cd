// The log-diagnosis corpus scored: the real `explain` on every fixture of a directory against its
// expected.json (written before the tool was run). run.ts prints it; a unit test holds the totals.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExplainResult } from "../../src/domain/diagnosis/result.js";
import { explainBytes } from "../../src/commands/explain/sniff.js";
import { fileChunks } from "../../src/commands/explain/explain.js";

export interface Expected {
  file: string;
  class: string;
  /** a substring the decisive line must contain (any of a list); null: not scored (ready, booting, crash-loop) */
  decisive: string | string[] | null;
  engine: "vllm" | "sglang" | "llama.cpp" | null;
  note: string;
  /** field keys: the family a log stands for (kubernetes, journal-locale, …), grouping the figures */
  family?: string;
  /** field keys: plan numbers the log states, in explain's --json field names (kvTokens, maxModelLen, …) */
  plan?: Record<string, number | null>;
  /** field keys: the OOM gap's numbers (triedGiB, freeGiB, totalGiB, shortfallGiB) */
  oom?: Record<string, number | null>;
}

export interface Row {
  exp: Expected;
  got: string;
  decisive: string;
  classOk: boolean;
  decisiveOk: boolean | null;
  /** explain's whole answer (null when it threw or the log is missing) */
  result: ExplainResult | null;
  /** the log was not in the cache */
  missing?: boolean;
}

export const HEALTHY = new Set(["ready", "booting"]);
export const NOT_A_FAILURE = new Set(["ready", "booting", "unknown"]);

/** n of d */
export interface Ratio {
  n: number;
  d: number;
}

export interface Totals {
  recall: Ratio;
  detected: Ratio;
  decisive: Ratio;
  decisiveAndClass: Ratio;
  precision: Ratio;
  falseAlarms: Ratio;
  healthyUnknown: number;
  healthyExact: Ratio;
  overall: Ratio;
}

function decisiveMatches(want: string | string[] | null, got: string): boolean | null {
  if (want === null) return null;
  const alts = Array.isArray(want) ? want : [want];
  return alts.some((w) => got.toLowerCase().includes(w.toLowerCase()));
}

/**
 * explain on every log of `dir` (or of `opts.logs`, a cache of real logs kept out of the repository) against
 * dir/expected.json (or the key file `opts.key`).
 */
export async function scoreCorpus(dir: string, opts: { logs?: string; key?: string } = {}): Promise<Row[]> {
  const expected = JSON.parse(readFileSync(opts.key ?? join(dir, "expected.json"), "utf8")) as Expected[];
  const logs = opts.logs ?? dir;
  const rows: Row[] = [];
  for (const exp of expected) {
    let got = "error";
    let decisive = "";
    let result: ExplainResult | null = null;
    const path = join(logs, exp.file);
    if (!existsSync(path)) {
      rows.push({
        exp,
        got: "missing",
        decisive: "",
        classOk: false,
        decisiveOk: exp.decisive === null ? null : false,
        result,
        missing: true,
      });
      continue;
    }
    try {
      result = await explainBytes(fileChunks(path));
      got = result.class;
      decisive =
        result.decisive === null || result.decisive === undefined
          ? ""
          : typeof result.decisive === "string"
            ? result.decisive
            : JSON.stringify(result.decisive);
    } catch (e) {
      decisive = `threw: ${(e as Error).message}`;
    }
    rows.push({
      exp,
      got,
      decisive,
      classOk: got === exp.class,
      decisiveOk: decisiveMatches(exp.decisive, decisive),
      result,
    });
  }
  return rows;
}

export function totals(rows: readonly Row[]): Totals {
  const r = (n: readonly Row[], d: readonly Row[]): Ratio => ({ n: n.length, d: d.length });
  const failures = rows.filter((x) => !HEALTHY.has(x.exp.class));
  const healthy = rows.filter((x) => HEALTHY.has(x.exp.class));
  const scored = failures.filter((x) => x.decisiveOk !== null);
  // a log missing from the cache was called nothing
  const called = rows.filter((x) => !x.missing && !NOT_A_FAILURE.has(x.got));
  return {
    recall: r(
      failures.filter((x) => x.classOk),
      failures,
    ),
    detected: r(
      failures.filter((x) => !NOT_A_FAILURE.has(x.got)),
      failures,
    ),
    decisive: r(
      scored.filter((x) => x.decisiveOk),
      scored,
    ),
    decisiveAndClass: r(
      scored.filter((x) => x.decisiveOk && x.classOk),
      scored,
    ),
    precision: r(
      called.filter((x) => !HEALTHY.has(x.exp.class)),
      called,
    ),
    falseAlarms: r(
      healthy.filter((x) => !NOT_A_FAILURE.has(x.got)),
      healthy,
    ),
    healthyUnknown: healthy.filter((x) => x.got === "unknown").length,
    healthyExact: r(
      healthy.filter((x) => x.classOk),
      healthy,
    ),
    overall: r(
      rows.filter((x) => x.classOk),
      rows,
    ),
  };
}
