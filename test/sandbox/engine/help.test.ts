// The double's --help for each engine, read the way verify.image-flags reads a real image's: every flag the
// tests' scripts pass is there, and the flags vLLM dropped are not.
import { describe, expect, it } from "vitest";
import { flagsInHelp, judgeFlags } from "../../../src/domain/engine/help-flags.js";
import { GOOD_ARGS } from "../../e2e/support/verify-helpers.js";
import { llamaHelp, sglangHelp, vllmHelp } from "./help.js";

describe("the double's help", () => {
  it("vLLM: lists what the scripts pass (either spelling), not --enable-reasoning, --task or --guided-decoding-backend", () => {
    const known = flagsInHelp(vllmHelp());
    const used = [
      ...GOOD_ARGS.filter((a) => a.startsWith("--")),
      "--max_model_len",
      "-tp",
      "--no-enable-prefix-caching",
    ];
    expect(judgeFlags("vllm", used, known)).toEqual([]);
    expect(
      judgeFlags("vllm", ["--enable-reasoning", "--task", "--guided-decoding-backend"], known).map((u) => u.flag),
    ).toEqual(["--enable-reasoning", "--task", "--guided-decoding-backend"]);
  });
  it("SGLang and llama-server: their own flags", () => {
    expect(
      judgeFlags("sglang", ["--model-path", "--mem-fraction-static", "--enable-metrics"], flagsInHelp(sglangHelp())),
    ).toEqual([]);
    expect(judgeFlags("llama.cpp", ["-m", "--ctx-size", "--jinja", "-ngl"], flagsInHelp(llamaHelp()))).toEqual([]);
  });
});
