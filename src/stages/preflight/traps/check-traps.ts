// preflight.traps: the serve script and unit avoid every known trap that costs a boot.
import type { TrapLevel, TrapRule } from "../../../domain/config/schema.js";
import { fail, pass, warn, type Finding } from "../../../domain/report/finding.js";
import type { ServeScript } from "../../../domain/launch/model.js";
import type { FileKind } from "../../../domain/launch/launch.js";
import { buildContext } from "./lookups.js";
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
  /** the endpoint's file is a unit or a quadlet (its own unit), not a script; default script */
  kind?: FileKind;
}

export function checkTraps(input: TrapInput, levels: Partial<Record<TrapRule, TrapLevel>>): Finding[] {
  const { active, findings } = judge(input, levels, false);
  if (findings.length > 0) return findings;
  const rules = active.map((r) => r.id);
  const scope =
    input.unit && (input.kind ?? "script") === "script"
      ? `${input.scriptPath} and ${input.unit.path}`
      : input.scriptPath;
  return [
    pass(CHECK_ID, `${scope}: none of the ${rules.length} trap rules checked tripped`, {
      file: input.scriptPath,
      data: { rules },
    }),
  ];
}

/**
 * A file's second (third...) engine: the rules about an engine's own behaviour, judged for that engine. The file's
 * checks ran with its first engine (`first`); a hit those rules also give there (a unit key both share) is said once.
 */
export function checkEngineTraps(
  input: TrapInput,
  first: TrapInput,
  levels: Partial<Record<TrapRule, TrapLevel>>,
): Finding[] {
  const key = (f: Finding) => `${f.data?.rule}\0${f.file}\0${f.line}`;
  const said = new Set(judge(first, levels, true).findings.map(key));
  return judge(input, levels, true).findings.filter((f) => !said.has(key(f)));
}

function judge(input: TrapInput, levels: Partial<Record<TrapRule, TrapLevel>>, engineRulesOnly: boolean) {
  const ctx = buildContext(
    input.script,
    input.scriptPath,
    input.unit,
    input.bootTimeoutSeconds ?? DEFAULT_BOOT_SECONDS,
    input.images ?? {},
    input.kind,
  );
  const engine = input.script.engine?.kind ?? null;
  // a rule about one engine's behaviour is not checked for another engine's file (nor one whose engine is unknown)
  const applies = (r: (typeof TRAP_RULE_DEFS)[number]) =>
    r.engines === "any" ? !engineRulesOnly : engine !== null && r.engines.includes(engine);
  const active = TRAP_RULE_DEFS.filter((r) => (levels[r.id] ?? r.defaultLevel) !== "off" && applies(r));
  const findings: Finding[] = [];
  // a function's body is read again for each call that gives it arguments: one line, one finding per rule
  const seen = new Set<string>();
  for (const rule of active) {
    const make = (levels[rule.id] ?? rule.defaultLevel) === "fail" ? fail : warn;
    for (const hit of rule.check(ctx)) {
      const key = `${rule.id}\0${hit.file}\0${hit.line}\0${hit.summary}`;
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(
        make(CHECK_ID, `${hit.summary}: ${rule.why}.`, {
          file: hit.file,
          line: hit.line,
          evidence: hit.evidence,
          fix: hit.fix,
          data: { rule: rule.id, why: rule.why },
        }),
      );
    }
  }
  return { active, findings };
}
