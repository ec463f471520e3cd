// The double's argv -> plan, as vLLM would size the KV cache and choose a failure.
import { describe, expect, it } from "vitest";
import { ArgvError, makePlan, parseFlags } from "./plan.js";

const GiB = 1024 ** 3;

describe("engine double plan", () => {
  it("parses vLLM flags in both spellings and boolean flags", () => {
    const { positional, flags } = parseFlags([
      "/models/q",
      "--port=7770",
      "--enable-auto-tool-choice",
      "--tool-call-parser",
      "qwen3_xml",
      "--enforce-eager",
    ]);
    expect(positional).toEqual(["/models/q"]);
    expect(Object.fromEntries(flags)).toEqual({
      port: "7770",
      "enable-auto-tool-choice": true,
      "tool-call-parser": "qwen3_xml",
      "enforce-eager": true,
    });
  });

  it("sizes the KV pool from --kv-cache-memory-bytes in 16-token blocks", () => {
    const p = makePlan(["/m", "--kv-cache-memory-bytes", String(2 * GiB), "--max-model-len", "4096"], {
      FAKE_KV_BYTES_PER_TOKEN: "65536",
    });
    expect(p.kvTokens).toBe(32768);
    expect(p.maxConcurrency).toBe(8);
    expect(p.availKvGiB).toBe(2);
    expect(p.outcome.kind).toBe("ready");
  });

  it("gives more KV with a higher --gpu-memory-utilization and less with more VRAM taken by weights", () => {
    const at = (util: string, env: Record<string, string> = {}) =>
      makePlan(["/m", "--gpu-memory-utilization", util, "--max-model-len", "1024"], env).kvTokens;
    expect(at("0.95")).toBeGreaterThan(at("0.85"));
    expect(at("0.9", { FAKE_MODEL_GIB: "20" })).toBeLessThan(at("0.9"));
    expect(at("0.9", { FAKE_VRAM_GIB: "48" })).toBeGreaterThan(at("0.9"));
  });

  it("fails like vLLM when one request of --max-model-len does not fit", () => {
    const p = makePlan(["/m", "--kv-cache-memory-bytes", String(GiB), "--max-model-len", "131072"], {
      FAKE_KV_BYTES_PER_TOKEN: "65536",
    });
    expect(p.outcome).toEqual({ kind: "kv-insufficient", neededGiB: 8, availGiB: 1, estimatedMaxLen: 16384 });
    expect(makePlan(["/m", "--gpu-memory-utilization", "0.3"], {}).outcome.kind).toBe("no-kv-memory");
  });

  it("chooses failures from env the way they arise, and the crash timer", () => {
    expect(makePlan(["/m"], { FAKE_FAIL: "oom", FAKE_FAIL_STEP: "graph" }).outcome).toMatchObject({
      kind: "oom",
      step: "graph",
    });
    expect(makePlan(["/m", "--max-num-seqs", "8"], { FAKE_FAIL: "dynamo" }).outcome).toEqual({
      kind: "dynamo",
      constant: 9,
    });
    expect(makePlan(["/m"], { FAKE_CRASH_AFTER: "4" }).crashAfterSeconds).toBe(4);
    expect(makePlan(["/m"], { FAKE_FAIL: "crash" }).crashAfterSeconds).toBe(1);
    expect(makePlan(["/m"], {}).crashAfterSeconds).toBeNull();
  });

  it("redacts the API key in non-default args like newest vLLM, and keeps it for auth", () => {
    const p = makePlan(["/m", "--api-key", "sk-secret", "--port", "7770"], {});
    expect(p.nonDefault).toEqual({ model_tag: "/m", api_key: "***", port: 7770 });
    expect(p.apiKey).toBe("sk-secret");
    expect(makePlan(["/m"], { VLLM_API_KEY: "k" }).apiKey).toBe("k");
  });

  it("needs the model path first and rejects bad numbers like argparse", () => {
    expect(() => makePlan(["--port", "1"], {})).toThrow(ArgvError);
    expect(() => makePlan(["/m", "--max-model-len", "lots"], {})).toThrow(/--max-model-len: invalid value/);
    expect(() => makePlan(["/m", "--speculative-config", "{bad"], {})).toThrow(/invalid JSON/);
  });
});
