// The double's API contracts (reference §2), pure, plus the bundled double as a real process on loopback.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundleEngine } from "../machine.js";
import { chat, metrics, models, specDecodeLine } from "./api.js";
import { newCounters } from "./http.js";
import { makePlan } from "./plan.js";

const counters = newCounters;
const body = (o: unknown) => JSON.stringify(o);
const msg = [{ role: "user", content: "Name a colour." }];
const weather = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
        required: ["city", "days"],
      },
    },
  },
];

describe("engine double API", () => {
  it("puts reasoning in `reasoning` with a parser and leaves <think> inline without one", () => {
    const withParser = JSON.parse(
      chat(makePlan(["/m", "--reasoning-parser", "qwen3"], {}), body({ messages: msg, temperature: 0 }), counters(), 0)
        .body,
    );
    expect(withParser.choices[0].message.reasoning).toMatch(/\w/);
    expect(withParser.choices[0].message.content).not.toContain("<think>");
    const without = JSON.parse(chat(makePlan(["/m"], {}), body({ messages: msg, temperature: 0 }), counters(), 0).body);
    expect(without.choices[0].message.reasoning).toBeNull();
    expect(without.choices[0].message.content).toMatch(/^<think>\n[\s\S]+\n<\/think>\n\n/);
  });

  it("streams the same answer as deltas when stream is true", () => {
    const p = makePlan(["/m", "--reasoning-parser", "qwen3"], {});
    const whole = JSON.parse(chat(p, body({ messages: msg, temperature: 0 }), counters(), 0).body).choices[0];
    const streamed = chat(p, body({ messages: msg, temperature: 0, stream: true }), counters(), 0);
    expect(streamed.type).toMatch(/^text\/event-stream/);
    const events = streamed.body
      .split("\n\n")
      .filter(Boolean)
      .map((e) => e.replace(/^data: /, ""));
    expect(events.at(-1)).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e).choices[0]);
    expect(chunks.map((c) => c.delta.reasoning ?? "").join("")).toBe(whole.message.reasoning);
    expect(chunks.map((c) => c.delta.content ?? "").join("")).toBe(whole.message.content);
    expect(chunks.at(-1).finish_reason).toBe("stop");
  });

  it("refuses a request longer than --max-model-len with vLLM's 400, before running it", () => {
    const p = makePlan(["/m", "--max-model-len", "1024"], {});
    const long = [{ role: "user", content: Array.from({ length: 1000 }, (_, i) => `w${i}`).join(" ") }];
    const r = chat(p, body({ messages: long, max_tokens: 64 }), counters(), 0);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.message).toBe(
      "This model's maximum context length is 1024 tokens. However, you requested 1068 tokens (1004 in the messages, 64 in the completion). Please reduce the length of the messages or completion.",
    );
    expect(chat(p, body({ messages: msg, max_tokens: 64 }), counters(), 0).status).toBe(200);
  });

  it("is deterministic at temperature 0", () => {
    const p = makePlan(["/m"], {});
    const a = JSON.parse(chat(p, body({ messages: msg, temperature: 0 }), counters(), 5).body);
    const b = JSON.parse(chat(p, body({ messages: msg, temperature: 0 }), counters(), 5).body);
    expect(a.choices).toEqual(b.choices);
  });

  it("returns a tool call only with --enable-auto-tool-choice and --tool-call-parser, else vLLM's 400", () => {
    const ok = chat(
      makePlan(["/m", "--enable-auto-tool-choice", "--tool-call-parser", "hermes"], {}),
      body({ messages: msg, tools: weather, tool_choice: "auto" }),
      counters(),
      0,
    );
    const c = JSON.parse(ok.body).choices[0];
    expect(c.finish_reason).toBe("tool_calls");
    expect(c.message.tool_calls[0].id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    expect(JSON.parse(c.message.tool_calls[0].function.arguments)).toEqual({ city: "city-value", days: 1 });
    for (const args of [["/m"], ["/m", "--enable-auto-tool-choice"]]) {
      const bad = chat(makePlan(args, {}), body({ messages: msg, tools: weather }), counters(), 0);
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.body)).toEqual({
        error: {
          message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
          type: "BadRequestError",
          param: null,
          code: 400,
        },
      });
    }
  });

  it("lists the served model name and refuses another", () => {
    const p = makePlan(["/models/qwen", "--served-model-name", "qwen", "--max-model-len", "8192"], {});
    expect(JSON.parse(models(p, 1).body).data[0]).toMatchObject({
      id: "qwen",
      root: "/models/qwen",
      owned_by: "vllm",
      max_model_len: 8192,
    });
    expect(chat(p, body({ model: "llama", messages: msg }), counters(), 0).status).toBe(404);
  });

  it("counts speculative decoding in /metrics and the SpecDecoding log line only when configured", () => {
    const p = makePlan(["/m", "--speculative-config", '{"method":"mtp","num_speculative_tokens":3}'], {});
    const c = counters();
    chat(p, body({ messages: msg, temperature: 0 }), c, 0);
    const text = metrics(p, c).body;
    expect(text).toMatch(/^vllm:spec_decode_num_drafts_total\{[^}]*\} [1-9]\d*\.0$/m);
    expect(text).toMatch(/vllm:spec_decode_num_accepted_tokens_per_pos_total\{[^}]*position="2"\}/);
    expect(specDecodeLine(p, c)).toMatch(
      /^SpecDecoding metrics: Mean acceptance length: \d\.\d\d, .*Per-position acceptance rate: [\d.]+, [\d.]+, [\d.]+, Avg Draft acceptance rate: [\d.]+%$/,
    );
    const plain = makePlan(["/m"], {});
    expect(metrics(plain, c).body).not.toContain("spec_decode");
    expect(specDecodeLine(plain, c)).toBeNull();
  });
});

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => res(typeof a === "object" && a ? a.port : 0));
    });
  });
}

describe("engine double process (bundled, on loopback)", () => {
  it("refuses the port while booting, then serves, and prints vLLM's boot lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-engine-"));
    await bundleEngine(dir);
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [
        join(dir, "engine.mjs"),
        "/models/qwen",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--served-model-name",
        "qwen",
        "--api-key",
        "sk-test",
      ],
      { env: { ...process.env, FAKE_BOOT_SECONDS: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.stderr.on("data", (d: Buffer) => (out += d));
    try {
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
      const until = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < until && status !== 200) {
        status = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.status,
          () => 0,
        );
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/v1/models`)).status).toBe(401);
      const listed = await fetch(`http://127.0.0.1:${port}/v1/models`, {
        headers: { authorization: "Bearer sk-test" },
      });
      expect(((await listed.json()) as { data: { id: string }[] }).data[0]!.id).toBe("qwen");
      expect(out).toContain("'api_key': '***'");
      expect(out).not.toContain("sk-test");
      expect(out).toContain(`(APIServer pid=${child.pid}) INFO:     Application startup complete.`);
      expect(out).toMatch(
        /\(EngineCore_DP0 pid=\d+\) INFO \d\d-\d\d \d\d:\d\d:\d\d \[kv_cache_utils\.py:\d+\] GPU KV cache size: [\d,]+ tokens/,
      );
    } finally {
      child.kill("SIGTERM");
    }
  });
});
