// The unit every stage produces. Check ids are stable: tests, docs and users' workflows refer to them.
export type Status = "pass" | "fail" | "warn" | "skip";
export type Verdict = "pass" | "warn" | "fail";

export interface Finding {
  check: string;
  status: Status;
  summary: string;
  evidence?: string[];
  fix?: string;
  file?: string;
  line?: number;
  data?: Record<string, unknown>;
  /** fleet endpoints: the host (its name in hosts:) this finding is about */
  host?: string;
}

export interface Report {
  schema: 1;
  tool: { name: "deploy-gate"; version: string };
  command: string;
  endpoint: string | null;
  ref: { name: string; sha: string | null };
  verdict: Verdict;
  durationMs: number;
  findings: Finding[];
  /** fleet endpoints: one row per host (src/fleet/rollout.ts) */
  fleet?: HostRow[];
}

/** A fleet host's line in the report (domain/rollout.ts builds them). */
export type HostVerdict =
  "pass" | "warn" | "fail" | "rolled back" | "failed, rolled back" | "rollback failed" | "not touched";

export interface HostRow {
  host: string;
  step: number | null;
  verdict: HostVerdict;
  /** deploy.ready's time to ready, ms (null: no deploy, or not ready) */
  readyMs: number | null;
  kvTokens: number | null;
}

/** fail beats warn beats pass; skip never decides the verdict on its own. */
export function verdictOf(findings: readonly Finding[]): Verdict {
  if (findings.some((f) => f.status === "fail")) return "fail";
  if (findings.some((f) => f.status === "warn")) return "warn";
  return "pass";
}

export function exitCodeOf(verdict: Verdict, failOnWarn = false): 0 | 1 {
  return verdict === "fail" || (failOnWarn && verdict === "warn") ? 1 : 0;
}

/** A finding that says the gate could not judge (the endpoint did not answer, no model to ask for). */
export const undecided = (findings: readonly Finding[]): boolean =>
  findings.some((f) => f.status === "fail" && f.data?.undecided === true);

/** The exit code contract: 0 pass, 1 a check failed, 2 the gate could not judge. */
export const reportExitCode = (r: Pick<Report, "verdict" | "findings">, failOnWarn = false): 0 | 1 | 2 =>
  undecided(r.findings) ? 2 : exitCodeOf(r.verdict, failOnWarn);

export const pass = (check: string, summary: string, extra: Partial<Finding> = {}): Finding => ({
  check,
  status: "pass",
  summary,
  ...extra,
});
export const fail = (check: string, summary: string, extra: Partial<Finding> = {}): Finding => ({
  check,
  status: "fail",
  summary,
  ...extra,
});
export const warn = (check: string, summary: string, extra: Partial<Finding> = {}): Finding => ({
  check,
  status: "warn",
  summary,
  ...extra,
});
export const skip = (check: string, summary: string, extra: Partial<Finding> = {}): Finding => ({
  check,
  status: "skip",
  summary,
  ...extra,
});
