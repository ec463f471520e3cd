// SGLang's chat answers, rewritten from the vLLM double's, in the shapes SGLang's own source gives them
// (sgl-project/sglang, python/sglang/srt/entrypoints/openai/serving_chat.py at 002897c2, protocol.py at
// 004c82e0, sse_utils.py at 06713058):
// - not streamed: the message is protocol.py's ChatMessage with every field present (role, content,
//   reasoning_content, tool_calls: null when empty; content "" rather than null when only calls came back:
//   `content=text if text else ""`); the choice carries matched_stop; the response a `metadata` object.
// - streamed: text deltas from build_sse_content (msgspec, omit_defaults: only the keys that are set, the
//   end chunk's delta `{}`), tool-call deltas from DeltaMessage.model_dump_json (every key, null included):
//   the first piece of a call has its id ("call_" + 24 hex), its name and arguments "" (function_call/
//   base_format_detector.py at 00a35ca8: "Send the tool name with empty parameters"), later pieces id and name
//   null. (SGLang's arguments are Python's json.dumps, `{"city": "Paris"}` with spaces; the double keeps
//   vLLM's compact text: verify compares the parsed arguments.)
// - a call ends "tool_calls" whatever the tool_choice (auto, required, named: `if finish_reason["type"] ==
//   "stop": finish_reason["type"] = "tool_calls"`).
// - without --tool-call-parser SGLang refuses nothing: the call the model wrote stays in content as text
//   (auto: the chat template's `<tool_call>` markup; required or named: the JSON array its fallback
//   json_schema constraint makes, `[{"name": ..., "parameters": ...}]`), finish_reason "stop". Pure.
import { createHash } from "node:crypto";
import type { Reply } from "./api.js";

type Json = Record<string, unknown>;
interface VCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}
interface VChoice {
  index: number;
  message?: Json & { tool_calls?: VCall[]; reasoning?: string | null; content?: string | null };
  delta?: Json & { tool_calls?: VCall[]; reasoning?: string; content?: string; role?: string };
  finish_reason?: string | null;
}
interface VChunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: VChoice[];
  usage?: unknown;
}

/** Qwen's <|im_end|>: the token an end-of-turn stop matched (SGLang reports it as matched_stop) */
const IM_END = 151645;
const callId = (seed: string) => `call_${createHash("sha256").update(seed).digest("hex").slice(0, 24)}`;
const args = (a: string | undefined) => JSON.parse(a ?? "{}") as unknown;

/** The model's calls as text, when no parser takes them out: `forced` is required or a named function. */
export function callsAsText(calls: { name: string; arguments: string }[], forced: boolean): string {
  if (forced) return JSON.stringify(calls.map((c) => ({ name: c.name, parameters: args(c.arguments) })));
  return calls
    .map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: args(c.arguments) })}\n</tool_call>`)
    .join("\n");
}

export interface SglangMode {
  /** --tool-call-parser set */
  parser: boolean;
  /** tool_choice required or a named function */
  forced: boolean;
}

export function sglangJson(o: VChunk & { usage: unknown }, mode: SglangMode): Json {
  const ch = o.choices[0]!;
  const m = ch.message ?? {};
  const vcalls = (m.tool_calls ?? []).map((c) => ({ name: c.function!.name!, arguments: c.function!.arguments! }));
  let content = typeof m.content === "string" ? m.content : "";
  let finish = ch.finish_reason ?? null;
  let calls: Json[] | null = null;
  if (vcalls.length && !mode.parser) {
    content = callsAsText(vcalls, mode.forced);
    finish = "stop";
  } else if (vcalls.length) {
    calls = vcalls.map((c, index) => ({
      id: callId(o.id + index),
      index,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
    finish = "tool_calls";
  }
  const reasoning = typeof m.reasoning === "string" && m.reasoning !== "" ? m.reasoning : null;
  return {
    id: o.id,
    object: "chat.completion",
    created: o.created,
    model: o.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, reasoning_content: reasoning, tool_calls: calls },
        logprobs: null,
        finish_reason: finish,
        matched_stop: finish === "stop" ? IM_END : null,
      },
    ],
    usage: o.usage,
    metadata: { weight_version: "default" },
  };
}

/** The stream, chunk by chunk (the pieces keep their times). */
export function sglangStream(timed: NonNullable<Reply["timed"]>, mode: SglangMode): NonNullable<Reply["timed"]> {
  const out: { atMs: number; text: string }[] = [];
  let open: number | null = null; // the call whose text is open (no parser)
  let calls = false;
  const head = (o: VChunk) => ({ id: o.id, object: "chat.completion.chunk", created: o.created, model: o.model });
  const text = (o: VChunk, delta: Json, finish: string | null = null, matched: number | null = null) =>
    `data: ${JSON.stringify({ ...head(o), choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, matched_stop: matched }] })}\n\n`;
  for (const p of timed) {
    if (!p.text.startsWith("data: {")) {
      out.push(p);
      continue;
    }
    const o = JSON.parse(p.text.slice(6)) as VChunk;
    const push = (t: string) => out.push({ atMs: p.atMs, text: t });
    const ch = o.choices[0];
    if (!ch) {
      push(`data: ${JSON.stringify({ ...head(o), choices: [], usage: o.usage })}\n\n`);
      continue;
    }
    const d = ch.delta ?? {};
    if (ch.finish_reason) {
      if (open !== null) push(text(o, { content: mode.forced ? "}]" : "}\n</tool_call>" }));
      const finish = calls && mode.parser ? "tool_calls" : ch.finish_reason;
      push(text(o, {}, finish, finish === "stop" ? IM_END : null));
    } else if (d.role) push(text(o, { role: "assistant", content: "" }));
    else if (typeof d.reasoning === "string") push(text(o, { reasoning_content: d.reasoning }));
    else if (typeof d.content === "string") push(text(o, { content: d.content }));
    else
      for (const c of d.tool_calls ?? []) {
        calls = true;
        const index = c.index ?? 0;
        if (!mode.parser) {
          // the model's markup, as the text it is
          const opening = c.function?.name !== undefined;
          const start = mode.forced
            ? `${index ? "}, " : "["}{"name": ${JSON.stringify(c.function!.name)}, "parameters": `
            : `${index ? "}\n</tool_call>\n" : ""}<tool_call>\n{"name": ${JSON.stringify(c.function!.name)}, "arguments": `;
          if (opening) open = index;
          push(text(o, { content: opening ? start : (c.function?.arguments ?? "") }));
          continue;
        }
        const first = c.function?.name !== undefined;
        const call = {
          id: first ? callId(o.id + index) : null,
          index,
          type: "function",
          function: { name: first ? c.function!.name : null, arguments: first ? "" : (c.function?.arguments ?? "") },
        };
        push(
          `data: ${JSON.stringify({ ...head(o), choices: [{ index: 0, delta: { role: null, content: null, reasoning_content: null, tool_calls: [call] }, logprobs: null, finish_reason: null, matched_stop: null }], usage: null })}\n\n`,
        );
      }
  }
  return out;
}
