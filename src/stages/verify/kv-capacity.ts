// verify.kv-capacity: the KV pool measured at boot holds the declared requests at the live max-model-len.
import type { Plan } from "../../domain/engine/plan.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import type { EngineKind } from "../../domain/engine/kind.js";

export const CHECK = "verify.kv-capacity";
const fmt = (n: number) => n.toLocaleString("en-US");

/** How each engine gives its KV pool more room. */
const MORE_KV: Record<EngineKind, string> = {
  vllm: "give the pool more memory (--kv-cache-memory-bytes, or --gpu-memory-utilization where no expert offload takes the rest) or lower the declared requests; lowering --max-model-len can shrink the pool under expert offload",
  sglang:
    "give the pool more memory (raise --mem-fraction-static; the pool is what it leaves after the weights), or lower --context-length or the declared requests",
  "llama.cpp":
    "raise -c / --ctx-size (llama-server splits it across its -np slots: each request gets ctx-size / parallel), or lower -np or the declared requests",
};

export function checkKvCapacity(
  plan: Pick<Plan, "kvTokens" | "maxModelLen">,
  liveMaxModelLen: number | null,
  kv: { minTokens?: number; requests?: number } | undefined,
  engine: EngineKind = "vllm",
): Finding {
  const maxLen = liveMaxModelLen ?? plan.maxModelLen;
  const requests = kv?.requests ?? 1;
  const data: Record<string, unknown> = {
    kvTokens: plan.kvTokens,
    maxModelLen: maxLen,
    maxModelLenFrom: liveMaxModelLen !== null ? "argv" : "boot log",
    requests,
    minTokens: kv?.minTokens ?? null,
  };
  if (plan.kvTokens === null) {
    return fail(CHECK, "no KV cache size in this boot's journal: capacity unproven", {
      data,
      fix: "see verify.plan: the boot's plan lines must reach the journal",
    });
  }
  const kvTokens = plan.kvTokens;
  const problems: string[] = [];
  const evidence: string[] = [];
  if (maxLen !== null) {
    const need = requests * maxLen;
    data.neededTokens = need;
    const line = `${fmt(kvTokens)} KV tokens ${kvTokens >= need ? ">=" : "<"} ${requests} request(s) x ${fmt(maxLen)} max-model-len = ${fmt(need)}`;
    evidence.push(line);
    if (kvTokens < need)
      problems.push(
        `${line} (short ${fmt(need - kvTokens)}; ${(kvTokens / maxLen).toFixed(2)} full-length requests fit)`,
      );
  } else evidence.push("max-model-len unknown: neither the live argv nor the boot log names it");
  if (kv?.minTokens !== undefined) {
    const line = `${fmt(kvTokens)} KV tokens ${kvTokens >= kv.minTokens ? ">=" : "<"} minTokens ${fmt(kv.minTokens)}`;
    evidence.push(line);
    if (kvTokens < kv.minTokens) problems.push(`${line} (short ${fmt(kv.minTokens - kvTokens)})`);
  }
  if (problems.length) {
    return fail(CHECK, `KV pool too small: ${problems[0]}`, {
      evidence,
      data,
      fix: MORE_KV[engine],
    });
  }
  return pass(CHECK, evidence.join("; "), { evidence, data });
}
