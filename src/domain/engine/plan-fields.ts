// The engine-neutral plan: the fields every engine's plan lines fill, read by verify and the diagnosis.
// The rules live with their engine (vllm/plan.ts, peer-plan.ts); plan.ts runs them. Pure.

export interface Plan {
  kvTokens: number | null;
  maxModelLen: number | null;
  maxConcurrency: number | null;
  gpuBlocks: number | null;
  availableKvGiB: number | null;
  modelLoadGiB: number | null;
  modelLoadSeconds: number | null;
  graphGiB: number | null;
  graphSeconds: number | null;
  estimatedGraphGiB: number | null;
  compileSeconds: number | null;
}

/** Compile-cache evidence: warm boots load graphs from the cache, cold ones compile them. */
export interface CompileCache {
  state: "hit" | "cold" | null;
  graphsCompiled: number;
  graphsLoaded: number;
  slowestGraphSeconds: number | null;
}

export function emptyPlan(): Plan {
  return {
    kvTokens: null,
    maxModelLen: null,
    maxConcurrency: null,
    gpuBlocks: null,
    availableKvGiB: null,
    modelLoadGiB: null,
    modelLoadSeconds: null,
    graphGiB: null,
    graphSeconds: null,
    estimatedGraphGiB: null,
    compileSeconds: null,
  };
}

export type PlanRule = readonly [RegExp, (plan: Plan, m: RegExpExecArray) => void];
