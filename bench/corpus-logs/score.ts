// The log-diagnosis corpus scored: the real `explain` on every fixture of a directory against its
// expected.json (written before the tool was run). run.ts prints it; a unit test holds the totals.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { explainBytes } from "../../src/commands/explain/sniff.js";
import { fileChunks } from "../../src/commands/explain/explain.js";

export interface Expected {
  file: string;
  class: string;
  /** a substring the decisive line must contain (any of a list); null: not scored (ready, booting, crash-loop) */
  decisive: string | string[] | null;
  engine: "vllm" | "sglang" | "llama.cpp" | null;
  note: string;
}

export interface Row {
  exp: Expected;
  got: string;
  decisive: string;
  classOk: boolean;
  decisiveOk: boolean | null;
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

export async function scoreCorpus(dir: string): Promise<Row[]> {
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected[];
  const rows: Row[] = [];
  for (const exp of expected) {
    let got = "error";
    let decisive = "";
    try {
      const r = await explainBytes(fileChunks(join(dir, exp.file)));
      got = r.class;
      decisive =
        r.decisive === null || r.decisive === undefined
          ? ""
          : typeof r.decisive === "string"
            ? r.decisive
            : JSON.stringify(r.decisive);
    } catch (e) {
      decisive = `threw: ${(e as Error).message}`;
    }
    rows.push({ exp, got, decisive, classOk: got === exp.class, decisiveOk: decisiveMatches(exp.decisive, decisive) });
  }
  return rows;
}

export function totals(rows: readonly Row[]): Totals {
  const r = (n: readonly Row[], d: readonly Row[]): Ratio => ({ n: n.length, d: d.length });
  const failures = rows.filter((x) => !HEALTHY.has(x.exp.class));
  const healthy = rows.filter((x) => HEALTHY.has(x.exp.class));
  const scored = failures.filter((x) => x.decisiveOk !== null);
  const called = rows.filter((x) => !NOT_A_FAILURE.has(x.got));
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
