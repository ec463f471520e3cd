// The llama-server double's argv and boot lines, read back by the product's own parsers: what deploy
// and verify see on the sandbox host comes from here.
import { describe, expect, it } from "vitest";
import { readPlan } from "../../../src/domain/engine/plan.js";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { LlamaArgvError, llamaBoot, llamaPlan, toolsRefusal, type LlamaPlan } from "./llama.js";

const lines = (p: LlamaPlan, file: Parameters<typeof llamaBoot>[1]) =>
  llamaBoot(p, file).flatMap((s) => ("text" in s ? [s.text(new Date()).trimEnd()] : []));
const plan = (...args: string[]) => llamaPlan(["-m", "/models/q.gguf", ...args], {});

describe("llama-server double: argv", () => {
  it("reads llama-server's flags, short and long", () => {
    expect(
      plan("-c", "8192", "-np", "2", "--port", "8080", "--host", "0.0.0.0", "-a", "qwen", "--jinja", "-ngl", "99"),
    ).toMatchObject({ ctx: 8192, parallel: 2, port: 8080, host: "0.0.0.0", alias: "qwen", jinja: true });
  });

  it("refuses an unknown flag and a bad number as llama-server does", () => {
    expect(() => plan("--tool-call-parser", "hermes")).toThrow(
      new LlamaArgvError("error: invalid argument: --tool-call-parser"),
    );
    expect(() => plan("-c", "lots")).toThrow(new LlamaArgvError('error while handling argument "-c": stoi'));
  });
});

describe("llama-server double: boot lines as the product reads them", () => {
  it("a good boot is ready at its listening line, with n_ctx and n_ctx_per_seq in the plan", () => {
    const p = plan("-c", "8192", "-np", "2", "--host", "0.0.0.0", "--port", "8080");
    const l = lines(p, "ok");
    expect(diagnose({ lines: l })).toMatchObject({
      class: "ready",
      engine: "llama.cpp",
      decisive: "main: server is listening on http://0.0.0.0:8080 - starting the main loop",
    });
    expect(readPlan(l)).toMatchObject({ kvTokens: 8192, maxModelLen: 4096 });
    expect(llamaBoot(p, "ok").some((s) => "exit" in s)).toBe(false);
  });

  it("a missing model file exits 1 after gguf's open failure; a file without the magic too", () => {
    const missing = diagnose({ lines: lines(plan(), "missing") });
    expect(missing).toMatchObject({
      class: "engine-init-failed",
      decisive: "gguf_init_from_file: failed to open GGUF file '/models/q.gguf'",
    });
    expect(llamaBoot(plan(), "missing").find((s) => "exit" in s)).toMatchObject({ exit: 1 });
    expect(diagnose({ lines: lines(plan(), "not-gguf") }).summary).toMatch(/not a complete GGUF/);
  });

  it("FAKE_FAIL=oom dies allocating the weights", () => {
    expect(diagnose({ lines: lines(llamaPlan(["-m", "/m.gguf"], { FAKE_FAIL: "oom" }), "ok") }).class).toBe("oom");
  });

  it("tools without --jinja are refused with llama-server's 500 body", () => {
    const body = JSON.stringify({
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", function: { name: "f" } }],
    });
    expect(JSON.parse(toolsRefusal(plan(), body)!)).toEqual({
      error: { code: 500, message: "tools param requires --jinja flag", type: "server_error" },
    });
    expect(toolsRefusal(plan("--jinja"), body)).toBeNull();
  });
});
