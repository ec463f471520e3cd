// preflight.traps: the serve script and unit avoid every known trap that costs a boot.
import type { TrapLevel, TrapRule } from "../../config/schema.js";
import { fail, pass, warn, type Finding } from "../../report/finding.js";
import type { ServeScript } from "../../script/model.js";
import { buildContext } from "./context.js";
import { TRAP_RULE_DEFS } from "./registry.js";

export const CHECK_ID = "preflight.traps";
/** The endpoint's default boot.timeout (20 min), used when the caller does not pass one. */
const DEFAULT_BOOT_SECONDS = 20 * 60;

export interface TrapInput {
  script: ServeScript;
  scriptPath: string;
  unit: { path: string; text: string } | null;
  /** the endpoint's boot timeout in seconds: a readiness-waiting unit needs TimeoutStartSec above it */
  bootTimeoutSeconds?: number;
  /** the endpoint's images: (entrypoint-serve) */
  images?: Readonly<Record<string, { entrypointServes: boolean }>>;
}

export function checkTraps(input: TrapInput, levels: Partial<Record<TrapRule, TrapLevel>>): Finding[] {
  const ctx = buildContext(input.script, input.scriptPath, input.unit, input.bootTimeoutSeconds ?? DEFAULT_BOOT_SECONDS, input.images ?? {});
  const active = TRAP_RULE_DEFS.filter((r) => (levels[r.id] ?? r.defaultLevel) !== "off");
  const findings: Finding[] = [];
  for (const rule of active) {
    const make = (levels[rule.id] ?? rule.defaultLevel) === "fail" ? fail : warn;
    for (const hit of rule.check(ctx)) {
      findings.push(make(CHECK_ID, `${hit.summary}: ${rule.why}.`, {
        file: hit.file,
        line: hit.line,
        evidence: hit.evidence,
        fix: hit.fix,
        data: { rule: rule.id, why: rule.why },
      }));
    }
  }
  if (findings.length > 0) return findings;
  const rules = active.map((r) => r.id);
  const scope = input.unit ? `${input.scriptPath} and ${input.unit.path}` : input.scriptPath;
  return [pass(CHECK_ID, `${scope}: none of the ${rules.length} trap rules checked tripped`, { file: input.scriptPath, data: { rules } })];
}
