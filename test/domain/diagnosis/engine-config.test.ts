// Boots refused at configuration time, read past pydantic's header to the line that names the cause, and
// the paste prefixes that hid a cause (found by the blind log corpus: test/fixtures/corpora/logs-1).
import { describe, expect, it } from "vitest";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { unpaste } from "../../../src/domain/journal/paste.js";
import { bootPhase } from "../../../src/domain/engine/vllm/phase.js";

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
    const d = diagnose({
      lines: pydantic(
        "User-specified max_model_len (262144) is greater than the derived max_model_len (max_position_embeddings=131072 or model_max_length=None in model's config.json).",
      ),
    });
    expect(d.class).toBe("engine-args");
    expect(d.decisive).toMatch(/^Value error, User-specified max_model_len \(262144\) is greater than the derived/);
    expect(d.fix).toBe("Correct --max-model-len in the serve script (the decisive line says what it must be).");
  });

  it("an architecture this vLLM does not know is no flag problem: engine-init-failed, a newer image", () => {
    const d = diagnose({
      lines: pydantic(
        "Model architectures ['LlavaQwenForCausalLM'] are not supported for now. Supported architectures: dict_keys(['LlamaForCausalLM'])",
      ),
    });
    expect(d.class).toBe("engine-init-failed");
    expect(d.summary).toBe("this vLLM does not know the model's architecture ('LlavaQwenForCausalLM')");
    expect(d.fix).toMatch(/^Use a vLLM new enough for this model \(image or venv/);
  });
});

describe("a model that ships its own code", () => {
  it("vLLM's and transformers' wordings ask for --trust-remote-code: engine-args, the flag in the fix", () => {
    for (const line of [
      "ValueError: Failed to load the model config. If the model is a custom model not yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the `--trust-remote-code` flag in the CLI.",
      "ValueError: The repository for /models/x contains custom code which must be executed to correctly load the model. You can inspect the repository content at https://hf.co//models/x. Please pass the argument `trust_remote_code=True` to allow custom code to be run.",
    ]) {
      const d = diagnose({
        lines: [
          "Traceback (most recent call last):",
          '  File "/opt/venv/lib/python3.12/site-packages/vllm/config.py", line 558, in __post_init__',
          line,
        ],
      });
      expect(d.class, line).toBe("engine-args");
      expect(d.fix).toMatch(/^Add --trust-remote-code to the engine arguments/);
    }
  });

  it("a healthy boot that merely passes the flag is not a failure", () => {
    const d = diagnose({
      lines: [
        `${P}INFO 09-12 10:01:02 [utils.py:233] non-default args: {'model_tag': '/m', 'trust_remote_code': True}`,
        `${P}INFO:     Application startup complete.`,
      ],
    });
    expect(d.class).toBe("ready");
  });
});

describe("paste prefixes and SGLang's capture phase", () => {
  it("docker compose's `SERVICE-1  | ` (v2) and `SERVICE_1  | ` (v1) come off", () => {
    expect(unpaste("llama-1  | gguf_init_from_file: failed to open GGUF file '/models/q.gguf'")?.text).toBe(
      "gguf_init_from_file: failed to open GGUF file '/models/q.gguf'",
    );
    expect(unpaste("vllm_1     | INFO:     Application startup complete.")?.text).toBe(
      "INFO:     Application startup complete.",
    );
    expect(unpaste("a | b")?.text).toBe("a | b");
  });

  it("a compose `container_name:` without a replica number comes off too; a loguru level column does not", () => {
    expect(unpaste("ollama  | llama_model_load: error loading model: unknown model architecture: 'x'")?.text).toBe(
      "llama_model_load: error loading model: unknown model architecture: 'x'",
    );
    expect(unpaste("ERROR    | server:main:42 - boom")?.text).toBe("ERROR    | server:main:42 - boom");
  });

  it("SGLang's `Capture cuda graph begin` is the graph-capture phase", () => {
    expect(
      bootPhase(
        "[2025-06-02 17:40:12 TP0] Capture cuda graph begin. This can take up to several minutes. avail mem=3.71 GB",
      ),
    ).toBe("capturing-graphs");
  });
});

describe("found by the second blind set (test/fixtures/corpora/logs-2)", () => {
  it("the kernel's OOM killer, even when only systemd's line about it is in the unit's journal: oom of host RAM", () => {
    const d = diagnose({
      lines: [
        `${P}INFO 10-14 03:12:40 [gpu_model_runner.py:2602] Starting to load model /m...`,
        "vllm.service: A process of this unit has been killed by the OOM killer.",
        `${P}RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}`,
      ],
    });
    expect(d).toMatchObject({
      class: "oom",
      decisive: "vllm.service: A process of this unit has been killed by the OOM killer.",
    });
    expect(d.summary).toMatch(/host RAM/);
    expect(d.fix).toMatch(/MemoryMax=/);
  });

  it("a traceback that ends in a bare `Exception:` is a failure, not a boot in progress", () => {
    const d = diagnose({
      lines: [
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.10/dist-packages/transformers/tokenization_utils_fast.py", line 111, in __init__',
        "Exception: data did not match any variant of untagged enum ModelWrapper at line 1251003 column 3",
      ],
    });
    expect(d).toMatchObject({
      class: "engine-init-failed",
      decisive: "Exception: data did not match any variant of untagged enum ModelWrapper at line 1251003 column 3",
    });
  });

  it("V0's `Engine process failed to start` is a wrapper: the bf16 ValueError above it decides, and names --dtype", () => {
    const d = diagnose({
      lines: [
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag in CLI, for example: --dtype=half.",
        "RuntimeError: Engine process failed to start. See stack trace for the root cause.",
      ],
    });
    expect(d.class).toBe("engine-args");
    expect(d.decisive).toMatch(/^ValueError: Bfloat16 is only supported/);
    expect(d.fix).toMatch(/^Correct --dtype/);
  });

  it("the hub offline and the model not cached: the LocalEntryNotFoundError, not vLLM's `Invalid repository ID` after it", () => {
    const d = diagnose({
      lines: [
        `${P}huggingface_hub.errors.LocalEntryNotFoundError: Cannot find an appropriate cached snapshot folder for the specified revision on the local disk and outgoing traffic has been disabled.`,
        `${P}ValueError: Invalid repository ID or local directory specified: 'meta-llama/Llama-3.2-3B-Instruct'.`,
      ],
    });
    expect(d.decisive).toMatch(/^huggingface_hub\.errors\.LocalEntryNotFoundError/);
    expect(d.fix).toMatch(/^Put the model in the cache the engine reads/);
  });

  it("llama.cpp's older buffer failures (host RAM for the KV cache) are oom past `failed to create context`", () => {
    const d = diagnose({
      lines: [
        "llama_model_loader: loaded meta data with 39 key-value pairs",
        "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 412316860448",
        "llama_kv_cache_init: failed to allocate buffer for kv cache",
        "llama_init_from_gpt_params: error: failed to create context with model '/srv/m.gguf'",
      ],
    });
    expect(d).toMatchObject({
      class: "oom",
      decisive: "ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 412316860448",
    });
  });

  it("a value a flag sets and the model cannot take is engine-args naming the flag: LoRA rank, SGLang's context length", () => {
    const lora = diagnose({ lines: ["ValueError: LoRA rank 64 is greater than max_lora_rank 16."] });
    expect(lora).toMatchObject({
      class: "engine-args",
      fix: "Correct --max-lora-rank in the serve script (the decisive line says what it must be).",
    });
    const sgl = diagnose({
      lines: [
        "[2025-05-14 09:12:20 TP0] Init torch distributed begin.",
        "ValueError: User-specified context_length (131072) is greater than the derived context_length (40960). This may lead to incorrect model outputs or CUDA errors.",
      ],
    });
    expect(sgl).toMatchObject({
      class: "engine-args",
      fix: "Correct --context-length in the serve script (the decisive line says what it must be).",
    });
  });
});

describe("found by the third blind set (test/fixtures/corpora/logs-3): failures after readiness and below the engine", () => {
  it("llama-server's CUDA abort after hours of serving is a failure, never 'ready'", () => {
    const d = diagnose({
      lines: [
        "main: server is listening on http://0.0.0.0:8080 - starting the main loop",
        "srv  update_slots: all slots are idle",
        "CUDA error: an illegal memory access was encountered",
        '/app/ggml/src/ggml-cuda/ggml-cuda.cu:88: GGML_ASSERT(false && "CUDA error") failed',
      ],
    });
    expect(d.class).toBe("engine-init-failed");
    expect(d.decisive).toBe("CUDA error: an illegal memory access was encountered");
    expect(d.fix).toMatch(/^A crash inside a GPU kernel, not a memory limit/);
  });

  it("a vLLM engine dying after readiness names the exception it died of, not the API server's wrapper or an access line", () => {
    const E = "(EngineCore_DP1 pid=213) ERROR 04-06 10:14:05 [core.py:710] ";
    const d = diagnose({
      lines: [
        `${P}INFO:     Application startup complete.`,
        `${E}EngineCore encountered a fatal error.`,
        `${E}Traceback (most recent call last):`,
        `${E}    assert input_.shape[0] == sizes[self.rank_in_group]`,
        `${E}AssertionError`,
        "(EngineCore_DP0 pid=212) ERROR 04-06 10:14:35 [core.py:710] EngineCore encountered a fatal error.",
        "(EngineCore_DP0 pid=212) ERROR 04-06 10:14:35 [core.py:710] RuntimeError: DP peer engine died while in a collective; aborting",
        `${P}ERROR 04-06 10:14:35 [async_llm.py:480] AsyncLLM output_handler failed.`,
        `${P}INFO:     10.4.0.7:38122 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error`,
      ],
    });
    expect(d).toMatchObject({ class: "engine-init-failed", decisive: "AssertionError" });
  });

  it("a request's exception while the engine keeps serving stays no failure", () => {
    const d = diagnose({
      lines: [
        `${P}INFO:     Application startup complete.`,
        `${P}ERROR 04-06 10:14:05 [serving_chat.py:200] ValueError: bad request`,
        `${P}INFO:     10.4.0.7:1 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request`,
      ],
    });
    expect(d.class).toBe("ready");
  });

  it("the NVIDIA toolkit without a driver, an image of another architecture, and docker's pull chatter", () => {
    const drv = diagnose({
      lines: [
        "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
        "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
      ],
    });
    expect(drv).toMatchObject({
      class: "runtime-error",
      decisive: "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.",
    });
    const arch = diagnose({
      lines: [
        '{"msg":"exec container process `/app/llama-server`: Exec format error","level":"error","time":"2025-11-02T10:00:00.000Z"}',
      ],
    });
    expect(arch.class).toBe("runtime-error");
    expect(arch.fix).toMatch(/another CPU architecture|this host's architecture/);
    const pull = diagnose({
      lines: [
        "Unable to find image 'vllm/vllm-openai:v0.10.2' locally",
        "v0.10.2: Pulling from vllm/vllm-openai",
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
      ],
    });
    expect(pull.decisive).toMatch(/could not select device driver/);
  });

  it("a positional parameter unbound under set -u is the script's error, with its line", () => {
    const d = diagnose({ lines: ["/opt/serve/run.sh: line 12: $2: unbound variable"] });
    expect(d).toMatchObject({
      class: "script-error",
      below: { facts: { what: "unbound-variable", variable: "$2", line: 12 } },
    });
  });

  it("a feature the model does not support is the flag that turns it on", () => {
    const d = diagnose({ lines: ["NotImplementedError: Prefix caching is not supported for Mamba yet."] });
    expect(d).toMatchObject({
      class: "engine-args",
      fix: "Turn off --enable-prefix-caching (or pass --no-enable-prefix-caching) in the serve script for this model.",
    });
  });
});
