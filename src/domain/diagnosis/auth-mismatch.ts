// The auth-mismatch class: the engine answers, but refuses the gate's key (or the lack of one).
import type { AdviceFacts } from "./types.js";

export function authMismatchAdvice(f: Pick<AdviceFacts, "decisive">): { summary: string; fix: string } {
  return {
    summary: `the engine refused the gate's requests: ${f.decisive ?? "/v1/models answered 401/403"}`,
    fix: "The server runs with --api-key (or VLLM_API_KEY): give the gate the same key in the env secret DEPLOY_GATE_API_KEY (never in argv or deploy-gate.yml), or remove --api-key from the serve script if the endpoint should be open.",
  };
}

/** The journal's diagnosis of a boot that came up fine, restated as what stopped the deploy: the key. */
export function authMismatchDiagnosis<
  D extends { class: string; decisive: string | null; summary: string; fix: string | null; evidence: string[] },
>(d: D, reason: string): D {
  const a = authMismatchAdvice({ decisive: reason });
  return {
    ...d,
    class: "auth-mismatch",
    decisive: reason,
    summary: a.summary,
    fix: a.fix,
    evidence: [reason, ...d.evidence].slice(0, 16),
  };
}
