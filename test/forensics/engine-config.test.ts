// Boots refused at configuration time, read past pydantic's header to the line that names the cause, and
// the paste prefixes that hid a cause (found by the blind log corpus: test/fixtures/logs-corpus).
import { describe, expect, it } from "vitest";
import { diagnose } from "../../src/forensics/classify.js";
import { unpaste } from "../../src/forensics/paste.js";
import { bootPhase } from "../../src/engine/vllm/phase.js";

const P = "(APIServer pid=1) ";
const pydantic = (value: string) => [
  `${P}Traceback (most recent call last):`,
  `${P}  File "/usr/local/lib/python3.12/dist-packages/pydantic/_internal/_dataclasses.py", line 123, in __init__`,
  `${P}    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)`,
  `${P}pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig`,
  `${P}  Value error, ${value} [type=value_error, input_value=ArgsKwargs((), {'model': ...}), input_type=ArgsKwargs]`,
  `${P}    For further information visit https://errors.pydantic.dev/2.11/v/value_error`,
];

describe("pydantic's Value error line", () => {
  it("names the cause, not the ValidationError header, and the fix names the flag", () => {
    const d = diagnose({ lines: pydantic("User-specified max_model_len (262144) is greater than the derived max_model_len (max_position_embeddings=131072 or model_max_length=None in model's config.json).") });
    expect(d.class).toBe("engine-args");
    expect(d.decisive).toMatch(/^Value error, User-specified max_model_len \(262144\) is greater than the derived/);
    expect(d.fix).toBe("Correct --max-model-len in the serve script (the decisive line says what it must be).");
  });

  it("an architecture this vLLM does not know is no flag problem: engine-init-failed, a newer image", () => {
    const d = diagnose({ lines: pydantic("Model architectures ['LlavaQwenForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])") });
    expect(d.class).toBe("engine-init-failed");
    expect(d.summary).toBe("this vLLM does not know the model's architecture ('LlavaQwenForCausalLM')");
    expect(d.fix).toMatch(/^Use a vLLM image new enough for this model/);
  });
});

describe("a model that ships its own code", () => {
  it("vLLM's and transformers' wordings ask for --trust-remote-code: engine-args, the flag in the fix", () => {
    for (const line of [
      "ValueError: Failed to load the model config. If the model is a custom model not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
      "ValueError: The repository for /models/x contains custom code which must be executed to correctly load the model. You can inspect the repository content at https://hf.co//models/x. Please pass the argument `trust_remote_code=True` to allow custom code to be run.",
    ]) {
      const d = diagnose({ lines: ["Traceback (most recent call last):", '  File "/opt/venv/lib/python3.12/site-packages/vllm/config.py", line 558, in __post_init__', line] });
      expect(d.class, line).toBe("engine-args");
      expect(d.fix).toMatch(/^Add --trust-remote-code to the engine arguments/);
    }
  });

  it("a healthy boot that merely passes the flag is not a failure", () => {
    const d = diagnose({ lines: [`${P}INFO 09-12 10:01:02 [utils.py:233] non-default args: {'model_tag': '/m', 'trust_remote_code': True}`, `${P}INFO:     Application startup complete.`] });
    expect(d.class).toBe("ready");
  });
});

describe("paste prefixes and SGLang's capture phase", () => {
  it("docker compose's `SERVICE-1  | ` (v2) and `SERVICE_1  | ` (v1) come off", () => {
    expect(unpaste("llama-1  | gguf_init_from_file: failed to open GGUF file '/models/q.gguf'")?.text).toBe("gguf_init_from_file: failed to open GGUF file '/models/q.gguf'");
    expect(unpaste("vllm_1     | INFO:     Application startup complete.")?.text).toBe("INFO:     Application startup complete.");
    expect(unpaste("a | b")?.text).toBe("a | b");
  });

  it("SGLang's `Capture cuda graph begin` is the graph-capture phase", () => {
    expect(bootPhase("[2025-06-02 17:40:12 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=3.71 GB")).toBe("capturing-graphs");
  });
});
