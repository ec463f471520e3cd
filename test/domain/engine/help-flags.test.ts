// The flags an engine's own --help lists (vLLM's argparse groups, llama-server's table), and the verdict
// on a launch file's flags against them, with the version that dropped or renamed a flag where known.
import { describe, expect, it } from "vitest";
import { flagsInHelp, judgeFlags } from "../../../src/domain/engine/help-flags.js";

// vLLM's `vllm serve --help=all` shape (argparse: option spellings, metavar, then the description)
const VLLM_HELP = `usage: vllm serve [model_tag] [options]

positional arguments:
  model_tag             The model tag to serve (optional if specified in config)

options:
  -h, --help            show this help message and exit
  --headless            Run in headless mode.

Frontend:
  --host HOST           Host name.
  --port PORT           Port number.
  --enable-auto-tool-choice, --no-enable-auto-tool-choice
                        Enable auto tool choice for supported models. Use --tool-call-parser to specify which parser to use.
  --tool-call-parser {hermes,qwen3_xml,mistral}
                        Select the tool call parser.
  --reasoning-parser {deepseek_r1,qwen3}
                        Select the reasoning parser.

ModelConfig:
  --max-model-len MAX_MODEL_LEN, --max_model_len MAX_MODEL_LEN
                        Model context length.
  --runner {auto,draft,generate,pooling}
                        The type of model runner to use.
  --structured-outputs-config STRUCTURED_OUTPUTS_CONFIG
                        Configuration for structured outputs. Was --guided-decoding-backend before.
  -tp TENSOR_PARALLEL_SIZE, --tensor-parallel-size TENSOR_PARALLEL_SIZE
                        Number of tensor parallel groups.
`;
// llama-server's --help table: short and long spellings separated by a comma and spaces
const LLAMA_HELP = `----- common params -----

-h,    --help, --usage                  print usage and exit
-c,    --ctx-size N                     size of the prompt context (default: 4096, 0 = loaded from model)
-ngl,  --gpu-layers, --n-gpu-layers N   max. number of layers to store in VRAM
--jinja, --no-jinja                     whether to use jinja template engine for chat (default: enabled)
--metrics                               enable prometheus compatible metrics endpoint (default: disabled)
`;

describe("flags in an engine's help", () => {
  it("reads vLLM's option spellings, not the flags its descriptions mention", () => {
    const f = flagsInHelp(VLLM_HELP);
    for (const x of [
      "--host",
      "--enable-auto-tool-choice",
      "--no-enable-auto-tool-choice",
      "--max-model-len",
      "-tp",
      "--tensor-parallel-size",
      "--runner",
    ])
      expect(f.has(x), x).toBe(true);
    expect(f.has("--guided-decoding-backend")).toBe(false);
    expect(f.has("--tool-call-parser")).toBe(true);
  });
  it("reads llama-server's comma-separated spellings", () => {
    const f = flagsInHelp(LLAMA_HELP);
    for (const x of [
      "-c",
      "--ctx-size",
      "-ngl",
      "--gpu-layers",
      "--n-gpu-layers",
      "--jinja",
      "--no-jinja",
      "--metrics",
    ])
      expect(f.has(x), x).toBe(true);
  });
});

describe("judging a launch file's flags", () => {
  const help = flagsInHelp(VLLM_HELP);
  it("accepts underscores for dashes and a dotted sub-key of a config flag", () => {
    expect(judgeFlags("vllm", ["--max_model_len", "--structured-outputs-config.backend", "--port"], help)).toEqual([]);
  });
  it("names the vLLM change that dropped or renamed a flag", () => {
    const out = judgeFlags("vllm", ["--enable-reasoning", "--guided-decoding-backend", "--task", "--made-up"], help);
    expect(out.map((u) => u.flag)).toEqual(["--enable-reasoning", "--guided-decoding-backend", "--task", "--made-up"]);
    expect(out[0]!.known).toMatch(/0\.9\.0.*PR #17452.*--reasoning-parser alone/);
    expect(out[1]!.known).toMatch(/--structured-outputs-config.*PR #22772/);
    expect(out[2]!.known).toMatch(/--runner.*--convert.*PR #21470/);
    expect(out[3]!.known).toBeNull();
  });
});
