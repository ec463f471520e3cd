// verify.structured over real HTTP against the engine double on loopback: response_format json_schema
// returns JSON valid against the schema; prose, fenced JSON or a wrong type fails with the path.
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import type { HttpResult } from "../../../src/ports/http/client.js";
import { askStructured, checkStructured, DEFAULT_SCHEMA } from "../../../src/stages/verify/structured.js";
import { FULL_ARGS, serveDouble } from "../../sandbox/engine/loopback.js";

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function structured(env: Record<string, string> = {}, schema: Record<string, unknown> = DEFAULT_SCHEMA) {
  const d = await serveDouble(FULL_ARGS, env);
  closers.push(d.close);
  const r = await askStructured(runnerRoute(d.url, {}), "qwen", schema, 20_000);
  return checkStructured(r, schema, d.url, "runner", { model: "qwen" });
}
const reply = (content: string): HttpResult => ({
  status: 200,
  body: JSON.stringify({ choices: [{ message: { content }, finish_reason: "stop" }] }),
  error: null,
  durationMs: 5,
});

describe("verify.structured", () => {
  it("passes schema-valid JSON from a faithful engine, the built-in schema or a declared one", async () => {
    const f = await structured();
    expect(f.status, JSON.stringify(f)).toBe("pass");
    expect(f.summary).toMatch(/valid against the schema/);
    const own = {
      type: "object",
      properties: {
        sku: { type: "string" },
        qty: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["sku", "qty", "tags"],
      additionalProperties: false,
    };
    expect((await structured({}, own)).status).toBe("pass");
  });

  it("FAKE_BREAK=structured (response_format ignored): fails, the reply is not JSON", async () => {
    const f = await structured({ FAKE_BREAK: "structured" });
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/not JSON/);
    expect(f.fix).toMatch(/structured output/);
  });

  it("names the path of a wrong type and refuses JSON in a code fence", () => {
    const wrong = checkStructured(
      reply('{"city": "Paris", "population": "two million", "coastal": false}'),
      DEFAULT_SCHEMA,
      "u",
      "runner",
      { model: "q" },
    );
    expect(wrong.status).toBe("fail");
    expect(wrong.summary).toMatch(/not valid against the schema: population: /);
    const fenced = checkStructured(
      reply('```json\n{"city": "Paris", "population": 2, "coastal": false}\n```'),
      DEFAULT_SCHEMA,
      "u",
      "runner",
      { model: "q" },
    );
    expect(fenced.summary).toMatch(/not JSON/);
    const ok = checkStructured(
      reply('{"city":"Paris","population":2,"coastal":false}'),
      DEFAULT_SCHEMA,
      "u",
      "runner",
      {
        model: "q",
      },
    );
    expect(ok.status).toBe("pass");
  });
});
