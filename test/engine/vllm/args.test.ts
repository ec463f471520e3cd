import { describe, expect, it } from "vitest";
import { readNonDefaultArgs } from "../../../src/engine/vllm/args.js";
import { fixtureLines } from "../../fixtures/logs/fixture.js";

describe("readNonDefaultArgs", () => {
  it("parses the Python dict repr and redacts api_key and hf_token", () => {
    const line = fixtureLines("v1-2025-ready-two-line-kv.log").find((l) => l.includes("non-default args"))!;
    const args = readNonDefaultArgs(line)!;
    expect(args).toMatchObject({
      model_tag: "/models/qwen3-30b", port: 7770, enable_auto_tool_choice: true, tool_call_parser: "qwen3_xml",
      max_model_len: 32768, gpu_memory_utilization: 0.95, api_key: "***",
      speculative_config: { method: "qwen3_next_mtp", num_speculative_tokens: 3 },
      compilation_config: { level: 3, cudagraph_capture_sizes: [1, 2, 4] },
    });
    expect(args.hf_token).toBeNull();
    expect(JSON.stringify(args)).not.toContain("sk-verysecret");
  });

  it("keeps enum reprs as text and lists as arrays", () => {
    const line = fixtureLines("v1-2026-merged-kv-ready.log").find((l) => l.includes("non-default args"))!;
    expect(readNonDefaultArgs(line)).toMatchObject({ runner: "<RunnerOption.AUTO: 'auto'>", served_model_name: ["qwen"], kv_cache_memory_bytes: 2147483648 });
  });

  it("redacts a secret nested in a list value", () => {
    expect(readNonDefaultArgs(String.raw`non-default args: {'api_key': ['sk-a', 'sk-b'], 'x': (1, 'a, \'b\'')}`)).toMatchObject({ api_key: "***", x: [1, "a, 'b'"] });
  });

  it("returns null for other lines", () => {
    expect(readNonDefaultArgs("INFO 01-01 00:00:00 [x.py:1] hello")).toBeNull();
  });
});
