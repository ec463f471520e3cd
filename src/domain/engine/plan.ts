// Reads a boot's plan lines, every engine's, into one Plan. Last value wins: a crash-looping unit boots
// several times and the newest boot is the one that counts. Pure.
import { messageOf } from "./vllm/lines.js";
import { emptyPlan, type CompileCache, type Plan } from "./plan-fields.js";
import { PEER_PLAN_KEYWORDS, PEER_PLAN_RULES } from "./peer-plan.js";
import { COMPILED, LOADED, VLLM_PLAN_KEYWORDS, VLLM_PLAN_RULES } from "./vllm/plan.js";
import { parseNumber } from "../../lib/number.js";

export { emptyPlan, type CompileCache, type Plan } from "./plan-fields.js";

// SGLang's and llama.cpp's plan lines fill the same fields (peer-plan.ts).
const RULES = [...VLLM_PLAN_RULES, ...PEER_PLAN_RULES];
/** Every engine's plan keywords: one of them is in every plan line (verify's host grep is built from them). */
export const PLAN_KEYWORDS: readonly string[] = [...VLLM_PLAN_KEYWORDS, ...PEER_PLAN_KEYWORDS];
// Cheap pre-filter: most lines of a long log are stats and access logs.
const KEYWORDS = new RegExp(PLAN_KEYWORDS.join("|"));

export class PlanReader {
  readonly plan: Plan = emptyPlan();
  private compiled = 0;
  private loaded = 0;
  private slowest: number | null = null;

  /** Takes one line; true when it set a plan figure. */
  push(line: string): boolean {
    if (!KEYWORDS.test(line)) return false;
    // figures pasted through a markdown editor come wrapped in bold: `**34.66 GiB**`
    const msg = messageOf(line.includes("**") ? line.replace(/\*\*/g, "") : line);
    let read = false;
    for (const [re, set] of RULES) {
      const m = re.exec(msg);
      if (m) {
        set(this.plan, m);
        read = true;
      }
    }
    const c = COMPILED.exec(msg);
    if (c) {
      this.compiled++;
      const s = parseNumber(c[1]);
      if (s !== null && (this.slowest === null || s > this.slowest)) this.slowest = s;
    }
    if (LOADED.test(msg)) this.loaded++;
    return read;
  }

  compileCache(): CompileCache {
    const state = this.compiled > 0 ? "cold" : this.loaded > 0 ? "hit" : null;
    return { state, graphsCompiled: this.compiled, graphsLoaded: this.loaded, slowestGraphSeconds: this.slowest };
  }
}

export function readPlan(lines: Iterable<string>): Plan {
  const reader = new PlanReader();
  for (const line of lines) reader.push(line);
  return reader.plan;
}
