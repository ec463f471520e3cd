// GitHub annotations for findings that point at a file line. GitHub shows at most 10 of each kind per
// step: the first ten failures and ten warnings get annotations, the rest are in the summary.
import type { Report } from "./finding.js";

export interface Annotation {
  level: "error" | "warning";
  message: string;
  title: string;
  file: string;
  startLine?: number;
}

export const ANNOTATIONS_PER_KIND = 10;

export function annotationsOf(report: Report, perKind = ANNOTATIONS_PER_KIND): Annotation[] {
  const out: Annotation[] = [];
  for (const [status, level] of [["fail", "error"], ["warn", "warning"]] as const) {
    const fs = report.findings.filter((f) => f.status === status && f.file);
    for (const f of fs.slice(0, perKind)) {
      out.push({
        level,
        title: `deploy-gate ${f.check}`,
        message: f.fix ? `${f.summary}\nFix: ${f.fix}` : f.summary,
        file: f.file!,
        ...(f.line ? { startLine: f.line } : {}),
      });
    }
  }
  return out;
}
