import { describe, expect, it } from "vitest";
import { findFlag, normalizeFlagName, parseFlagSpec } from "../../../src/domain/launch/contract.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const flags = parseServeScript(`MAXLEN=\${MAXLEN:-32768}
vllm serve /m --reasoning-parser qwen3 --enable-auto-tool-choice --tool-call-parser hermes \\
  --max_model_len "$MAXLEN" --default-chat-template-kwargs '{"enable_thinking": true, "preserve_thinking": true}' \\
  --tool-call-parser qwen3_xml`).engine!.flags;

describe("parseFlagSpec", () => {
  it.each([
    ["--enable-auto-tool-choice", { name: "--enable-auto-tool-choice", value: null }],
    ["--reasoning-parser qwen3", { name: "--reasoning-parser", value: "qwen3" }],
    ["--port=7770", { name: "--port", value: "7770" }],
    [
      `--default-chat-template-kwargs '{"enable_thinking": true}'`,
      { name: "--default-chat-template-kwargs", value: '{"enable_thinking": true}' },
    ],
    ["  --max-model-len   32768 ", { name: "--max-model-len", value: "32768" }],
  ])("%s", (spec, expected) => {
    expect(parseFlagSpec(spec)).toEqual(expected);
  });
});

describe("findFlag", () => {
  it("finds a present switch and a flag with the expected value, with its line", () => {
    expect(findFlag(flags, "--enable-auto-tool-choice")).toMatchObject({
      status: "present",
      expectedValue: null,
      flag: { line: 2 },
    });
    expect(findFlag(flags, "--reasoning-parser qwen3")).toMatchObject({ status: "present", expectedValue: "qwen3" });
  });

  it("reports a missing flag", () => {
    expect(findFlag(flags, "--enable-prefix-caching")).toEqual({ status: "missing", expectedValue: null });
  });

  it("uses the last occurrence, as argparse does", () => {
    expect(findFlag(flags, "--tool-call-parser qwen3_xml")).toMatchObject({ status: "present", flag: { line: 4 } });
    expect(findFlag(flags, "--tool-call-parser hermes")).toMatchObject({
      status: "value-differs",
      flag: { value: "qwen3_xml" },
    });
  });

  it("matches underscores as dashes and a value through the script's own default", () => {
    expect(findFlag(flags, "--max-model-len 32768")).toMatchObject({ status: "present", flag: { value: "$MAXLEN" } });
    expect(findFlag(flags, "--max-model-len 65536").status).toBe("value-differs");
  });

  it("compares JSON values by content, not spacing or key order", () => {
    expect(
      findFlag(flags, `--default-chat-template-kwargs {"preserve_thinking":true,"enable_thinking":true}`).status,
    ).toBe("present");
    expect(findFlag(flags, `--default-chat-template-kwargs {"enable_thinking": false}`).status).toBe("value-differs");
  });
});

describe("normalizeFlagName", () => {
  it("one flag however it is spelt: underscores, llama.cpp's short forms, the parallelism spellings", () => {
    expect(normalizeFlagName("--max_model_len")).toBe("--max-model-len");
    expect(normalizeFlagName("-c")).toBe(normalizeFlagName("--ctx-size"));
    expect(normalizeFlagName("-ngl")).toBe(normalizeFlagName("--gpu-layers"));
    // common/arg.cpp: {"-n", "--predict", "--n-predict"}
    expect(normalizeFlagName("-n")).toBe(normalizeFlagName("--n-predict"));
    expect(normalizeFlagName("--predict")).toBe("--n-predict");
    expect(normalizeFlagName("-tp")).toBe(normalizeFlagName("--tensor_parallel_size"));
    expect(normalizeFlagName("--tp-size")).toBe(normalizeFlagName("--tp"));
    expect(normalizeFlagName("--reasoning-parser")).toBe("--reasoning-parser");
  });

  it("a contract spelt --ctx-size is met by -c in the script", () => {
    const f = parseServeScript("llama-server -m /m.gguf -c 16384 --jinja\n").engine!.flags;
    expect(findFlag(f, "--ctx-size 16384")).toMatchObject({ status: "present", expectedValue: "16384" });
  });
});
