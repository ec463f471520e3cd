// verify.thinking's streamed and thinking-off cases: the request each sends and the verdict on its
// answer. Streamed, the reasoning parser must still split the deltas (vLLM's serving.py runs
// extract_reasoning_streaming per delta); with chat_template_kwargs {"enable_thinking": false} the template
// closes an empty think block, so no reasoning comes back and the answer arrives once. Pure.
import type { HttpResult } from "../../ports/http/client.js";
import type { StreamResult } from "../../ports/http/sse.js";
import { joinStream } from "./stream-message.js";

export type ThinkingCase = "plain" | "stream" | "off";
export interface ThinkingAnswers {
  plain: HttpResult;
  stream: StreamResult;
  off: HttpResult;
}
export interface ThinkVerdict {
  ok: boolean;
  reason: string;
}

export function thinkingRequest(model: string): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: 512,
    messages: [{ role: "user", content: "What is 17 + 25? Think it through, then answer with the number." }],
  };
}
export const thinkingStreamRequest = (model: string) => ({ ...thinkingRequest(model), stream: true });
export const thinkingOffRequest = (model: string) => ({
  ...thinkingRequest(model),
  chat_template_kwargs: { enable_thinking: false },
});

const CLOSE = "</think>";
const clip = (s: string) => JSON.stringify(s.slice(0, 80));

export function judgeStream(s: StreamResult): ThinkVerdict {
  if (s.status === null) return { ok: false, reason: `no answer: ${s.error ?? "unknown error"}` };
  if (s.status !== 200) return { ok: false, reason: `HTTP ${s.status}: ${(s.body ?? "").slice(0, 160)}` };
  const j = joinStream(s);
  if (j.content.includes(CLOSE))
    return { ok: false, reason: `${CLOSE} in content: the thinking streamed inline (${clip(j.content)})` };
  if (!j.reasoning.trim()) return { ok: false, reason: "no reasoning deltas (reasoning and reasoning_content empty)" };
  return { ok: true, reason: `reasoning deltas (${j.reasoning.length} chars), content free of ${CLOSE}` };
}

/** The answer written twice in a row ("42 42", "ab\n\nab"): the duplicated-content bug, with or without reasoning. */
function doubled(s: string): boolean {
  const t = s.trim();
  if (t.length < 8) return false;
  for (const cut of [t.length / 2, (t.length - 1) / 2, (t.length - 2) / 2]) {
    if (!Number.isInteger(cut)) continue;
    const a = t.slice(0, cut).trim();
    if (a.length > 3 && a === t.slice(t.length - cut).trim()) return true;
  }
  return false;
}

/** choices[0].message's content and reasoning (`reasoning`, else `reasoning_content`); null if not JSON. */
export function replyText(body: string): { content: string; reasoning: unknown } | null {
  try {
    const m = (
      JSON.parse(body) as {
        choices?: { message?: { content?: unknown; reasoning?: unknown; reasoning_content?: unknown } }[];
      }
    ).choices?.[0]?.message;
    return {
      content: typeof m?.content === "string" ? m.content : "",
      reasoning: m?.reasoning ?? m?.reasoning_content ?? null,
    };
  } catch {
    return null;
  }
}

export function judgeOff(r: HttpResult): ThinkVerdict {
  if (r.status === null) return { ok: false, reason: `no answer: ${r.error ?? "unknown error"}` };
  if (r.status < 200 || r.status >= 300) return { ok: false, reason: `HTTP ${r.status}: ${r.body.slice(0, 160)}` };
  const m = replyText(r.body);
  if (!m) return { ok: false, reason: `the body is not JSON: ${r.body.slice(0, 120)}` };
  const content = m.content;
  const reasoning = typeof m.reasoning === "string" ? m.reasoning : "";
  if (reasoning.trim() && content.trim() && reasoning.trim() === content.trim())
    return { ok: false, reason: `the answer came back duplicated, in reasoning and in content (${clip(content)})` };
  if (doubled(content)) return { ok: false, reason: `content duplicated: ${clip(content)}` };
  if (reasoning.trim())
    return { ok: false, reason: `reasoning still present (${reasoning.length} chars): thinking was not turned off` };
  if (content.includes(CLOSE)) return { ok: false, reason: `${CLOSE} in content with thinking off` };
  if (!content.trim()) return { ok: false, reason: "no content with thinking off" };
  return { ok: true, reason: `no reasoning, the answer once (${content.length} chars)` };
}
