// verify.liveness: a real one-token completion within a deadline, asked with /health beside it. vLLM's
// /health answers 200 while its engine process lives (reference §2.4), so an engine whose scheduler hangs
// stays green there: a completion that never finishes under a 200 /health is its own class, "wedged".
import type { HttpResult } from "../../ports/http/client.js";
import type { Route } from "../../ports/http/route.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { refusal } from "./models.js";

export const CHECK = "verify.liveness";

export interface LivenessAnswers {
  completion: HttpResult;
  health: HttpResult;
  deadlineMs: number;
}

export const livenessRequest = (model: string) => ({
  model,
  temperature: 0,
  max_tokens: 1,
  messages: [{ role: "user", content: "Reply with the word OK." }],
});

export async function probeLiveness(route: Route, model: string, deadlineMs: number): Promise<LivenessAnswers> {
  const [completion, health] = await Promise.all([
    route.send("POST", "/v1/chat/completions", livenessRequest(model), deadlineMs),
    // the whole deadline: SGLang's /health generates a token itself and answers its 503 only after
    // SGLANG_HEALTH_CHECK_TIMEOUT (20 s; sgl-project/sglang http_server.py at 0025436e)
    route.send("GET", "/health", undefined, deadlineMs),
  ]);
  return { completion, health, deadlineMs };
}

/** Why the other completions are not worth sending (they would hang to their own timeouts), or null. */
export function blockedBy(a: LivenessAnswers): string | null {
  return a.completion.status === null
    ? `the engine did not finish a one-token completion within ${a.deadlineMs} ms (verify.liveness)`
    : null;
}

export function checkLiveness(
  a: LivenessAnswers,
  url: string,
  via: string,
  live: { model: string; sentKey?: boolean },
): Finding {
  const { completion: c, health: h } = a;
  const healthText = h.status !== null ? `HTTP ${h.status}` : `no answer (${h.error ?? "unknown"})`;
  const evidence = [
    `POST ${url}/v1/chat/completions (max_tokens 1) via ${via}: ${c.status !== null ? `HTTP ${c.status}` : (c.error ?? "no answer")} after ${Math.round(c.durationMs)} ms`,
    `GET ${url}/health: ${healthText}`,
  ];
  const base = { healthStatus: h.status, deadlineMs: a.deadlineMs, completionMs: Math.round(c.durationMs) };
  if (c.status === null) {
    if (h.status === 200)
      return fail(
        CHECK,
        `a one-token completion did not finish within ${a.deadlineMs} ms while /health answers 200: the engine is wedged`,
        {
          evidence,
          data: { ...base, class: "wedged" },
          fix: "restart the engine (its unit) and read its journal for the request that hangs (deploy-gate logs); a load balancer or orchestrator that probes /health keeps routing traffic to this engine: probe a one-token completion instead",
        },
      );
    return fail(CHECK, `no answer to a one-token completion within ${a.deadlineMs} ms; /health: ${healthText}`, {
      evidence,
      data: { ...base, class: "down" },
      fix: "the engine is not serving: read its journal (deploy-gate logs) for the error, fix it and redeploy",
    });
  }
  const refused = refusal(CHECK, "liveness", c, `HTTP ${c.status}: ${c.body.slice(0, 200)}`, {
    url,
    via,
    model: live.model,
    sentKey: live.sentKey ?? false,
  });
  if (refused) return { ...refused, evidence, data: { ...refused.data, ...base, class: "refused" } };
  let tokens: number | null = null;
  let hasChoice = false;
  try {
    const j = JSON.parse(c.body) as { choices?: unknown[]; usage?: { completion_tokens?: number } };
    hasChoice = Array.isArray(j.choices) && j.choices.length > 0;
    tokens = j.usage?.completion_tokens ?? null;
  } catch {
    /* judged below: no choices */
  }
  if (!hasChoice)
    return fail(CHECK, `the one-token completion answered HTTP ${c.status} without choices`, {
      evidence: [...evidence, `body: ${c.body.slice(0, 200)}`],
      data: { ...base, class: "bad-reply" },
      fix: "the endpoint is not an OpenAI-compatible chat server at this url (a proxy's page?): check url: in deploy-gate.yml",
    });
  return pass(
    CHECK,
    `a one-token completion answered in ${base.completionMs} ms (/health ${h.status ?? "no answer"})`,
    {
      evidence,
      data: { ...base, class: "live", completionTokens: tokens },
    },
  );
}
