// The client-contract checks against llama-server's and SGLang's answers where they differ from vLLM's,
// served on loopback by the double (real HTTP). What each engine sends, from its source: SGLang
// (sgl-project/sglang python/sglang/srt/entrypoints/openai/serving_chat.py at 002897c23becbd522d88b8115a763a21765f978a,
// protocol.py at 004c82e07d876f6e4a0ad6e15325706b0f478f1a, sse_utils.py at 0671305890f954d76e23532a5adf66f350cb8baf);
// llama-server (ggml-org/llama.cpp tools/server/server-common.cpp at 006639c3ff51a3dbde5f52ebf4c5a55ad5306caf).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { askThinkingCases, checkThinkingMatrix } from "../../../src/stages/verify/thinking.js";
import { askToolCases, checkToolMatrix } from "../../../src/stages/verify/tools.js";
import { askStructured, checkStructured, DEFAULT_SCHEMA } from "../../../src/stages/verify/structured.js";
import { liteChat, type LiteChat } from "../../sandbox/engine/dialect.js";

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serve(e: LiteChat): Promise<string> {
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = liteChat(e, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(r.status, { "content-type": r.type ?? "application/json" });
      res.end(r.body);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const live = { autoToolChoice: true, toolCallParser: "hermes", model: "q" };

describe.for(["llama.cpp", "sglang"] as const)("%s's answers", (dialect) => {
  it("pass the tool matrix, thinking (reasoning_content) and structured output", async () => {
    const url = await serve({ dialect, served: "q", jinja: true, reasoning: true, tools: true });
    const route = runnerRoute(url, {});
    const tools = checkToolMatrix(await askToolCases(route, "q", 20_000), url, "runner", {
      ...live,
      engine: dialect,
    });
    expect(tools.status, JSON.stringify(tools)).toBe("pass");
    const thinking = checkThinkingMatrix(await askThinkingCases(route, "q", 20_000), url, "runner", {
      reasoningParser: "qwen3",
      engineTemplateFlags: [],
      model: "q",
    });
    expect(thinking.status, JSON.stringify(thinking)).toBe("pass");
    const structured = checkStructured(
      await askStructured(route, "q", DEFAULT_SCHEMA, 20_000),
      DEFAULT_SCHEMA,
      url,
      "runner",
      {
        model: "q",
      },
    );
    expect(structured.status).toBe("pass");
  });
});

describe("llama-server without --jinja", () => {
  it("refuses tools with a 500: a flags gap whose fix is --jinja", async () => {
    const url = await serve({ dialect: "llama.cpp", served: "q", jinja: false, reasoning: true, tools: false });
    const f = checkToolMatrix(await askToolCases(runnerRoute(url, {}), "q", 20_000), url, "runner", {
      autoToolChoice: false,
      toolCallParser: null,
      model: "q",
    });
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/HTTP 500/);
    expect(f.fix).toMatch(/^a server config gap, not a model fault: start llama-server with --jinja/);
  });
});

const chatBody = (extra: Record<string, unknown>) =>
  JSON.stringify({
    model: "q",
    temperature: 0,
    messages: [{ role: "user", content: "What is the weather in Paris?" }],
    ...extra,
  });
const TOOL = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
  },
];
const sglang: LiteChat = { dialect: "sglang", served: "q", jinja: true, reasoning: true, tools: true };

describe("SGLang's shapes, from its source", () => {
  it('not streamed: every message field present (reasoning_content null, content "" beside calls), call ids call_ + 24 hex, a named call ends tool_calls', () => {
    // serving_chat.py _build_chat_response: content=text if text else "", reasoning_content=... else None;
    // _process_tool_calls: a "stop" with calls (auto, required or named) becomes "tool_calls"
    const named = JSON.parse(
      liteChat(sglang, chatBody({ tools: TOOL, tool_choice: { type: "function", function: { name: "get_weather" } } }))
        .body,
    );
    const ch = named.choices[0];
    expect(ch.finish_reason).toBe("tool_calls");
    expect(ch.matched_stop).toBeNull();
    expect(ch.message).toMatchObject({ role: "assistant", content: "", reasoning_content: null });
    expect(ch.message.tool_calls[0]).toMatchObject({ index: 0, type: "function", function: { name: "get_weather" } });
    expect(ch.message.tool_calls[0].id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(named.metadata).toEqual({ weight_version: "default" });
    const off = JSON.parse(liteChat(sglang, chatBody({ chat_template_kwargs: { enable_thinking: false } })).body);
    expect(off.choices[0].message).toHaveProperty("reasoning_content", null);
    expect(off.choices[0].message).toHaveProperty("tool_calls", null);
  });

  it("streamed: text deltas carry only their keys (msgspec omit_defaults), tool-call deltas every key, later pieces with id and name null", () => {
    const r = liteChat(sglang, chatBody({ tools: TOOL, tool_choice: "auto", stream: true }));
    const chunks = r.body
      .split("\n\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => JSON.parse(l.slice(6)));
    expect(chunks[0].choices[0]).toEqual({
      index: 0,
      delta: { role: "assistant", content: "" },
      logprobs: null,
      finish_reason: null,
      matched_stop: null,
    });
    const calls = chunks.filter((c) => c.choices[0]?.delta.tool_calls);
    expect(calls[0].choices[0].delta).toMatchObject({ role: null, content: null, reasoning_content: null });
    expect(calls[0].choices[0].delta.tool_calls[0]).toMatchObject({ function: { name: "get_weather", arguments: "" } });
    expect(calls[1].choices[0].delta.tool_calls[0]).toMatchObject({ id: null, function: { name: null } });
    const end = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(end.choices[0]).toMatchObject({ delta: {}, finish_reason: "tool_calls" });
  });

  it("without --tool-call-parser refuses nothing: the calls come back as text, and verify.tools names the missing flag", async () => {
    const e = { ...sglang, tools: false };
    const auto = JSON.parse(liteChat(e, chatBody({ tools: TOOL, tool_choice: "auto" })).body).choices[0];
    expect(auto).toMatchObject({ finish_reason: "stop", message: { tool_calls: null } });
    expect(auto.message.content).toMatch(/^<tool_call>\n\{"name":"get_weather"/);
    const required = JSON.parse(liteChat(e, chatBody({ tools: TOOL, tool_choice: "required" })).body).choices[0];
    expect(JSON.parse(required.message.content)).toEqual([{ name: "get_weather", parameters: { city: "Paris" } }]);
    const url = await serve(e);
    const f = checkToolMatrix(await askToolCases(runnerRoute(url, {}), "q", 20_000), url, "runner", {
      autoToolChoice: false,
      toolCallParser: null,
      model: "q",
    });
    expect(f.status).toBe("fail");
    const cases = (f.data as { cases: Record<string, { cause: string | null }> }).cases;
    for (const c of ["auto", "required", "named", "parallel", "stream"]) expect(cases[c]!.cause, c).toBe("flags");
    expect(f.fix).toMatch(/SGLang without --tool-call-parser/);
    expect(f.fix).not.toMatch(/--enable-auto-tool-choice/);
  });
});

describe("llama-server's tool_choice, from its source", () => {
  const llama: LiteChat = { dialect: "llama.cpp", served: "q", jinja: true, reasoning: true, tools: true };
  it("a named function is served as auto (tool_choice read as a string), one call unless parallel_tool_calls", () => {
    const two = (extra: Record<string, unknown>) =>
      JSON.stringify({
        model: "q",
        messages: [{ role: "user", content: "Weather in Paris and in Tokyo?" }],
        tools: [...TOOL, { type: "function", function: { name: "get_time" } }],
        ...extra,
      });
    const named = JSON.parse(
      liteChat(llama, two({ tool_choice: { type: "function", function: { name: "get_time" } } })).body,
    );
    expect(named.choices[0].message.tool_calls.map((c: { function: { name: string } }) => c.function.name)).toEqual([
      "get_weather",
    ]);
    expect(
      JSON.parse(liteChat(llama, two({ parallel_tool_calls: true })).body).choices[0].message.tool_calls,
    ).toHaveLength(2);
    expect(JSON.parse(liteChat({ ...llama, jinja: false }, chatBody({ tool_choice: "required" })).body)).toEqual({
      error: { code: 500, message: "tool_choice param requires --jinja flag", type: "server_error" },
    });
  });

  it("verify.tools: the named case is not counted on llama-server, and fails on any other engine", async () => {
    const url = await serve(llama);
    const answers = await askToolCases(runnerRoute(url, {}), "q", 20_000);
    const onLlama = checkToolMatrix(answers, url, "runner", { ...live, engine: "llama.cpp" });
    expect(onLlama.status).toBe("pass");
    expect(onLlama.summary).toMatch(/named: not supported by this engine/);
    expect(checkToolMatrix(answers, url, "runner", { ...live, engine: "vllm" }).status).toBe("fail");
  });
});
