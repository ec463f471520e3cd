// verify.structured (contracts.structured): a completion with response_format json_schema returns content
// that is raw JSON valid against the schema, checked with zod's own JSON Schema reader (no fence, no prose).
// vLLM, SGLang and llama-server all take OpenAI's {"type": "json_schema", "json_schema": {name, schema}}.
import { z } from "zod";
import type { HttpResult } from "../../ports/http/client.js";
import type { Route } from "../../ports/http/route.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { noAnswer, refusal } from "./models.js";
import { replyText } from "./thinking-cases.js";

export const CHECK = "verify.structured";

export const DEFAULT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "integer" }, coastal: { type: "boolean" } },
  required: ["city", "population", "coastal"],
  additionalProperties: false,
};

export const structuredRequest = (model: string, schema: Record<string, unknown>) => ({
  model,
  temperature: 0,
  max_tokens: 1024,
  messages: [
    { role: "user", content: "Give the capital of France, its population and whether it is on the coast, as JSON." },
  ],
  response_format: { type: "json_schema", json_schema: { name: "deploy_gate_check", schema, strict: true } },
});

export const askStructured = (route: Route, model: string, schema: Record<string, unknown>, timeoutMs: number) =>
  route.send("POST", "/v1/chat/completions", structuredRequest(model, schema), timeoutMs);

const FIX =
  "the server does not enforce response_format json_schema: check the engine's structured output backend (vLLM: --structured-outputs-config, which replaced the --guided-decoding-* flags in 0.10.2, PR #22772; SGLang: --grammar-backend; llama-server: a build with json_schema support) and that nothing between the client and the engine drops response_format";

export function checkStructured(
  r: HttpResult,
  schema: Record<string, unknown>,
  url: string,
  via: string,
  live: { model: string; sentKey?: boolean },
): Finding {
  if (r.status === null) return noAnswer(CHECK, "structured-output completion", r, url, via);
  const refused = refusal(CHECK, "structured output", r, `HTTP ${r.status}: ${r.body.slice(0, 200)}`, {
    url,
    via,
    model: live.model,
    sentKey: live.sentKey ?? false,
  });
  if (refused)
    return { ...refused, fix: r.status === 400 ? `${FIX}; the server's words: see the evidence` : refused.fix };
  const content = replyText(r.body)?.content ?? "";
  const evidence = [
    `POST ${url}/v1/chat/completions (response_format json_schema) via ${via}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms`,
    `content: ${JSON.stringify(content.slice(0, 200))}`,
  ];
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return fail(CHECK, `structured output broken: the reply is not JSON (${JSON.stringify(content.slice(0, 60))})`, {
      evidence,
      data: { status: r.status, json: false },
      fix: FIX,
    });
  }
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (e) {
    return fail(CHECK, `contracts.structured.schema cannot be read as a JSON Schema: ${(e as Error).message}`, {
      evidence,
      fix: "correct contracts.structured.schema in deploy-gate.yml (a JSON Schema object)",
    });
  }
  const parsed = validator.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    return fail(CHECK, `structured output not valid against the schema: ${issues.slice(0, 3).join("; ")}`, {
      evidence: [...evidence, ...issues],
      data: { status: r.status, json: true, issues },
      fix: FIX,
    });
  }
  return pass(CHECK, "response_format json_schema: the reply is JSON valid against the schema", {
    evidence,
    data: { status: r.status, json: true },
  });
}
