// The double's tool calling and thinking contracts, as vLLM serves them, and each FAKE_BREAK switch
// breaking exactly its one contract.
import { describe, expect, it } from "vitest";
import { chat } from "./api.js";
import { newCounters } from "./http.js";
import { makePlan } from "./plan.js";

const counters = newCounters;
const tool = (name: string) => ({
  type: "function",
  function: {
    name,
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
});
const TOOLS = [tool("get_weather"), tool("get_time")];
const FULL = ["/m", "--enable-auto-tool-choice", "--tool-call-parser", "hermes", "--reasoning-parser", "qwen3"];
const ask = (content: string) => [{ role: "user", content }];

function send(body: Record<string, unknown>, env: Record<string, string> = {}, args = FULL) {
  const r = chat(makePlan(args, env), JSON.stringify({ temperature: 0, ...body }), counters(), 0);
  return { status: r.status, json: r.type?.startsWith("application/json") ? JSON.parse(r.body) : null, raw: r.body };
}
const choice0 = (b: Record<string, unknown>, env?: Record<string, string>) => send(b, env).json.choices[0];

/** The SSE body's deltas joined as a client does. */
function joined(raw: string) {
  const deltas = raw
    .split("\n\n")
    .filter((e) => e.startsWith("data: {"))
    .flatMap((e) => JSON.parse(e.slice(6)).choices.map((c: { delta: unknown }) => c.delta));
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const d of deltas)
    for (const tc of d.tool_calls ?? []) {
      const c = (calls[tc.index] ??= { arguments: "" });
      c.id ??= tc.id;
      c.name ??= tc.function?.name;
      c.arguments += tc.function?.arguments ?? "";
    }
  return {
    content: deltas.map((d) => d.content ?? "").join(""),
    reasoning: deltas.map((d) => d.reasoning ?? "").join(""),
    calls,
  };
}

describe("engine double: tool_choice as vLLM serves it", () => {
  it("auto and required end tool_calls, a named function ends stop, none answers in text", () => {
    const q = ask("What is the weather in Paris?");
    const auto = choice0({ messages: q, tools: TOOLS, tool_choice: "auto" });
    expect(auto.finish_reason).toBe("tool_calls");
    expect(JSON.parse(auto.message.tool_calls[0].function.arguments)).toEqual({ city: "Paris" });
    expect(choice0({ messages: q, tools: TOOLS, tool_choice: "required" }).finish_reason).toBe("tool_calls");
    const named = choice0({
      messages: q,
      tools: TOOLS,
      tool_choice: { type: "function", function: { name: "get_time" } },
    });
    expect(named.finish_reason).toBe("stop");
    expect(named.message.tool_calls.map((c: { function: { name: string } }) => c.function.name)).toEqual(["get_time"]);
    const none = choice0({ messages: q, tools: TOOLS, tool_choice: "none" });
    expect(none).toMatchObject({ finish_reason: "stop", message: { tool_calls: [] } });
    expect(none.message.content).toMatch(/\w/);
  });

  it("refuses required and a named function without --tool-call-parser, with vLLM's words", () => {
    const q = ask("weather in Paris?");
    const required = send({ messages: q, tools: TOOLS, tool_choice: "required" }, {}, ["/m"]);
    expect(required.status).toBe(400);
    expect(required.json.error.message).toBe('tool_choice="required" requires --tool-call-parser to be set');
    const named = send(
      { messages: q, tools: TOOLS, tool_choice: { type: "function", function: { name: "get_time" } } },
      {},
      ["/m"],
    );
    expect(named.json.error.message).toBe('tool_choice=function "get_time" requires --tool-call-parser to be set');
    // the parser alone is enough for both; auto needs --enable-auto-tool-choice too
    const parserOnly = ["/m", "--tool-call-parser", "hermes"];
    expect(send({ messages: q, tools: TOOLS, tool_choice: "required" }, {}, parserOnly).status).toBe(200);
    expect(send({ messages: q, tools: TOOLS, tool_choice: "auto" }, {}, parserOnly).status).toBe(400);
  });

  it("two cities asked for are two calls with their own ids; the stream joins to the same calls", () => {
    const body = { messages: ask("Weather in Paris and in Tokyo?"), tools: TOOLS, tool_choice: "auto" };
    const whole = choice0(body).message.tool_calls;
    expect(whole.map((c: { function: { arguments: string } }) => JSON.parse(c.function.arguments).city)).toEqual([
      "Paris",
      "Tokyo",
    ]);
    expect(new Set(whole.map((c: { id: string }) => c.id)).size).toBe(2);
    const streamed = joined(send({ ...body, stream: true }).raw);
    expect(streamed.calls.map((c) => [c.name, c.arguments])).toEqual(
      whole.map((c: { function: { name: string; arguments: string } }) => [c.function.name, c.function.arguments]),
    );
  });

  it("answers a tool result in text", () => {
    const messages = [
      ...ask("What is the weather in Paris?"),
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: '{"temperature": 18}' },
    ];
    const c = choice0({ messages, tools: TOOLS });
    expect(c).toMatchObject({ finish_reason: "stop", message: { tool_calls: [] } });
    expect(c.message.content).toContain("18");
  });

  it("thinking: streamed reasoning in its own deltas; enable_thinking false gives the answer once, no reasoning", () => {
    const s = joined(send({ messages: ask("What is 17 + 25?"), stream: true }).raw);
    expect(s.reasoning).toMatch(/\w/);
    expect(s.content).not.toContain("</think>");
    const off = choice0({ messages: ask("What is 17 + 25?"), chat_template_kwargs: { enable_thinking: false } });
    expect(off.message.reasoning).toBeNull();
    expect(off.message.content).toMatch(/^Answer /);
  });
});

type Choice = { message: { tool_calls: { function: { name: string } }[] } };

describe("engine double: FAKE_BREAK breaks one contract", () => {
  const q = ask("Weather in Paris and in Tokyo?");
  it.for([
    ["tool-required", { tool_choice: "required" }, (c: Choice) => c.message.tool_calls.length === 0],
    [
      "tool-named",
      { tool_choice: { type: "function", function: { name: "get_time" } } },
      (c: Choice) => c.message.tool_calls[0]?.function.name === "get_weather",
    ],
    ["tool-none", { tool_choice: "none" }, (c: Choice) => c.message.tool_calls.length > 0],
    ["tool-parallel", { tool_choice: "auto" }, (c: Choice) => c.message.tool_calls.length === 1],
  ] as const)("%s", ([name, extra, broken]) => {
    const body = { messages: q, tools: TOOLS, ...extra };
    expect(broken(choice0(body))).toBe(false);
    expect(broken(choice0(body, { FAKE_BREAK: name }))).toBe(true);
  });
  it("tool-stream: the streamed arguments no longer parse; the whole reply is unchanged", () => {
    const body = { messages: q, tools: TOOLS, tool_choice: "auto", stream: true };
    const bad = joined(send(body, { FAKE_BREAK: "tool-stream" }).raw);
    expect(() => JSON.parse(bad.calls[0]!.arguments)).toThrow();
    expect(choice0({ ...body, stream: false }, { FAKE_BREAK: "tool-stream" }).message.tool_calls).toHaveLength(2);
  });
  it("tool-roundtrip: a tool message is refused by the template", () => {
    const messages = [...q, { role: "tool", tool_call_id: "c1", content: "18" }];
    expect(send({ messages, tools: TOOLS }).status).toBe(200);
    expect(send({ messages, tools: TOOLS }, { FAKE_BREAK: "tool-roundtrip" }).status).toBe(400);
  });
  it("think-stream: streamed thinking inline in content; not streamed, still parsed", () => {
    const s = joined(send({ messages: ask("17 + 25?"), stream: true }, { FAKE_BREAK: "think-stream" }).raw);
    expect(s.reasoning).toBe("");
    expect(s.content).toContain("</think>");
    expect(choice0({ messages: ask("17 + 25?") }, { FAKE_BREAK: "think-stream" }).message.reasoning).toMatch(/\w/);
  });
  it("think-off: the answer also lands in reasoning", () => {
    const off = choice0(
      { messages: ask("17 + 25?"), chat_template_kwargs: { enable_thinking: false } },
      { FAKE_BREAK: "think-off" },
    );
    expect(off.message.reasoning).toBe(off.message.content);
  });
  it("structured: response_format json_schema is honoured, and ignored when broken", () => {
    const schema = {
      type: "object",
      properties: { n: { type: "integer" }, s: { type: "string" } },
      required: ["n", "s"],
    };
    const body = {
      messages: ask("JSON please"),
      response_format: { type: "json_schema", json_schema: { name: "x", schema } },
    };
    expect(JSON.parse(choice0(body).message.content)).toEqual({ n: 1, s: "Paris" });
    expect(() => JSON.parse(choice0(body, { FAKE_BREAK: "structured" }).message.content)).toThrow();
  });
  it("an unknown switch is refused by name", () => {
    expect(() => makePlan(["/m"], { FAKE_BREAK: "tool-nope" })).toThrow(/FAKE_BREAK: unknown contract tool-nope/);
  });
});
