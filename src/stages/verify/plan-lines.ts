// verify.plan-lines: boot lines the user declares (contracts.plan), for fork-specific plan lines such as
// an expert-offload budget, arena slots or a spec-reservation ladder. Each pattern's first group must
// capture a number starting with a digit: plain grep and journal columns cut these lines (seed 003,
// plan-line checklist), and a cut line must read as missing, never as a smaller number. Pure.
import type { PlanLineContract } from "../../domain/config/schema.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import { parseNumber } from "../../lib/number.js";

export const CHECK = "verify.plan-lines";

export interface PlanLineResult {
  name: string;
  value: number | null;
  line: string | null;
  min?: number;
  max?: number;
  problem: string | null;
}

/** The newest line matching each pattern (a crash-looping unit boots several times: the last counts). */
export function readPlanLines(lines: readonly string[], specs: readonly PlanLineContract[]): PlanLineResult[] {
  return specs.map((s) => {
    const re = new RegExp(s.pattern);
    let value: number | null = null;
    let hit: string | null = null;
    let cut = false;
    for (const l of lines) {
      const m = re.exec(l);
      if (!m) continue;
      const g = m[1] ?? "";
      // digit-anchored and complete: "1,2" at a line's end may be "1,234" cut short
      const n = /^\d[\d,]*(\.\d+)?$/.test(g) ? parseNumber(g) : null;
      hit = l;
      value = n;
      cut = n === null;
    }
    const bounds = { ...(s.min !== undefined ? { min: s.min } : {}), ...(s.max !== undefined ? { max: s.max } : {}) };
    let problem: string | null = null;
    if (hit === null) problem = "no line matches";
    else if (cut || value === null) problem = "the line matches but its number is not readable (a cut column?)";
    else if (s.min !== undefined && value < s.min)
      problem = `${value.toLocaleString("en-US")} < min ${s.min.toLocaleString("en-US")}`;
    else if (s.max !== undefined && value > s.max)
      problem = `${value.toLocaleString("en-US")} > max ${s.max.toLocaleString("en-US")}`;
    return { name: s.name, value, line: hit, ...bounds, problem };
  });
}

/** `direct`: `container` is the unit that runs the engine itself. */
export function checkPlanLines(
  lines: readonly string[],
  specs: readonly PlanLineContract[],
  container: string,
  direct = false,
): Finding {
  if (specs.length === 0)
    return skip(CHECK, "no contracts.plan declared", {
      fix: 'declare fork plan lines, e.g. contracts.plan: [{ name: arena-slots, pattern: "expert cache space +[0-9.]+ GiB +([0-9,]+) slots", min: 100 }]',
    });
  const rows = readPlanLines(lines, specs);
  const evidence = rows.map(
    (r) =>
      `${r.name}: ${r.value === null ? "-" : r.value.toLocaleString("en-US")}${r.problem ? ` (${r.problem})` : ""}${r.line ? ` <- ${r.line.trim().slice(0, 200)}` : ""}`,
  );
  const bad = rows.filter((r) => r.problem !== null);
  if (bad.length) {
    return fail(CHECK, `plan line(s) off contract: ${bad.map((r) => `${r.name} (${r.problem})`).join(", ")}`, {
      evidence,
      data: { rows },
      fix: `read the lines in full: journalctl ${direct ? `-u ${container}` : `CONTAINER_NAME=${container}`} -b -o cat --no-pager | grep -aoE "<pattern>" (digit-anchored -o; plain grep output cuts the columns), then fix the serve script's knobs or the contract`,
    });
  }
  return pass(CHECK, rows.map((r) => `${r.name} ${r.value!.toLocaleString("en-US")}`).join(", "), {
    evidence,
    data: { rows },
  });
}
