// maskArgv: every argv that leaves the host, masked as a list before a finding holds it.
import { describe, expect, it } from "vitest";
import { maskArgv } from "../../../src/domain/redact/mask.js";

describe("maskArgv", () => {
  it("masks the word after a secret flag, a secret assignment's value and a token anywhere", () => {
    const argv = [
      "vllm",
      "serve",
      "/m",
      "--api-key",
      "k3y-value",
      "--hf-token=hf_abcdefghijklmnopqrstuvwxyz",
      "--port",
      "8000",
    ];
    expect(maskArgv(argv)).toEqual(["vllm", "serve", "/m", "--api-key", "***", "--hf-token=***", "--port", "8000"]);
    expect(maskArgv(["x", "--note", "sk-abcdefghijklmnopqrstuvwx"]).join(" ")).not.toContain("abcdefghij");
  });

  it("leaves an argv without secrets as it is, word for word", () => {
    const argv = [
      "python3",
      "-m",
      "vllm.entrypoints.openai.api_server",
      "--max-model-len",
      "8192",
      "--served-model-name",
      "qwen",
    ];
    expect(maskArgv(argv)).toEqual(argv);
  });
});
