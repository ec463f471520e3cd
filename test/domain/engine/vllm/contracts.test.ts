import { describe, expect, it } from "vitest";
import { checkThinking, checkTools } from "../../../../src/domain/engine/vllm/contracts.js";
import { vllm } from "../../../../src/domain/engine/vllm/index.js";
import { fixture } from "../../../fixtures/journal/classes/fixture.js";

const chat = (message: object, finish = "stop") =>
  JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }] });

describe("checkThinking", () => {
  it("passes with reasoning (v0.16+) or reasoning_content (≤0.11, llama.cpp)", () => {
    expect(checkThinking({ status: 200, body: chat({ content: "4", reasoning: "2+2" }) }).ok).toBe(true);
    expect(checkThinking({ status: 200, body: chat({ content: "4", reasoning_content: "2+2" }) }).ok).toBe(true);
  });

  it("names a missing reasoning parser when thinking lands inline or reasoning is null", () => {
    const inline = checkThinking({
      status: 200,
      body: chat({ content: "<think>hmm</think>4", reasoning: null, reasoning_content: null }),
    });
    expect(inline).toMatchObject({ ok: false, gap: "reasoning-parser-missing" });
    expect(inline.reason).toContain("</think>");
    expect(checkThinking({ status: 200, body: chat({ content: "4", reasoning: null }) })).toMatchObject({
      ok: false,
      gap: "reasoning-parser-missing",
    });
  });
});

describe("checkTools", () => {
  const call = (args: string) => ({
    content: null,
    tool_calls: [{ id: "chatcmpl-tool-1", type: "function", function: { name: "get_weather", arguments: args } }],
  });

  it("passes with parseable arguments and finish_reason tool_calls", () => {
    expect(checkTools({ status: 200, body: chat(call('{"city":"Oslo"}'), "tool_calls") })).toMatchObject({
      ok: true,
      gap: null,
    });
  });

  it("fails on unparseable arguments, a stop finish, or no calls", () => {
    expect(checkTools({ status: 200, body: chat(call('{"city":'), "tool_calls") }).reason).toContain("not JSON");
    expect(checkTools({ status: 200, body: chat(call("{}"), "stop") }).reason).toContain('expected "tool_calls"');
    expect(checkTools({ status: 200, body: chat({ content: "It is sunny" }) }).ok).toBe(false);
  });

  it.each([
    ["tools-400-v0101.json", 400],
    ["tools-400-pre0101.json", 400],
    ["llamacpp-jinja-500.json", 500],
  ])("names the config gap in %s", (name, status) => {
    expect(checkTools({ status, body: fixture(name) })).toMatchObject({ ok: false, gap: "tools-not-enabled" });
  });

  it("does not call any 400 a config gap", () => {
    expect(
      checkTools({
        status: 400,
        body: '{"error":{"message":"max_tokens is too large","type":"BadRequestError","code":400}}',
      }).gap,
    ).toBeNull();
  });

  it("is reachable through the engine interface", () => {
    expect(vllm.checkTools({ status: 400, body: fixture("tools-400-v0101.json") }).gap).toBe("tools-not-enabled");
  });
});
