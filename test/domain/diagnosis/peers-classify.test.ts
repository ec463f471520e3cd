// SGLang and llama.cpp boots diagnosed from their logs (fixtures: test/fixtures/journal/peers/README.md): the
// cause line wins over the engines' wrappers, and each fix names that engine's flags, never vLLM's.
import { describe, expect, it } from "vitest";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { fixtureLines } from "../../fixtures/journal/classes/fixture.js";

const peer = (name: string) => diagnose({ lines: fixtureLines(`../peers/${name}`) });
const VLLM_FLAGS = /--gpu-memory-utilization|--kv-cache-memory-bytes|--max-num-seqs|vllm serve|Engine core/;

describe("SGLang", () => {
  it("a KV pool the weights leave no room for: kv-insufficient, the RuntimeError, --mem-fraction-static", () => {
    const d = peer("sglang-kv-pool.log");
    expect(d).toMatchObject({
      class: "kv-insufficient",
      engine: "sglang",
      decisive: "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
    });
    expect(d.fix).toMatch(/^Raise --mem-fraction-static/);
    expect(d.fix).not.toMatch(VLLM_FLAGS);
  });

  it("a CUDA-graph OOM: oom with the gap, SGLang's graph flags", () => {
    const d = peer("sglang-graph-oom.log");
    expect(d.class).toBe("oom");
    expect(d.decisive).toMatch(
      /^Exception: Capture cuda graph failed: CUDA out of memory\. Tried to allocate 1\.96 GiB/,
    );
    expect(d.summary).toContain("short 0.76 GiB");
    expect(d.fix).toContain("--cuda-graph-max-bs");
    expect(d.fix).not.toMatch(VLLM_FLAGS);
  });

  it("a healthy boot is ready, though a line speaks of memory", () => {
    expect(peer("sglang-ready.log")).toMatchObject({ class: "ready", engine: "sglang", fix: null });
  });
});

describe("llama.cpp", () => {
  it("a model file the container does not have: the gguf open line, the path in the fix", () => {
    const d = peer("llamacpp-missing-model.log");
    expect(d).toMatchObject({
      class: "engine-init-failed",
      engine: "llama.cpp",
      decisive: "gguf_init_from_file: failed to open GGUF file '/models/qwen3-30b-a3b-q4_k_m.gguf'",
    });
    expect(d.summary).toBe("llama.cpp could not open the model file /models/qwen3-30b-a3b-q4_k_m.gguf");
    expect(d.fix).toContain("-v mount");
    expect(d.phase).toBe("loading-weights");
  });

  it("cudaMalloc out of memory (prefixed lines): oom, -ngl and the context in the fix", () => {
    const d = peer("llamacpp-cuda-oom.log");
    expect(d.class).toBe("oom");
    expect(d.decisive).toContain("cudaMalloc failed: out of memory");
    expect(d.fix).toMatch(/-ngl.*--ctx-size/);
    expect(d.fix).not.toMatch(VLLM_FLAGS);
  });

  it("an architecture the image's build does not know: a newer image", () => {
    const d = peer("llamacpp-unknown-arch.log");
    expect(d.class).toBe("engine-init-failed");
    expect(d.decisive).toContain("unknown model architecture: 'glm4moe'");
    expect(d.fix).toMatch(/^Use a newer llama\.cpp image/);
  });

  it("an unknown flag: engine-args, llama-server's --help", () => {
    const d = peer("llamacpp-bad-arg.log");
    expect(d).toMatchObject({ class: "engine-args", decisive: "error: invalid argument: --tool-call-parser" });
    expect(d.fix).toContain("llama-server --help");
  });

  it("a taken port: runtime-error at the engine's own socket, --port in the fix", () => {
    const d = peer("llamacpp-port.log");
    expect(d.class).toBe("runtime-error");
    expect(d.below).toMatchObject({ layer: "engine", facts: { what: "port-in-use", port: 8080 } });
    expect(d.fix).toContain("another --port");
  });

  it("a healthy boot is ready at `server is listening on http://…`, not at the early `HTTP server is listening` line", () => {
    const d = peer("llamacpp-ready.log");
    expect(d).toMatchObject({
      class: "ready",
      decisive: "main: server is listening on http://0.0.0.0:8080 - starting the main loop",
    });
    const early = diagnose({ lines: fixtureLines("../peers/llamacpp-ready.log").slice(0, 12) });
    expect(early.class).toBe("booting");
  });
});

describe("vLLM under --network host", () => {
  it("uvicorn's bind error is the engine's port in use, not a clean exit", () => {
    const d = peer("vllm-port-in-use.log");
    expect(d).toMatchObject({
      class: "runtime-error",
      engine: "vllm",
      below: { layer: "engine", facts: { port: 8000 } },
    });
    expect(d.decisive).toContain("address already in use");
  });
});
