// The Report envelope every reporting verb returns, and the one pass that makes host and repository
// text safe for every output (the gate's own secrets masked by value, redacted, control characters gone).
import { verdictOf, type Finding, type HostRow, type Report } from "../../domain/report/finding.js";
import { maskKnown } from "../../domain/redact/known.js";
import { sanitizeReport } from "../../domain/report/sanitize.js";
import { VERSION } from "../../lib/version.js";
import type { Options } from "../options.js";
import type { Workspace } from "./workspace.js";

export interface ReportParts {
  findings: Finding[];
  ref: { name: string; sha: string | null };
  fleet?: HostRow[];
  durationMs: number;
}

export function buildReport(ws: Pick<Workspace, "config" | "secrets">, opts: Options, parts: ReportParts): Report {
  const names = ws.config ? Object.keys(ws.config.endpoints) : [];
  const report: Report = {
    schema: 1,
    tool: { name: "deploy-gate", version: VERSION },
    command: opts.command,
    endpoint: opts.endpoint ?? (names.length === 1 ? names[0]! : null),
    ref: parts.ref,
    verdict: verdictOf(parts.findings),
    durationMs: Math.round(parts.durationMs),
    findings: parts.findings,
    ...(parts.fleet ? { fleet: parts.fleet } : {}),
  };
  return sanitizeReport(maskKnown(report, ws.secrets));
}
