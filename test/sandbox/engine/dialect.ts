// The chat answers of llama-server and SGLang, where their API differs from vLLM's (reference §3 for
// llama.cpp): the vLLM double's answer rewritten. Reasoning comes as `reasoning_content`, absent when empty
// (llama.cpp) rather than vLLM's `reasoning: null`; a reply with calls ends "tool_calls" whatever the
// tool_choice (llama.cpp: `finish_reason = tool_calls.empty() ? "stop" : "tool_calls"`); llama-server
// without --jinja refuses tools with a 500 "tools param requires --jinja flag". SGLang is given the same
// reasoning_content field and "tool_calls" finish (not checked against its source here). Pure.
import { chat, type Reply } from "./api.js";
import { newCounters } from "./http.js";
import { makePlan } from "./plan.js";
import { JINJA_REFUSAL } from "./llama.js";

export type Dialect = "llama.cpp" | "sglang";
export interface LiteChat {
  dialect: Dialect;
  served: string;
  /** llama-server --jinja (tools need it) */
  jinja: boolean;
  /** reasoning split out (llama.cpp's --reasoning-format default, SGLang's --reasoning-parser) */
  reasoning: boolean;
  /** tool calls parsed (llama.cpp with --jinja, SGLang with --tool-call-parser) */
  tools: boolean;
}

type Msg = Record<string, unknown> & { tool_calls?: unknown[]; reasoning?: unknown };
interface Choice {
  message?: Msg;
  delta?: Msg;
  finish_reason?: string | null;
}

function rewrite(d: Dialect, o: { choices?: Choice[] }, calls: { seen: boolean }): void {
  for (const c of o.choices ?? []) {
    const m = c.message ?? c.delta;
    if (m) {
      if (typeof m.reasoning === "string" && m.reasoning !== "") m.reasoning_content = m.reasoning;
      delete m.reasoning;
      if (Array.isArray(m.tool_calls) && m.tool_calls.length) calls.seen = true;
      if (d === "llama.cpp" && Array.isArray(m.tool_calls) && !m.tool_calls.length) delete m.tool_calls;
    }
    if (c.finish_reason && calls.seen) c.finish_reason = "tool_calls";
  }
}

export function liteChat(e: LiteChat, body: string): Reply {
  let tools = false;
  try {
    tools = Array.isArray((JSON.parse(body) as { tools?: unknown[] }).tools);
  } catch {
    /* vLLM's double answers the parse error */
  }
  if (tools && e.dialect === "llama.cpp" && !e.jinja)
    return { status: 500, type: "application/json", body: JINJA_REFUSAL };
  const args = ["/m", "--served-model-name", e.served];
  if (e.reasoning) args.push("--reasoning-parser", "qwen3");
  if (e.tools) args.push("--enable-auto-tool-choice", "--tool-call-parser", "hermes");
  const r = chat(makePlan(args, { FAKE_DECODE_TOK_S: "2000" }), body, newCounters(), Date.now());
  const calls = { seen: false };
  if (!r.timed) {
    if (r.status !== 200) return r;
    const o = JSON.parse(r.body) as { choices?: Choice[] };
    rewrite(e.dialect, o, calls);
    return { ...r, body: JSON.stringify(o) };
  }
  const timed = r.timed.map((p) => {
    if (!p.text.startsWith("data: {")) return p;
    const o = JSON.parse(p.text.slice(6)) as { choices?: Choice[] };
    rewrite(e.dialect, o, calls);
    return { ...p, text: `data: ${JSON.stringify(o)}\n\n` };
  });
  return { ...r, timed, body: timed.map((p) => p.text).join("") };
}
