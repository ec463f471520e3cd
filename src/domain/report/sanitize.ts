// The one pass over a report before any renderer (terminal, JSON, job summary, annotations): every
// string is redacted and stripped of control characters, every continuation line is prefixed, and the
// runner's legacy `##[cmd]` form (obeyed anywhere in a line) is broken up, so host or repository text can
// neither leak a secret, drive the terminal, nor start a workflow command (`::error`, `##[add-mask]`).
import { redact } from "../redact/redact.js";
import { stripControl } from "../journal/line.js";
import type { Finding, Report } from "./finding.js";

/** Marks a line that continues the one before: never empty, never whitespace (the runner trims that). */
export const CONTINUATION = "↳ ";

/** `##[` with a word joiner between the two `#`: reads the same, is no command (the runner looks for `##[`). */
const LEGACY_COMMAND = /##\[/g;
const inert = (text: string) => text.replace(LEGACY_COMMAND, "#\u2060#[");

/** Redacted, control-free text whose lines after the first are prefixed. */
export function sanitizeText(text: string): string {
  const lines = inert(stripControl(redact(text))).split("\n");
  return lines.map((l, i) => (i === 0 ? guardFirst(l) : `${CONTINUATION}${l}`)).join("\n");
}

/** A line printed on its own (a progress line): its start is ours, and it stays one line. */
export function sanitizeLine(line: string): string {
  return sanitizeText(line);
}

// A string that itself starts with "::" would start a line wherever a renderer puts it first.
const guardFirst = (l: string) => (/^\s*::/.test(l) ? `${CONTINUATION}${l}` : l);

function deep(value: unknown): unknown {
  if (typeof value === "string") return sanitizeText(value);
  if (Array.isArray(value)) return value.map(deep);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControl(k), deep(v)]));
  return value;
}

/** Evidence entries are split into lines, each sanitized: renderers prefix every evidence line themselves. */
function sanitizeFinding(f: Finding): Finding {
  const out = deep(f) as Finding;
  if (f.evidence)
    out.evidence = f.evidence.flatMap((e) =>
      inert(stripControl(redact(e)))
        .split("\n")
        .map(guardFirst),
    );
  return out;
}

export function sanitizeReport(report: Report): Report {
  return {
    ...report,
    ref: deep(report.ref) as Report["ref"],
    endpoint: report.endpoint,
    findings: report.findings.map(sanitizeFinding),
  };
}

/** For results that are not a Report (explain): the same pass over every string. */
export const sanitizeValue = <T>(value: T): T => deep(value) as T;
