// The JSON report (--json on stdout, --report FILE, and the action's report output).
import type { Report } from "./finding.js";

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + "\n";
}
