import { describe, expect, it } from "vitest";
import { PlanReader, readPlan } from "../../../../src/domain/engine/plan.js";
import { fixtureLines } from "../../../fixtures/journal/classes/fixture.js";

describe("readPlan", () => {
  it("reads the newest era: merged KV line, GiB memory, estimated graphs, torch.compile took", () => {
    expect(readPlan(fixtureLines("v1-2026-merged-kv-ready.log"))).toEqual({
      kvTokens: 398658,
      maxModelLen: 65536,
      maxConcurrency: 6.08,
      gpuBlocks: null,
      availableKvGiB: 2.0,
      modelLoadGiB: 1.19,
      modelLoadSeconds: 1.919768,
      graphGiB: 1.61,
      graphSeconds: 12,
      estimatedGraphGiB: 1.58,
      compileSeconds: 5.34,
    });
  });

  it("reads the 2025 era: two KV lines, `GiB and … seconds`, torch.compile takes", () => {
    const p = readPlan(fixtureLines("v1-2025-ready-two-line-kv.log"));
    expect(p).toMatchObject({
      kvTokens: 42656,
      maxModelLen: 32768,
      maxConcurrency: 1.3,
      availableKvGiB: 10.1,
      modelLoadGiB: 56.9121,
      modelLoadSeconds: 54.220814,
      graphGiB: 1.29,
      graphSeconds: 7,
      compileSeconds: 85.33,
      estimatedGraphGiB: null,
    });
  });

  it("reads V0: GPU/CPU blocks, `Loading model weights took … GB`, un-separated lengths", () => {
    const p = readPlan(fixtureLines("v0-2024-kv-insufficient.log"));
    expect(p).toMatchObject({
      gpuBlocks: 1426,
      maxModelLen: 131072,
      maxConcurrency: 0.17,
      modelLoadGiB: 14.9595,
      modelLoadSeconds: null,
      // the KV-shortfall error's own figure: the tokens the cache holds (1426 blocks of 16)
      kvTokens: 22816,
    });
  });

  it("reads early V1 `# GPU blocks` without a CPU count", () => {
    expect(readPlan(["INFO 02-01 10:00:00 [kv_cache_utils.py:520] # GPU blocks: 27,463"]).gpuBlocks).toBe(27463);
  });

  it("keeps the newest boot's values when a unit boots twice", () => {
    const p = readPlan(["GPU KV cache size: 100 tokens", "GPU KV cache size: 200 tokens"]);
    expect(p.kvTokens).toBe(200);
  });

  it("takes max-model-len from the auto-fit line when no concurrency line says it", () => {
    expect(
      readPlan([
        "Auto-fit max_model_len: reduced from 262144 to 98304 to fit in available GPU memory (4.1 GiB available for KV cache)",
      ]).maxModelLen,
    ).toBe(98304);
  });
});

describe("PlanReader compile cache", () => {
  it("calls a boot that compiled graphs cold, with the slowest graph", () => {
    const r = new PlanReader();
    for (const l of fixtureLines("dynamo-shape.log")) r.push(l);
    expect(r.compileCache()).toEqual({
      state: "cold",
      graphsCompiled: 1,
      graphsLoaded: 0,
      slowestGraphSeconds: 173.02,
    });
  });

  it("calls a boot that loaded graphs from the cache a hit", () => {
    const r = new PlanReader();
    for (const l of fixtureLines("v1-2026-merged-kv-ready.log")) r.push(l);
    expect(r.compileCache()).toMatchObject({ state: "hit", graphsLoaded: 1, graphsCompiled: 0 });
  });

  it("reads every compile-range spelling", () => {
    const r = new PlanReader();
    for (const l of [
      "Compiling a graph for shape 8 takes 2.50 s",
      "Compiling a graph for general shape takes 16.41 s",
      "Directly load the compiled graph(s) for shape 4 from the cache, took 0.101 s",
    ])
      r.push(l);
    expect(r.compileCache()).toMatchObject({ graphsCompiled: 2, graphsLoaded: 1, slowestGraphSeconds: 16.41 });
  });
});
