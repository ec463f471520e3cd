// What deploy-gate needs to know about an inference engine. vLLM implements it in vllm/; what SGLang and
// llama.cpp print that differs (readiness, failures, plan lines) is read beside it, in peers.ts and
// peer-plan.ts, by the same parsers the stages already call.
import type { HttpResult, ContractVerdict } from "./vllm/contracts.js";
import type { BootPhase } from "./vllm/phase.js";
import type { Plan } from "./plan-fields.js";

export interface Engine {
  readonly name: string;
  /** The phase a progress line reports, or null. */
  bootPhase(line: string): BootPhase | null;
  isReadyMarker(line: string): boolean;
  readPlan(lines: Iterable<string>): Plan;
  checkThinking(result: HttpResult): ContractVerdict;
  checkTools(result: HttpResult): ContractVerdict;
}
