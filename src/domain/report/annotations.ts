// GitHub annotations for findings that point at a file line. GitHub shows at most 10 of each kind per
// step and silently drops the rest, so the budget is planned here: the step's own error (core.setFailed)
// takes one error slot, and when findings overflow, one slot goes to a note that says how many more are
// only in the job summary. Pure.
import type { Finding, Report, Status } from "./finding.js";

export interface Annotation {
  level: "error" | "warning";
  message: string;
  title: string;
  /** absent for the overflow note */
  file?: string;
  startLine?: number;
}

export const ANNOTATIONS_PER_KIND = 10;

// shellcheck's style warnings are many and least urgent: they must not crowd out a dropped flag.
const rank = (f: Finding) => (f.check === "preflight.shellcheck" ? 1 : 0);

/** The findings of one status that point at a file, most urgent first (stable otherwise). */
const annotatable = (report: Report, status: Status) =>
  report.findings.filter((f) => f.status === status && f.file).sort((a, b) => rank(a) - rank(b));

const annotation = (f: Finding, level: Annotation["level"]): Annotation => ({
  level,
  title: `deploy-gate ${f.check}`,
  message: f.fix ? `${f.summary}\nFix: ${f.fix}` : f.summary,
  file: f.file!,
  ...(f.line ? { startLine: f.line } : {}),
});

const plural = (n: number, word: string) => `${n} more ${word}${n === 1 ? "" : "s"}`;

export function annotationsOf(report: Report, perKind = ANNOTATIONS_PER_KIND): Annotation[] {
  const fails = annotatable(report, "fail");
  const warns = annotatable(report, "warn");
  // A failure fails the step, and setFailed's message is an error annotation too.
  const failSlots = Math.max(0, perKind - (report.findings.some((f) => f.status === "fail") ? 1 : 0));
  const failsOver = fails.length > failSlots;
  const shownFails = fails.slice(0, failsOver ? Math.max(0, failSlots - 1) : failSlots);
  // One note covers both kinds: an error note when failures overflow (warnings keep all their slots).
  const warnsOver = !failsOver && warns.length > perKind;
  const shownWarns = warns.slice(0, warnsOver ? Math.max(0, perKind - 1) : perKind);
  const out = [...shownFails.map((f) => annotation(f, "error")), ...shownWarns.map((f) => annotation(f, "warning"))];
  const hidden = [
    ...(fails.length > shownFails.length ? [plural(fails.length - shownFails.length, "failure")] : []),
    ...(warns.length > shownWarns.length ? [plural(warns.length - shownWarns.length, "warning")] : []),
  ];
  if (hidden.length) {
    out.push({
      level: failsOver ? "error" : "warning",
      title: "deploy-gate: more in the job summary",
      message: `${hidden.join(" and ")} at file lines than GitHub shows as annotations (${perKind} per kind per step): see the job summary`,
    });
  }
  return out;
}

/** The step's own error: the verdict and the checks that decided it, so the annotation alone says what failed. */
export function stepFailure(report: Report): string {
  const deciding: Status = report.verdict === "fail" ? "fail" : "warn";
  const ids = [...new Set(report.findings.filter((f) => f.status === deciding).map((f) => f.check))];
  return `deploy-gate ${report.command}: ${report.verdict}${ids.length ? ` (${ids.join(", ")})` : ""}; see the job summary`;
}
