// A Diagnosis as the `{ schema: 1, class, … }` result that explain and logs print and return as JSON.
import type { Diagnosis } from "./classify.js";

/** DESIGN.md's explain JSON: `{ schema, class, decisive, plan, oom, specDecode }` plus summary, fix, evidence. */
export type ExplainResult = { schema: 1 } & Pick<
  Diagnosis,
  "class" | "decisive" | "plan" | "oom" | "specDecode" | "summary" | "fix" | "evidence"
>;

export function toResult(d: Diagnosis): ExplainResult {
  return {
    schema: 1,
    class: d.class,
    decisive: d.decisive,
    plan: d.plan,
    oom: d.oom,
    specDecode: d.specDecode,
    summary: d.summary,
    fix: d.fix,
    evidence: d.evidence,
  };
}
