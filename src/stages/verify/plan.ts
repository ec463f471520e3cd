// verify.plan: the plan lines of this boot, read from the journal, each in the data; capture beyond the
// estimate is a warning with both numbers.
import { PlanReader, type Plan } from "../../domain/engine/plan.js";
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import { parseNumber } from "../../lib/number.js";

export const CHECK = "verify.plan";

export function readBootPlan(lines: readonly string[]): { plan: Plan; cache: ReturnType<PlanReader["compileCache"]> } {
  const r = new PlanReader();
  for (const l of lines) r.push(l);
  return { plan: r.plan, cache: r.compileCache() };
}

const LABELS: [keyof Plan, string, string][] = [
  ["kvTokens", "GPU KV cache size", "tokens"],
  ["maxConcurrency", "maximum concurrency", "x"],
  ["maxModelLen", "max-model-len in the KV line", "tokens"],
  ["availableKvGiB", "available KV cache memory", "GiB"],
  ["estimatedGraphGiB", "estimated CUDA graph memory", "GiB"],
  ["graphGiB", "captured CUDA graph memory", "GiB"],
  ["compileSeconds", "torch.compile", "s"],
  ["modelLoadGiB", "model load", "GiB"],
  ["modelLoadSeconds", "model load time", "s"],
];

// Expert-offload forks print their VRAM plan too (seed 003, plan-line checklist); digit-anchored.
const BUDGET = /budget \(total x util\) +(\d[\d,]*(?:\.\d+)?)/;
const ARENA = /expert cache space +(\d[\d,]*(?:\.\d+)?) GiB +(\d[\d,]*) slots/;

export function readForkPlan(lines: readonly string[]): {
  budgetGiB: number | null;
  expertCacheGiB: number | null;
  expertSlots: number | null;
} {
  const out = {
    budgetGiB: null as number | null,
    expertCacheGiB: null as number | null,
    expertSlots: null as number | null,
  };
  for (const l of lines) {
    const b = BUDGET.exec(l);
    if (b) out.budgetGiB = parseNumber(b[1]);
    const a = ARENA.exec(l);
    if (a) {
      out.expertCacheGiB = parseNumber(a[1]);
      out.expertSlots = parseNumber(a[2]);
    }
  }
  return out;
}

/** `direct`: `container` is the unit that runs the engine itself (its lines are the unit's own). */
export function checkPlan(lines: readonly string[], container: string, direct = false): Finding {
  const { plan, cache } = readBootPlan(lines);
  const fork = readForkPlan(lines);
  const evidence = LABELS.filter(([k]) => plan[k] !== null).map(
    ([k, label, unit]) => `${label}: ${plan[k]!.toLocaleString("en-US")} ${unit}`,
  );
  if (fork.budgetGiB !== null) evidence.push(`budget (total x util): ${fork.budgetGiB} GiB`);
  if (fork.expertCacheGiB !== null)
    evidence.push(`expert cache: ${fork.expertCacheGiB} GiB, ${fork.expertSlots?.toLocaleString("en-US")} slots`);
  if (cache.state)
    evidence.push(
      `compile cache: ${cache.state === "hit" ? `warm (${cache.graphsLoaded} graph(s) loaded)` : `cold (${cache.graphsCompiled} graph(s) compiled)`}`,
    );
  const data = { ...plan, ...fork, compileCache: cache.state };
  if (plan.kvTokens === null) {
    return fail(
      CHECK,
      `no KV cache size line in this boot's journal for ${container} (vLLM: "GPU KV cache size", SGLang: "KV Cache is allocated", llama.cpp: "n_ctx =")`,
      {
        evidence: evidence.length ? evidence : ["no plan line found"],
        data,
        fix: direct
          ? `the engine's stdout and stderr must reach the journal (no StandardOutput=/StandardError= to a file or null in the unit, no redirect in a serve script) and the SSH user must read the system journal (root, or the systemd-journal group), then check: journalctl -u ${container} -b -o cat | grep -aE "GPU KV cache size|KV Cache is allocated|n_ctx +="`
          : `run the container with --log-driver journald (the journal is the only log that survives a restart), then check: journalctl CONTAINER_NAME=${container} -b -o cat | grep -aE "GPU KV cache size|KV Cache is allocated|n_ctx +="`,
      },
    );
  }
  if (plan.graphGiB !== null && plan.estimatedGraphGiB !== null && plan.graphGiB > plan.estimatedGraphGiB) {
    return warn(
      CHECK,
      `CUDA graph capture took ${plan.graphGiB} GiB, more than the ${plan.estimatedGraphGiB} GiB estimate the KV plan charged`,
      {
        evidence,
        data,
        fix: `the ${(plan.graphGiB - plan.estimatedGraphGiB).toFixed(2)} GiB excess comes out of the margin: lower --gpu-memory-utilization or raise the per-graph charge`,
      },
    );
  }
  return pass(
    CHECK,
    `plan of this boot: ${plan.kvTokens.toLocaleString("en-US")} KV tokens${plan.maxConcurrency === null ? "" : `, ${plan.maxConcurrency}x concurrency`}`,
    { evidence, data },
  );
}
