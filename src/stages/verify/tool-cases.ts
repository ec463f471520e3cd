// verify.tools' cases: the request each sends and the verdict on its answer. What each must return is
// OpenAI's contract as vLLM serves it (vllm/entrypoints/openai/chat_completion/serving.py: "tool_calls" for
// auto or required, "stop" for a named function; tool_choice none parses no call) and llama.cpp too
// (the reference's llama.cpp section: "tool_calls" whenever calls came back, named included). Pure.
import { isToolConfigGap } from "../../domain/engine/vllm/contracts.js";
import type { HttpResult } from "../../ports/http/client.js";
import type { StreamResult } from "../../ports/http/sse.js";
import { joinStream, type JoinedCall } from "./stream-message.js";

export const TOOL_CASES = ["auto", "required", "named", "none", "parallel", "stream", "roundtrip"] as const;
export type ToolCase = (typeof TOOL_CASES)[number];

/** flags: a launch flag is missing; server: the server's tool handling (parser, guided decoding) broke the
 *  contract; model: the model did not do what was asked; template: the chat template refused the turn. */
export type Cause = "flags" | "server" | "model" | "template" | "transport";
export interface CaseVerdict {
  ok: boolean;
  cause: Cause | null;
  reason: string;
  /** the model's call came back as text: no parser took it out (the server's fault, or SGLang's missing flag) */
  asText?: true;
  /** a case the engine cannot serve (llama-server's named tool_choice): not counted */
  unsupported?: true;
}

const city = { type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] };
const fn = (name: string, description: string) => ({
  type: "function",
  function: { name, description, parameters: city },
});
export const TOOLS = [fn("get_weather", "Current weather for a city"), fn("get_time", "Local time in a city")];
export const NAMED = "get_time";
const ONE = "What is the weather in Paris right now? Use the tool.";
const TWO =
  "What is the weather in Paris and in Tokyo right now? Call get_weather once for each city, both in this turn.";
const PAST_CALL = {
  id: "call_dg_1",
  type: "function",
  function: { name: "get_weather", arguments: '{"city": "Paris"}' },
};

export function toolCaseBody(c: ToolCase, model: string): Record<string, unknown> {
  const base = { model, temperature: 0, max_tokens: 512, tools: TOOLS };
  const user = (content: string) => [{ role: "user", content }];
  switch (c) {
    case "auto":
      return { ...base, tool_choice: "auto", messages: user(ONE) };
    case "required":
      return { ...base, tool_choice: "required", messages: user(ONE) };
    case "named":
      return { ...base, tool_choice: { type: "function", function: { name: NAMED } }, messages: user(ONE) };
    case "none":
      return { ...base, tool_choice: "none", messages: user(ONE) };
    case "parallel":
      return { ...base, tool_choice: "auto", parallel_tool_calls: true, messages: user(TWO) };
    case "stream":
      return { ...toolCaseBody("parallel", model), stream: true };
    case "roundtrip":
      return {
        ...base,
        tool_choice: "auto",
        messages: [
          ...user(ONE),
          { role: "assistant", content: null, tool_calls: [PAST_CALL] },
          {
            role: "tool",
            tool_call_id: PAST_CALL.id,
            content: '{"city": "Paris", "temperature_c": 18, "sky": "clear"}',
          },
        ],
      };
  }
}

interface Message {
  content: string;
  calls: JoinedCall[];
  finishReason: string | null;
}

const ok = (reason: string): CaseVerdict => ({ ok: true, cause: null, reason });
const bad = (cause: Cause, reason: string): CaseVerdict => ({ ok: false, cause, reason });

function errorText(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === "object" ? j.error.message : (j.error ?? j.message);
    if (typeof m === "string") return m;
  } catch {
    /* not JSON: the body itself */
  }
  return body.slice(0, 200);
}

/** A non-2xx or no answer: the verdict; null when there is a body to judge. */
export function transportVerdict(
  c: ToolCase,
  status: number | null,
  body: string,
  error: string | null,
): CaseVerdict | null {
  if (status === null) return bad("transport", `no answer: ${error ?? "unknown error"}`);
  if (status >= 200 && status < 300) return null;
  const msg = `HTTP ${status}: ${errorText(body)}`;
  if (isToolConfigGap(body)) return bad("flags", msg);
  return bad(c === "roundtrip" && status === 400 ? "template" : "server", msg);
}

export function messageOf(r: HttpResult): Message | null {
  try {
    const j = JSON.parse(r.body) as {
      choices?: {
        message?: {
          content?: unknown;
          tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
        };
        finish_reason?: string | null;
      }[];
    };
    const ch = j.choices?.[0];
    if (!ch?.message) return null;
    return {
      content: typeof ch.message.content === "string" ? ch.message.content : "",
      calls: (ch.message.tool_calls ?? []).map((t) => ({
        id: t.id ?? null,
        name: t.function?.name ?? null,
        arguments: typeof t.function?.arguments === "string" ? t.function.arguments : "",
      })),
      finishReason: ch.finish_reason ?? null,
    };
  } catch {
    return null;
  }
}

const parse = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
};
const notJson = (calls: JoinedCall[]) =>
  calls.find((c) => typeof parse(c.arguments) !== "object" || parse(c.arguments) === null);
const names = (calls: JoinedCall[]) => calls.map((c) => c.name).join(", ");

/** A call the model wrote that no parser took out of the text: SGLang without --tool-call-parser refuses
 *  nothing and hands it back as content (the template's `<tool_call>` markup; for required or a named
 *  function the JSON array of its fallback schema, `[{"name": ..., "parameters": ...}]`). */
export function unparsedCall(content: string): boolean {
  if (content.includes("<tool_call>")) return true;
  const j = parse(content.trim());
  const items = Array.isArray(j) ? j : [j];
  return (
    items.length > 0 &&
    items.every(
      (x) =>
        typeof x === "object" &&
        x !== null &&
        typeof (x as { name?: unknown }).name === "string" &&
        ("parameters" in x || "arguments" in x),
    )
  );
}
const asText = (m: Message) =>
  `no tool_calls: the model's call came back as text in content (${JSON.stringify(m.content.slice(0, 80))}): no tool-call parser took it out`;

/** The verdict on one case's body (already 2xx). `reference`: the non-streamed parallel calls, for stream. */
export function judgeMessage(c: ToolCase, m: Message, reference: JoinedCall[] | null): CaseVerdict {
  const broken = notJson(m.calls);
  if (broken && c !== "none")
    return bad(
      "server",
      `call ${broken.name} has arguments that are not a JSON object: ${broken.arguments.slice(0, 80)}`,
    );
  if (!m.calls.length && c !== "none" && c !== "roundtrip" && unparsedCall(m.content))
    return { ...bad("server", asText(m)), asText: true };
  switch (c) {
    case "auto":
    case "required":
      if (!m.calls.length)
        return bad(
          c === "required" ? "server" : "model",
          `no tool_calls (finish_reason ${JSON.stringify(m.finishReason)}); content ${JSON.stringify(m.content.slice(0, 80))}`,
        );
      if (m.finishReason !== "tool_calls")
        return bad(
          "server",
          `${m.calls.length} call(s) but finish_reason ${JSON.stringify(m.finishReason)}, not "tool_calls"`,
        );
      return ok(`${m.calls.length} call(s): ${names(m.calls)}`);
    case "named":
      if (!m.calls.length) return bad("server", `no tool_calls for the named function ${NAMED}`);
      if (m.calls.some((x) => x.name !== NAMED))
        return bad(
          "server",
          `named ${NAMED}, got a call to ${names(m.calls)} (a server that reads tool_choice only as a string, as llama-server does, serves a named function as "auto")`,
        );
      return ok(`called ${NAMED} (finish_reason ${JSON.stringify(m.finishReason)})`);
    case "none":
      if (m.calls.length)
        return bad("server", `tool_choice none, yet ${m.calls.length} call(s) came back: ${names(m.calls)}`);
      if (!m.content.trim()) return bad("model", "tool_choice none: no call, but no text either");
      return ok("answered in text, no call");
    case "parallel": {
      if (m.calls.length < 2)
        return bad(
          "model",
          `asked for two calls in one turn, got ${m.calls.length}${m.calls.length ? ` (${m.calls[0]!.arguments.slice(0, 60)})` : ""}`,
        );
      const ids = new Set(m.calls.map((x) => x.id));
      if (ids.size < m.calls.length)
        return bad("server", `${m.calls.length} calls share an id: clients cannot answer each`);
      return ok(`${m.calls.length} calls in one turn`);
    }
    case "stream": {
      if (!m.calls.length) return bad("server", "the streamed deltas carried no tool call");
      if (reference && reference.length) {
        const same =
          reference.length === m.calls.length &&
          reference.every(
            (r, i) =>
              r.name === m.calls[i]!.name &&
              JSON.stringify(parse(r.arguments)) === JSON.stringify(parse(m.calls[i]!.arguments)),
          );
        if (!same)
          return bad(
            "server",
            `streamed calls (${m.calls.map((x) => `${x.name} ${x.arguments}`).join("; ")}) differ from the same request not streamed (${reference.map((x) => `${x.name} ${x.arguments}`).join("; ")})`,
          );
      }
      return ok(`${m.calls.length} call(s) joined from the deltas, the same as not streamed`);
    }
    case "roundtrip":
      if (m.calls.length)
        return bad("model", `after the tool's result the model called ${names(m.calls)} again instead of answering`);
      if (!m.content.trim()) return bad("model", "after the tool's result: no text");
      return ok(`answered the tool's result in text (${m.content.length} chars)`);
  }
}

export type ToolAnswers = Record<Exclude<ToolCase, "stream">, HttpResult> & { stream: StreamResult };

export function judgeCase(c: ToolCase, a: ToolAnswers): CaseVerdict {
  if (c === "stream") {
    const s = a.stream;
    const t = transportVerdict(c, s.status, s.body ?? "", s.error);
    if (t) return t;
    const j = joinStream(s);
    const ref = a.parallel.status === 200 ? (messageOf(a.parallel)?.calls ?? null) : null;
    return judgeMessage(c, j, ref);
  }
  const r = a[c];
  const t = transportVerdict(c, r.status, r.body, r.error);
  if (t) return t;
  const m = messageOf(r);
  return m
    ? judgeMessage(c, m, null)
    : bad("server", `HTTP ${r.status} without choices[0].message: ${r.body.slice(0, 120)}`);
}
