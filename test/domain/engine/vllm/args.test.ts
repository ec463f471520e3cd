import { describe, expect, it } from "vitest";
import { readNonDefaultArgs } from "../../../../src/domain/engine/vllm/args.js";
import { fixtureLines } from "../../../fixtures/journal/classes/fixture.js";

describe("readNonDefaultArgs", () => {
  it("parses the Python dict repr and redacts api_key and hf_token", () => {
    const line = fixtureLines("v1-2025-ready-two-line-kv.log").find((l) => l.includes("non-default args"))!;
    const args = readNonDefaultArgs(line)!;
    expect(args).toMatchObject({
      model_tag: "/models/qwen3-30b",
      port: 7770,
      enable_auto_tool_choice: true,
      tool_call_parser: "qwen3_xml",
      max_model_len: 32768,
      gpu_memory_utilization: 0.95,
      api_key: "***",
      speculative_config: { method: "qwen3_next_mtp", num_speculative_tokens: 3 },
      compilation_config: { level: 3, cudagraph_capture_sizes: [1, 2, 4] },
    });
    expect(args.hf_token).toBeNull();
    expect(JSON.stringify(args)).not.toContain("sk-verysecret");
  });

  it("keeps enum reprs as text and lists as arrays", () => {
    const line = fixtureLines("v1-2026-merged-kv-ready.log").find((l) => l.includes("non-default args"))!;
    expect(readNonDefaultArgs(line)).toMatchObject({
      runner: "<RunnerOption.AUTO: 'auto'>",
      served_model_name: ["qwen"],
      kv_cache_memory_bytes: 2147483648,
    });
  });

  it("redacts a secret nested in a list value", () => {
    expect(
      readNonDefaultArgs(String.raw`non-default args: {'api_key': ['sk-a', 'sk-b'], 'x': (1, 'a, \'b\'')}`),
    ).toMatchObject({ api_key: "***", x: [1, "a, 'b'"] });
  });

  it("ends on a garbled line (mismatched or stray closers) without taking a secret into a list", () => {
    // each of these made the reader spin until V8 ran out of memory
    expect(readNonDefaultArgs("non-default args: {)}")).toEqual({});
    expect(readNonDefaultArgs("non-default args: {'a': [1, 2}, 'port': 8000, 'api_key': 'sk-x'}")).toEqual({
      a: [1, 2],
    });
    expect(readNonDefaultArgs("non-default args: {'a': (1, 2], 'api_key': 'sk-x'}")).toEqual({ a: [1, 2] });
    expect(readNonDefaultArgs("non-default args: {'a': >, 'b': 2, , 'c': 3}")).toEqual({ a: "", b: 2, c: 3 });
  });

  it("ends on 20,000 garblings of a real line, an intact api_key always redacted", () => {
    const line = fixtureLines("v1-2025-ready-two-line-kv.log").find((l) => l.includes("non-default args"))!;
    const pieces = ["{", "}", "[", "]", "(", ")", "<", ">", "'", '"', "\\", ",", ":", " ", "True", "X("];
    let x = 2026;
    const r = () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    let parsed = 0;
    for (let i = 0; i < 20_000; i++) {
      let s = line;
      for (let j = 1 + Math.floor(r() * 4); j > 0; j--) {
        const at = Math.floor(r() * s.length);
        const p = pieces[Math.floor(r() * pieces.length)]!;
        s = r() < 0.5 ? s.slice(0, at) + p + s.slice(at) : s.slice(0, at) + p + s.slice(at + 1);
      }
      const args = readNonDefaultArgs(s);
      if (args !== null) parsed++;
      // a garbled key may leave a secret unnamed; an intact one is always redacted
      if (args && "api_key" in args) expect(args.api_key).toBe("***");
    }
    expect(parsed).toBeGreaterThan(15_000);
  });

  it("returns null for other lines", () => {
    expect(readNonDefaultArgs("INFO 01-01 00:00:00 [x.py:1] hello")).toBeNull();
  });
});
