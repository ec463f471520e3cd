// A chat request the server refuses (auth, model name, engine error) leaves the thinking and tool
// contracts unchecked: the finding says so and names what to change, never a parser fault.
import { describe, expect, it } from "vitest";
import type { HttpResult } from "../../../src/ports/http/client.js";
import { checkThinkingResult } from "../../../src/stages/verify/thinking.js";
import { checkToolsResult } from "../../../src/stages/verify/tools.js";

const http = (status: number, body: unknown): HttpResult => ({
  status,
  body: JSON.stringify(body),
  error: null,
  durationMs: 5,
});
const thinkingLive = (sentKey: boolean) => ({
  reasoningParser: "qwen3",
  engineTemplateFlags: [],
  model: "qwen",
  sentKey,
});
const toolsLive = (sentKey: boolean) => ({ autoToolChoice: true, toolCallParser: "qwen3_xml", model: "qwen", sentKey });

describe("verify.thinking and verify.tools on a refused request", () => {
  it("a 401 names DEPLOY_GATE_API_KEY, unset or refused, not the parser", () => {
    const r = http(401, { error: "Unauthorized" });
    const t = checkThinkingResult(r, "http://h:1", "runner", thinkingLive(false));
    expect(t).toMatchObject({ status: "fail", summary: "thinking contract not checked: HTTP 401: Unauthorized" });
    expect(t.fix).toMatch(/DEPLOY_GATE_API_KEY \(it is unset\)/);
    expect(t.fix).not.toMatch(/leaks/);
    const u = checkToolsResult(http(403, { error: "Forbidden" }), "http://h:1", "runner", toolsLive(true));
    expect(u.summary).toBe("tool contract not checked: HTTP 403: Forbidden");
    expect(u.fix).toMatch(/refused the key in DEPLOY_GATE_API_KEY/);
    expect(u.fix).not.toMatch(/parser/);
  });
  it("a 404 for the model names --served-model-name", () => {
    const r = http(404, {
      error: { message: "The model `Qwen3-8B` does not exist.", type: "NotFoundError", code: 404 },
    });
    const t = checkThinkingResult(r, "u", "runner", { ...thinkingLive(false), model: "Qwen3-8B" });
    expect(t.summary).toMatch(/^thinking contract not checked: HTTP 404: The model `Qwen3-8B` does not exist/);
    expect(t.fix).toMatch(/--served-model-name Qwen3-8B/);
    expect(checkToolsResult(r, "u", "runner", { ...toolsLive(false), model: "Qwen3-8B" }).fix).toMatch(
      /--served-model-name Qwen3-8B/,
    );
  });
  it("a 500 points at the engine's log; the tool-choice 400 is still the config gap", () => {
    const t = checkToolsResult(http(500, { error: { message: "EngineCore died" } }), "u", "runner", toolsLive(false));
    expect(t.summary).toBe("tool contract not checked: HTTP 500: EngineCore died");
    expect(t.fix).toMatch(/journal/);
    const gap = checkToolsResult(
      http(400, {
        error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
      }),
      "u",
      "runner",
      { ...toolsLive(false), autoToolChoice: false, toolCallParser: null },
    );
    expect(gap.summary).toMatch(/not configured for auto tool choice/);
  });
});
