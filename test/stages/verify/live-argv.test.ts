import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import {
  contractFlags,
  describeDrift,
  driftOf,
  engineArgs,
  flagValue,
  liveFlags,
} from "../../../src/stages/verify/live-argv.js";
import { looksSecret } from "../../../src/domain/redact/names.js";

describe("live argv", () => {
  it("finds the engine's own arguments behind every launcher shape", () => {
    expect(engineArgs(["/usr/bin/python3", "/usr/local/bin/vllm", "serve", "/models", "--port", "7770"])).toEqual([
      "/models",
      "--port",
      "7770",
    ]);
    expect(engineArgs(["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "/m"])).toEqual([
      "--model",
      "/m",
    ]);
    expect(engineArgs(["/bin/node", "/app/engine.mjs", "/models/qwen", "--port", "7771"])).toEqual(["--port", "7771"]);
    expect(engineArgs(["/bin/sleep", "100"])).toEqual([]);
    expect(engineArgs(["python3", "-m", "sglang.launch_server", "--model-path", "/m", "--port", "30000"])).toEqual([
      "--model-path",
      "/m",
      "--port",
      "30000",
    ]);
    expect(engineArgs(["/app/llama-server", "-m", "/m.gguf", "-c", "4096", "--port", "8080"])).toEqual([
      "-m",
      "/m.gguf",
      "-c",
      "4096",
      "--port",
      "8080",
    ]);
  });

  it("reads flags the way vLLM does: last occurrence wins, underscores equal dashes", () => {
    const live = liveFlags([
      "vllm",
      "serve",
      "/m",
      "--max_model_len",
      "4096",
      "--max-model-len=8192",
      "--enable-auto-tool-choice",
      "--tool-call-parser",
      "qwen3_xml",
    ]);
    expect(flagValue(live, "--max-model-len")).toBe("8192");
    expect(
      contractFlags(live, [
        "--enable-auto-tool-choice",
        "--tool-call-parser qwen3_xml",
        "--reasoning-parser qwen3",
        "--max-model-len 4096",
      ]).map((c) => c.status),
    ).toEqual(["present", "present", "missing", "value-differs"]);
  });

  it("masks secret values in contract results", () => {
    const live = liveFlags(["vllm", "serve", "/m", "--api-key", "sk-live"]);
    expect(contractFlags(live, ["--api-key sk-other"])[0]).toEqual({
      spec: "--api-key sk-other",
      status: "value-differs",
      live: "***",
      expected: "***",
    });
  });
});

describe("drift between the script and the live argv", () => {
  const script = parseServeScript(
    [
      "#!/bin/bash",
      'MAXLEN="${MAXLEN:-8192}"',
      "podman run -d --name c img /models \\",
      '  --max-model-len "$MAXLEN" \\',
      '  --speculative-config \'{"method": "mtp", "num_speculative_tokens": 2}\' \\',
      "  --tool-call-parser qwen3_xml \\",
      '  --api-key "$KEY" \\',
      '  ${PROFDIR:+--profiler-config "$PROFDIR"} \\',
      "  --enable-prefix-caching",
      "",
    ].join("\n"),
  );

  it("is empty when the host runs the script (defaults resolved, JSON compared as JSON, optional flags left off)", () => {
    const live = liveFlags([
      "vllm",
      "serve",
      "/models",
      "--max-model-len",
      "8192",
      "--speculative-config",
      '{"num_speculative_tokens":2,"method":"mtp"}',
      "--tool-call-parser",
      "qwen3_xml",
      "--api-key",
      "sk-1",
      "--enable-prefix-caching",
    ]);
    const d = driftOf(script.engine!.flags, live);
    expect(d.filter((x) => x.kind !== "unresolved")).toEqual([]);
    // a value only known at run time is listed, not called drift, and never shown in the clear
    expect(d).toEqual([{ flag: "--api-key", kind: "unresolved", repo: "***", host: "***", line: 7 }]);
  });

  it("lists every difference with the script line", () => {
    const live = liveFlags([
      "vllm",
      "serve",
      "/models",
      "--max-model-len",
      "16384",
      "--speculative-config",
      '{"method":"mtp","num_speculative_tokens":2}',
      "--enable-prefix-caching",
      "--api-key",
      "x",
      "--gpu-memory-utilization",
      "0.98",
    ]);
    const d = driftOf(script.engine!.flags, live);
    expect(d.filter((x) => x.kind !== "unresolved").map((x) => describeDrift(x, "s.sh"))).toEqual([
      "--max-model-len: repo (s.sh:4) 8192, host 16384",
      "--tool-call-parser: in the repo (s.sh:6) as qwen3_xml, absent from the live argv",
      "--gpu-memory-utilization: live argv has 0.98, the repo's script does not pass it",
    ]);
  });

  it("names secrets by whole words", () => {
    expect(["HF_TOKEN", "--api-key", "DB_PASSWORD", "aws_secret_access_key"].map(looksSecret)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(
      ["--max-num-batched-tokens", "KV_BYTES", "VLLM_LOGGING_LEVEL", "R4D_LRU_UVA_TOKENS"].map(looksSecret),
    ).toEqual([false, false, false, false]);
  });
});
