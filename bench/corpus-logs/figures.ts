// Every figure of a blind log key scored (issue 25): a log's class, its decisive line, and each plan and OOM number
// the key names count one each, so a log right on its class but wrong on its KV tokens is not "right". Pure.
import type { Row } from "./score.js";

export type FigureKind = "class" | "decisive" | "plan" | "oom";

export interface Figure {
  kind: FigureKind;
  /** `class`, `decisive`, `plan.kvTokens`, `oom.triedGiB` */
  name: string;
  want: unknown;
  got: unknown;
  ok: boolean;
}

/** Numbers as engines print them and as a key writes them: 9.5 and 9.50, 8192 MiB read as 8 GiB to four places. */
export function sameNumber(want: number, got: unknown): boolean {
  if (typeof got !== "number" || !Number.isFinite(got)) return false;
  return Math.abs(want - got) <= Math.max(0.01, Math.abs(want) * 0.005);
}

/** The figures one row is scored on, in the key's order. */
export function figuresOf(row: Row): Figure[] {
  const out: Figure[] = [{ kind: "class", name: "class", want: row.exp.class, got: row.got, ok: row.classOk }];
  if (row.decisiveOk !== null)
    out.push({ kind: "decisive", name: "decisive", want: row.exp.decisive, got: row.decisive, ok: row.decisiveOk });
  for (const kind of ["plan", "oom"] as const) {
    const want = row.exp[kind] ?? {};
    const got = (row.result?.[kind] ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) {
      if (typeof v !== "number") continue;
      out.push({ kind, name: `${kind}.${k}`, want: v, got: got[k] ?? null, ok: sameNumber(v, got[k]) });
    }
  }
  return out;
}

export interface FigureTally {
  ok: number;
  of: number;
}

/** Right figures of all, by kind and by family (groupOf). */
export function figureTotals(rows: readonly Row[]): {
  all: FigureTally;
  byKind: Record<FigureKind, FigureTally>;
  byGroup: Map<string, FigureTally>;
} {
  const all = { ok: 0, of: 0 };
  const byKind: Record<FigureKind, FigureTally> = {
    class: { ok: 0, of: 0 },
    decisive: { ok: 0, of: 0 },
    plan: { ok: 0, of: 0 },
    oom: { ok: 0, of: 0 },
  };
  const byGroup = new Map<string, FigureTally>();
  for (const row of rows) {
    const group = groupOf(row);
    const g = byGroup.get(group) ?? { ok: 0, of: 0 };
    byGroup.set(group, g);
    for (const f of figuresOf(row)) {
      for (const t of [all, byKind[f.kind], g]) {
        t.of++;
        if (f.ok) t.ok++;
      }
    }
  }
  return { all, byKind, byGroup };
}

/** The key's family, else the file name's first word (`k8s-…`, `journal-…`, `vllm-…`: how the field sets name them). */
export function groupOf(row: Row): string {
  return row.exp.family ?? /^[a-z0-9]+/i.exec(row.exp.file)?.[0] ?? "other";
}
