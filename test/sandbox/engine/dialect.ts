// The chat answers of llama-server and SGLang, where their API differs from vLLM's: the vLLM double's answer
// rewritten. SGLang's shapes are in sglang-chat.ts (checked against its source). llama-server (reference §3,
// and ggml-org/llama.cpp tools/server/server-common.cpp at 006639c3, oaicompat_chat_params_parse):
// reasoning as `reasoning_content`, absent when empty; a reply with calls ends "tool_calls" whatever the
// tool_choice; without --jinja, tools are refused with a 500 "tools param requires --jinja flag" and a
// tool_choice other than "auto" with "tool_choice param requires --jinja flag"; tool_choice is read as a
// string (`json_value(body, "tool_choice", std::string("auto"))`), so a named-function object falls back
// to "auto" and forces nothing; `parallel_tool_calls` defaults to false (one call). Pure.
import { chat, type Reply } from "./api.js";
import { newCounters } from "./http.js";
import { makePlan } from "./plan.js";
import { JINJA_REFUSAL } from "./llama.js";
import { sglangJson, sglangStream, type SglangMode } from "./sglang-chat.js";

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
interface Req {
  tools?: unknown[];
  tool_choice?: unknown;
  parallel_tool_calls?: boolean;
}

const llamaError = (message: string): Reply => ({
  status: 500,
  type: "application/json",
  body: JSON.stringify({ error: { code: 500, message, type: "server_error" } }),
});

function rewriteLlama(o: { choices?: Choice[] }, calls: { seen: boolean }): void {
  for (const c of o.choices ?? []) {
    const m = c.message ?? c.delta;
    if (m) {
      if (typeof m.reasoning === "string" && m.reasoning !== "") m.reasoning_content = m.reasoning;
      delete m.reasoning;
      if (Array.isArray(m.tool_calls) && m.tool_calls.length) calls.seen = true;
      if (Array.isArray(m.tool_calls) && !m.tool_calls.length) delete m.tool_calls;
    }
    if (c.finish_reason && calls.seen) c.finish_reason = "tool_calls";
  }
}

export function liteChat(e: LiteChat, body: string): Reply {
  let req: Req = {};
  try {
    req = JSON.parse(body) as Req;
  } catch {
    /* vLLM's double answers the parse error */
  }
  const tools = Array.isArray(req.tools) && req.tools.length > 0;
  const env: Record<string, string> = { FAKE_DECODE_TOK_S: "2000" };
  let sent = body;
  if (e.dialect === "llama.cpp") {
    const choice = typeof req.tool_choice === "string" ? req.tool_choice : "auto";
    if (!e.jinja && tools) return { ...llamaError("tools param requires --jinja flag"), body: JINJA_REFUSAL };
    if (!e.jinja && choice !== "auto") return llamaError("tool_choice param requires --jinja flag");
    // an object is not a string: llama-server serves it as "auto"; one call unless parallel_tool_calls
    if (tools && typeof req.tool_choice !== "string") sent = JSON.stringify({ ...req, tool_choice: "auto" });
    if (req.parallel_tool_calls !== true) env.FAKE_BREAK = "tool-parallel";
  }
  const args = ["/m", "--served-model-name", e.served];
  if (e.reasoning) args.push("--reasoning-parser", "qwen3");
  // SGLang without a parser still has the model write its calls (as text): the vLLM double makes them
  if (e.tools || e.dialect === "sglang") args.push("--enable-auto-tool-choice", "--tool-call-parser", "hermes");
  const r = chat(makePlan(args, env), sent, newCounters(), Date.now());
  if (r.status !== 200) return r;
  if (e.dialect === "sglang") {
    const mode: SglangMode = {
      parser: e.tools,
      forced: req.tool_choice === "required" || typeof req.tool_choice === "object",
    };
    if (!r.timed) return { ...r, body: JSON.stringify(sglangJson(JSON.parse(r.body), mode)) };
    const timed = sglangStream(r.timed, mode);
    return { ...r, timed, body: timed.map((p) => p.text).join("") };
  }
  const calls = { seen: false };
  if (!r.timed) {
    const o = JSON.parse(r.body) as { choices?: Choice[] };
    rewriteLlama(o, calls);
    return { ...r, body: JSON.stringify(o) };
  }
  const timed = r.timed.map((p) => {
    if (!p.text.startsWith("data: {")) return p;
    const o = JSON.parse(p.text.slice(6)) as { choices?: Choice[] };
    rewriteLlama(o, calls);
    return { ...p, text: `data: ${JSON.stringify(o)}\n\n` };
  });
  return { ...r, timed, body: timed.map((p) => p.text).join("") };
}
