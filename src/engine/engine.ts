// What deploy-gate needs to know about an inference engine. vLLM implements it in vllm/; llama.cpp can be
// added as a second implementation without touching the stages.
import type { HttpResult, ContractVerdict } from "./vllm/contracts.js";
import type { BootPhase } from "./vllm/phase.js";
import type { Plan } from "./vllm/plan.js";

export interface Engine {
  readonly name: string;
  /** The phase a progress line reports, or null. */
  bootPhase(line: string): BootPhase | null;
  isReadyMarker(line: string): boolean;
  readPlan(lines: Iterable<string>): Plan;
  checkThinking(result: HttpResult): ContractVerdict;
  checkTools(result: HttpResult): ContractVerdict;
}
