import { describe, expect, it } from "vitest";
import { bootPhase, isReadyMarker } from "../../../../src/domain/engine/vllm/phase.js";

describe("bootPhase", () => {
  it.each([
    [
      "(EngineCore pid=75) INFO 09-20 08:00:12 [gpu_model_runner.py:3420] Starting to load model /models/q...",
      "loading-weights",
    ],
    ["Loading safetensors checkpoint shards:  50% Completed | 2/4", "loading-weights"],
    ["INFO 01-30 03:19:20 worker.py:241] Memory profiling takes 5.12 seconds", "profiling-kv"],
    ["GPU KV cache size: 23,296 tokens, Maximum concurrency for 4,096 tokens per request: 5.69x", "profiling-kv"],
    ["Compiling a graph for compile range (1, 8192) takes 37.99 s", "compiling"],
    ["torch.compile took 52.34 s in total", "compiling"],
    ["Capturing CUDA graphs (decode, FULL): 40%", "capturing-graphs"],
    ["Graph capturing finished in 7 secs, took 1.29 GiB", "capturing-graphs"],
    [
      "(APIServer pid=1) INFO 09-20 08:05:25 [api_server.py:2010] Starting vLLM server on http://0.0.0.0:7770",
      "starting-api",
    ],
    ["Starting vLLM API server 0 on http://0.0.0.0:8000", "starting-api"],
    ["(APIServer pid=1) INFO:     Application startup complete.", "ready"],
  ])("%s -> %s", (line, phase) => {
    expect(bootPhase(line)).toBe(phase);
  });

  it("returns null for stats and access lines", () => {
    expect(bootPhase('INFO:     127.0.0.1:55358 - "GET /health HTTP/1.1" 200 OK')).toBeNull();
  });
});

describe("isReadyMarker", () => {
  it("matches uvicorn's line with or without prefixes", () => {
    expect(isReadyMarker("(APIServer pid=1) INFO:     Application startup complete.")).toBe(true);
    expect(isReadyMarker("Application startup failed. Exiting.")).toBe(false);
  });
});
