// SGLang's and llama-server's plan lines read into the Plan verify.plan and verify.kv-capacity judge.
import { describe, expect, it } from "vitest";
import { readPlan } from "../../../src/domain/engine/plan.js";
import { checkKvCapacity } from "../../../src/stages/verify/kv-capacity.js";
import { checkPlan } from "../../../src/stages/verify/plan.js";
import { fixtureLines } from "../../fixtures/journal/classes/fixture.js";

describe("SGLang plan lines", () => {
  const lines = fixtureLines("../peers/sglang-ready.log");
  it("the KV pool, the context length, the weights and the CUDA graphs", () => {
    expect(readPlan(lines)).toMatchObject({
      kvTokens: 1_500_000,
      maxModelLen: 131_072,
      modelLoadGiB: 15.01,
      graphGiB: 1.2,
      graphSeconds: 27.12,
    });
  });

  it("verify.plan passes and verify.kv-capacity judges the pool against context_len", () => {
    expect(checkPlan(lines, "sgl").status).toBe("pass");
    const kv = checkKvCapacity(readPlan(lines), null, { requests: 12 }, "sglang");
    expect(kv.status).toBe("fail");
    expect(kv.fix).toMatch(/^give the pool more memory \(raise --mem-fraction-static/);
    expect(kv.summary).toContain("1,500,000 KV tokens < 12 request(s) x 131,072 max-model-len");
  });
});

describe("llama.cpp plan lines", () => {
  const lines = fixtureLines("../peers/llamacpp-ready.log");
  it("n_ctx is the KV cells, n_ctx_per_seq the context a request gets; the n_ctx_train warning is neither", () => {
    expect(readPlan(lines)).toMatchObject({ kvTokens: 65_536, maxModelLen: 16_384 });
    expect(
      readPlan([
        "llama_context: n_ctx_per_seq (16384) < n_ctx_train (40960) -- the full capacity of the model will not be utilized",
      ]),
    ).toMatchObject({ kvTokens: null, maxModelLen: null });
  });

  it("with the level and timestamp prefix, and the older context line", () => {
    expect(readPlan(["0.01.300.100 I llama_context: n_ctx         = 8192"]).kvTokens).toBe(8192);
    expect(readPlan(["llama_new_context_with_model: n_ctx      = 4096"]).kvTokens).toBe(4096);
  });

  it("verify.kv-capacity passes four slots of 16,384", () => {
    expect(checkKvCapacity(readPlan(lines), null, { requests: 4 }).status).toBe("pass");
    const five = checkKvCapacity(readPlan(lines), null, { requests: 5 }, "llama.cpp");
    expect(five.status).toBe("fail");
    expect(five.fix).toContain("--ctx-size");
  });
});

describe("no plan line from any engine", () => {
  it("verify.plan names each engine's line to grep for", () => {
    const f = checkPlan(["srv  update_slots: all slots are idle"], "llm");
    expect(f.status).toBe("fail");
    expect(f.fix).toContain('grep -aE "GPU KV cache size|KV Cache is allocated|n_ctx +="');
  });
});
