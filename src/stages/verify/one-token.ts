// verify.liveness: one real completion of one token. A /health or /v1/models that answers proves a
// listening server, not an engine that generates: a wedged engine core keeps both green.
import type { HttpResult } from "../../ports/http/client.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { refusal, type Asked } from "./models.js";

export const CHECK = "verify.liveness";

export function oneTokenRequest(model: string): Record<string, unknown> {
  return { model, temperature: 0, max_tokens: 1, messages: [{ role: "user", content: "Say OK." }] };
}

export function checkLiveness(r: HttpResult, a: Asked, deadlineMs: number): Finding {
  const where = `POST ${a.url}/v1/chat/completions (max_tokens 1) via ${a.via}`;
  if (r.status === null) {
    return fail(
      CHECK,
      `no completion within ${deadlineMs} ms: the engine does not generate (${r.error ?? "no answer"})`,
      {
        evidence: [`${where}: ${r.error ?? "no answer"} after ${Math.round(r.durationMs)} ms`],
        data: { status: null, ms: Math.round(r.durationMs) },
        fix: "the server listens but its engine does not answer a one-token completion: read the engine's log (a hung engine core, a stuck collective, a GPU fault), restart it, and rerun deploy-gate verify",
      },
    );
  }
  const refused = refusal(CHECK, "liveness", r, `HTTP ${r.status}: ${r.body.slice(0, 300)}`, a);
  if (refused) return refused;
  let tokens: number | null = null;
  let choices = 0;
  try {
    const j = JSON.parse(r.body) as { choices?: unknown[]; usage?: { completion_tokens?: unknown } };
    choices = Array.isArray(j.choices) ? j.choices.length : 0;
    tokens = typeof j.usage?.completion_tokens === "number" ? j.usage.completion_tokens : null;
  } catch {
    /* judged below: no choices */
  }
  const evidence = [
    `${where}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms, ${choices} choice(s), completion_tokens ${tokens ?? "n/a"}`,
  ];
  const data = { status: r.status, ms: Math.round(r.durationMs), completionTokens: tokens };
  if (choices === 0 || tokens === 0)
    return fail(CHECK, "the one-token completion came back with no token", {
      evidence: [...evidence, `body: ${r.body.slice(0, 300)}`],
      data,
      fix: "the engine answered without generating: read its log for the request, fix it and rerun deploy-gate verify",
    });
  return pass(CHECK, `a one-token completion in ${Math.round(r.durationMs)} ms`, { evidence, data });
}
