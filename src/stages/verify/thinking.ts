// verify.thinking: a temperature-0 completion puts the thinking in the reasoning field, not in content.
import { checkThinking as verdictOf } from "../../domain/engine/vllm/contracts.js";
import type { HttpResult } from "../../ports/http/client.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { noAnswer, refusal } from "./models.js";

export const CHECK = "verify.thinking";

export function thinkingRequest(model: string): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: 512,
    messages: [{ role: "user", content: "What is 17 + 25? Think it through, then answer with the number." }],
  };
}

export interface ThinkingContext {
  reasoningParser: string | null;
  engineTemplateFlags: string[];
  model?: string;
  sentKey?: boolean;
}

export function checkThinkingResult(r: HttpResult, url: string, via: string, live: ThinkingContext): Finding {
  if (r.status === null) return noAnswer(CHECK, "chat completion", r, url, via);
  const v = verdictOf({ status: r.status, body: r.body });
  const refused = refusal(CHECK, "thinking contract", r, v.reason, {
    url,
    via,
    model: live.model ?? "MODEL",
    sentKey: live.sentKey ?? false,
  });
  if (refused) return refused;
  let content = "";
  let reasoning: unknown = null;
  try {
    const m = (
      JSON.parse(r.body) as {
        choices?: { message?: { content?: unknown; reasoning?: unknown; reasoning_content?: unknown } }[];
      }
    ).choices?.[0]?.message;
    content = typeof m?.content === "string" ? m.content : "";
    reasoning = m?.reasoning ?? m?.reasoning_content ?? null;
  } catch {
    /* the verdict already says what is wrong with the body */
  }
  const evidence = [
    `POST ${url}/v1/chat/completions (temperature 0) via ${via}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms`,
    v.reason,
    `content: ${JSON.stringify(content.slice(0, 160))}`,
    `reasoning: ${reasoning === null ? "null" : JSON.stringify(String(reasoning).slice(0, 160))}`,
  ];
  const data = {
    status: r.status,
    gap: v.gap,
    reasoningChars: typeof reasoning === "string" ? reasoning.length : 0,
    thinkTagInContent: content.includes("</think>"),
    reasoningParser: live.reasoningParser,
  };
  if (v.ok)
    return pass(CHECK, `reasoning arrives in its own field (${data.reasoningChars} chars), content clean`, {
      evidence,
      data,
    });
  let fix: string;
  if (!live.reasoningParser)
    fix =
      "the live argv has no --reasoning-parser: add it to the serve script (for Qwen3: --reasoning-parser qwen3) and redeploy";
  else if (live.engineTemplateFlags.length)
    fix = `${live.engineTemplateFlags.join(", ")} are chat-template variables, not engine flags: pass them as --default-chat-template-kwargs '{"enable_thinking": true}' (or chat_template_kwargs in the request body)`;
  else
    fix = `--reasoning-parser ${live.reasoningParser} is set but thinking still leaks: check the parser matches the model family and that enable_thinking is in --default-chat-template-kwargs or the request's chat_template_kwargs, not a top-level body field`;
  return fail(CHECK, `thinking contract broken: ${v.reason}`, { evidence, data, fix });
}
