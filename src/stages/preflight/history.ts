// preflight.history: the history checks need history; a shallow clone is named with its fix.
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { SHALLOW_FIX } from "./targets.js";

const CHECK = "preflight.history";

export function historyFinding(shallow: boolean): Finding {
  if (!shallow) return pass(CHECK, "full git history available for contract tracing and dropped-flag checks");
  return fail(CHECK, "shallow clone: contract tracing, dropped-flag and rollback-ref checks cannot run", {
    evidence: ["git rev-parse --is-shallow-repository -> true (actions/checkout fetches one commit by default)"],
    fix: SHALLOW_FIX,
    data: { shallow: true },
  });
}
