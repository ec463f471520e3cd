// The terminal report: one line per check, details under failures and warnings, the verdict last.
import type { Finding, Report, Status } from "./finding.js";
import { fleetTerminal } from "./fleet.js";
import { painter, type Paint, type Style } from "./paint.js";

const LABEL: Record<Status, string> = { pass: "✔ pass", fail: "✖ FAIL", warn: "▲ warn", skip: "○ skip" };
const COLOUR: Record<Status, Style> = { pass: "green", fail: "red", warn: "yellow", skip: "dim" };

/** --no-color first, then FORCE_COLOR (on, or off for 0/false; before NO_COLOR, as Node orders them),
 *  then NO_COLOR, then a terminal that is not dumb. The caller decides. */
export function useColour(opts: { noColor: boolean; isTTY: boolean; env: NodeJS.ProcessEnv }): boolean {
  if (opts.noColor) return false;
  const force = opts.env.FORCE_COLOR;
  if (force !== undefined) return !["0", "false"].includes(force.toLowerCase());
  if (opts.env.NO_COLOR !== undefined && opts.env.NO_COLOR !== "") return false;
  return opts.isTTY && opts.env.TERM !== "dumb";
}

function findingLines(f: Finding, paint: Paint, width: number): string[] {
  const out = [`${paint(COLOUR[f.status], LABEL[f.status])}  ${f.check.padEnd(width)}  ${f.summary}`];
  // a dry run's diff and commands are what was asked for: shown though it passes
  if ((f.status === "pass" && f.data?.dryRun !== true) || f.status === "skip") {
    if (f.status === "skip" && f.fix) out.push(`${" ".repeat(8 + width)}${paint("dim", `hint: ${f.fix}`)}`);
    return out;
  }
  const pad = " ".repeat(8);
  if (f.file) out.push(`${pad}${paint("cyan", `at ${f.file}${f.line ? `:${f.line}` : ""}`)}`);
  for (const e of f.evidence ?? []) for (const l of e.split("\n")) out.push(`${pad}${paint("dim", "│")} ${l}`);
  if (f.fix) out.push(`${pad}${paint("bold", "fix:")} ${f.fix}`);
  return out;
}

/** quiet: only the failures and the verdict line (for scripts and busy logs). */
export function renderTerminal(report: Report, colour: boolean, quiet = false): string {
  const paint = painter(colour);
  const width = Math.max(0, ...report.findings.map((f) => f.check.length));
  const head = [`deploy-gate ${report.command}`];
  if (report.endpoint) head.push(`endpoint ${report.endpoint}`);
  head.push(`${report.ref.name}${report.ref.sha ? ` ${report.ref.sha.slice(0, 10)}` : ""}`);
  head.push(`${(report.durationMs / 1000).toFixed(2)}s`);
  const shown = quiet ? report.findings.filter((f) => f.status === "fail") : report.findings;
  const lines = quiet ? [] : [paint("bold", head.join(" · ")), ""];
  const fleet = fleetTerminal(
    { ...report, findings: shown },
    (f) => findingLines(f, paint, width),
    (h) => paint("bold", h),
  );
  lines.push(...(fleet ?? shown.flatMap((f) => findingLines(f, paint, width))));
  const n = (s: Status) => report.findings.filter((f) => f.status === s).length;
  const tally = `${n("fail")} failed, ${n("warn")} warnings, ${n("pass")} passed, ${n("skip")} skipped`;
  const verdict =
    report.verdict === "fail"
      ? paint("red", "FAIL")
      : report.verdict === "warn"
        ? paint("yellow", "PASS with warnings")
        : paint("green", "PASS");
  lines.push(...(lines.length ? [""] : []), `${paint("bold", verdict)}  ${tally}`);
  return lines.join("\n") + "\n";
}
