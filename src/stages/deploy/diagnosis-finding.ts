// A diagnosis as the `deploy.diagnosis` finding the report shows.
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import type { Diagnosis } from "../../domain/diagnosis/classify.js";

type Diagnosed = Pick<
  Diagnosis,
  "class" | "decisive" | "summary" | "fix" | "evidence" | "plan" | "oom" | "specDecode"
> &
  Partial<Pick<Diagnosis, "below">>;

export function diagnosisFinding(d: Diagnosed, check = "deploy.diagnosis"): Finding {
  const evidence = d.decisive ? [d.decisive, ...d.evidence.filter((e) => e !== d.decisive)] : d.evidence;
  const extra: Partial<Finding> = {
    evidence,
    data: {
      class: d.class,
      decisive: d.decisive,
      plan: d.plan,
      oom: d.oom,
      specDecode: d.specDecode,
      // a failure under the engine: which layer failed and what its fix names
      ...(d.below ? { layer: d.below.layer, facts: d.below.facts } : {}),
    },
    ...(d.fix ? { fix: d.fix } : {}),
  };
  if (d.class === "ready") return pass(check, d.summary, extra);
  if (d.class === "booting") return warn(check, d.summary, extra);
  return fail(check, `${d.class}: ${d.summary}`, extra);
}
