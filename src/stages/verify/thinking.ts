// verify.thinking: a temperature-0 completion puts the thinking in the reasoning field, not in content;
// streamed too, and with thinking turned off no reasoning comes back and the answer arrives once.
import { checkThinking as verdictOf } from "../../domain/engine/vllm/contracts.js";
import type { HttpResult } from "../../ports/http/client.js";
import type { Route } from "../../ports/http/route.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { noAnswer, refusal } from "./models.js";
import {
  judgeOff,
  judgeStream,
  replyText,
  thinkingOffRequest,
  thinkingRequest,
  thinkingStreamRequest,
  type ThinkingAnswers,
  type ThinkVerdict,
} from "./thinking-cases.js";

export const CHECK = "verify.thinking";
export { thinkingRequest };

/** The three at once: not streamed, streamed, thinking off. */
export async function askThinkingCases(route: Route, model: string, timeoutMs: number): Promise<ThinkingAnswers> {
  const path = "/v1/chat/completions";
  const [plain, stream, off] = await Promise.all([
    route.send("POST", path, thinkingRequest(model), timeoutMs),
    route.stream(path, thinkingStreamRequest(model), timeoutMs),
    route.send("POST", path, thinkingOffRequest(model), timeoutMs),
  ]);
  return { plain, stream, off };
}

const LABEL = { plain: "not streamed", stream: "streamed", off: "enable_thinking false" } as const;

/** verify.thinking from the three answers: the plain case's finding when it fails (its fix names the
 *  flag); else the streamed and thinking-off verdicts. */
export function checkThinkingMatrix(a: ThinkingAnswers, url: string, via: string, live: ThinkingContext): Finding {
  const plain = checkThinkingResult(a.plain, url, via, live);
  const cases: Record<keyof typeof LABEL, ThinkVerdict> = {
    plain: { ok: plain.status === "pass", reason: plain.summary },
    stream: judgeStream(a.stream),
    off: judgeOff(a.off),
  };
  const failed = (Object.keys(cases) as (keyof typeof LABEL)[]).filter((c) => !cases[c].ok);
  const lines = failed.filter((c) => c !== "plain").map((c) => `${LABEL[c]}: ${cases[c].reason}`);
  const data = { ...plain.data, cases, failed };
  if (plain.status !== "pass") return { ...plain, evidence: [...(plain.evidence ?? []), ...lines], data };
  const evidence = [
    ...(plain.evidence ?? []),
    `streamed: ${cases.stream.reason}`,
    `enable_thinking false: ${cases.off.reason}`,
  ];
  if (!failed.length)
    return pass(CHECK, `${plain.summary}; streamed too; none with thinking turned off, the answer once`, {
      evidence,
      data,
    });
  const parser = live.reasoningParser ?? "<parser>";
  const fixes = {
    stream: `streamed replies skip the split: clients that stream see the raw thinking; --reasoning-parser ${parser} is set, so check it is the parser for this model family and that the engine version splits streamed deltas (upgrade it if not)`,
    off: `with chat_template_kwargs {"enable_thinking": false} the reply still carries reasoning or the answer twice: check the model's chat template honours enable_thinking and that --reasoning-parser ${parser} does not copy the answer into reasoning when no think block comes (an engine upgrade fixes several)`,
  };
  return fail(CHECK, `thinking contract broken: ${lines.join("; ")}`, {
    evidence,
    data,
    fix: failed.map((c) => fixes[c as "stream" | "off"]).join("; "),
  });
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
  // the verdict already says what is wrong with a body that is not JSON
  const { content, reasoning } = replyText(r.body) ?? { content: "", reasoning: null };
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
