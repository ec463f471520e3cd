// verify.plan: the plan lines of this boot, read from the journal, each in the data; capture beyond the
// estimate is a warning with both numbers.
import { PlanReader, type Plan } from "../engine/vllm/plan.js";
import { fail, pass, warn, type Finding } from "../report/finding.js";

export const CHECK = "verify.plan";

export function readBootPlan(lines: readonly string[]): { plan: Plan; cache: ReturnType<PlanReader["compileCache"]> } {
  const r = new PlanReader();
  for (const l of lines) r.push(l);
  return { plan: r.plan, cache: r.compileCache() };
}

const LABELS: [keyof Plan, string, string][] = [
  ["kvTokens", "GPU KV cache size", "tokens"], ["maxConcurrency", "maximum concurrency", "x"],
  ["maxModelLen", "for max-model-len", "tokens"], ["availableKvGiB", "available KV cache memory", "GiB"],
  ["estimatedGraphGiB", "estimated CUDA graph memory", "GiB"], ["graphGiB", "captured CUDA graph memory", "GiB"],
  ["compileSeconds", "torch.compile", "s"], ["modelLoadGiB", "model load", "GiB"], ["modelLoadSeconds", "model load time", "s"],
];

export function checkPlan(lines: readonly string[], container: string): Finding {
  const { plan, cache } = readBootPlan(lines);
  const evidence = LABELS.filter(([k]) => plan[k] !== null).map(([k, label, unit]) => `${label}: ${plan[k]!.toLocaleString("en-US")} ${unit}`);
  const data = { ...plan, compileCache: cache.state };
  if (plan.kvTokens === null) {
    return fail(CHECK, `no "GPU KV cache size" line in this boot's journal for ${container}`, {
      evidence: evidence.length ? evidence : ["no plan line found"], data,
      fix: `run the container with --log-driver journald (the journal is the only log that survives a restart), then check: journalctl CONTAINER_NAME=${container} -b -o cat | grep -a "GPU KV cache size"`,
    });
  }
  if (plan.graphGiB !== null && plan.estimatedGraphGiB !== null && plan.graphGiB > plan.estimatedGraphGiB) {
    return warn(CHECK, `CUDA graph capture took ${plan.graphGiB} GiB, more than the ${plan.estimatedGraphGiB} GiB estimate the KV plan charged`, {
      evidence, data,
      fix: `the ${(plan.graphGiB - plan.estimatedGraphGiB).toFixed(2)} GiB excess comes out of the margin: lower --gpu-memory-utilization or raise the per-graph charge`,
    });
  }
  return pass(CHECK, `plan of this boot: ${plan.kvTokens.toLocaleString("en-US")} KV tokens${plan.maxConcurrency === null ? "" : `, ${plan.maxConcurrency}x concurrency`}`, { evidence, data });
}
