// One finding that several parts of a file share (a YAML anchor merged into many services) is said once.
import type { Finding } from "../../domain/report/finding.js";

// a dropped flag is each part's own loss (the key traces it per service), so only what a line says is merged
const key = (f: Finding) =>
  f.status !== "pass" &&
  f.check !== "preflight.dropped-flags" &&
  f.file &&
  f.line !== undefined &&
  typeof f.data?.part === "string"
    ? `${f.check}\0${String(f.data.rule ?? "")}\0${f.status}\0${f.file}\0${f.line}`
    : null;

/** Findings at the same rule, file and line from different parts become one, naming how many parts share it. */
export function mergeSharedFindings(findings: Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const k = key(f);
    if (k !== null) groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const out: Finding[] = [];
  for (const f of findings) {
    const k = key(f);
    const group = k === null ? [f] : groups.get(k)!;
    if (group.length === 1) out.push(f);
    else if (group[0] === f) out.push(merged(group));
  }
  return out;
}

function merged(group: Finding[]): Finding {
  const first = group[0]!;
  const parts = group.map((f) => String(f.data!.part));
  const own = `${first.file} (${parts[0]}):`;
  // the summary names the file once and every part that shares the line
  const rest = first.summary.startsWith(own) ? first.summary.slice(own.length) : ` ${first.summary}`;
  const named = parts.length > 4 ? `${parts.slice(0, 3).join(", ")} and ${parts.length - 3} more` : parts.join(", ");
  return {
    ...first,
    summary: `${first.file} (${parts.length} parts share this line: ${named}):${rest}`,
    data: { ...first.data, parts },
  };
}
