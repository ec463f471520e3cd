// verify.thinking over real HTTP against the engine double on loopback: not streamed, streamed, and with
// thinking turned off through chat_template_kwargs; each FAKE_BREAK fails exactly its case.
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { askThinkingCases, checkThinkingMatrix } from "../../../src/stages/verify/thinking.js";
import { FULL_ARGS, serveDouble } from "../../sandbox/engine/loopback.js";

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

async function thinking(args: readonly string[] = FULL_ARGS, env: Record<string, string> = {}) {
  const d = await serveDouble(args, env);
  closers.push(d.close);
  const answers = await askThinkingCases(runnerRoute(d.url, {}), "qwen", 20_000);
  const parser = args.includes("--reasoning-parser") ? args[args.indexOf("--reasoning-parser") + 1]! : null;
  return checkThinkingMatrix(answers, d.url, "runner", {
    reasoningParser: parser,
    engineTemplateFlags: [],
    model: "qwen",
  });
}

describe("verify.thinking: streamed, not streamed, and turned off", () => {
  it("passes every case against a faithful engine", async () => {
    const f = await thinking();
    expect(f.status, JSON.stringify(f)).toBe("pass");
    const cases = (f.data as { cases: Record<string, { ok: boolean }> }).cases;
    expect(Object.keys(cases)).toEqual(["plain", "stream", "off"]);
    expect(f.summary).toMatch(/streamed too.*turned off/);
  });

  it("FAKE_BREAK=think-stream: the streamed reply carries the think tag in content", async () => {
    const f = await thinking(FULL_ARGS, { FAKE_BREAK: "think-stream" });
    expect(f.status).toBe("fail");
    expect((f.data as { failed: string[] }).failed).toEqual(["stream"]);
    expect(f.summary).toMatch(/streamed: .*<\/think> in content/);
    expect(f.fix).toMatch(/stream/);
  });

  it("FAKE_BREAK=think-off: the answer duplicated into reasoning with thinking off", async () => {
    const f = await thinking(FULL_ARGS, { FAKE_BREAK: "think-off" });
    expect(f.status).toBe("fail");
    expect((f.data as { failed: string[] }).failed).toEqual(["off"]);
    expect(f.summary).toMatch(/enable_thinking false: .*duplicated/);
    expect(f.fix).toMatch(/enable_thinking/);
  });

  it("no --reasoning-parser: the plain case names the missing flag (streamed and off judged too)", async () => {
    const f = await thinking(FULL_ARGS.filter((a) => a !== "--reasoning-parser" && a !== "qwen3"));
    expect(f.status).toBe("fail");
    expect(f.fix).toMatch(/no --reasoning-parser/);
    expect((f.data as { failed: string[] }).failed).toEqual(["plain", "stream"]);
  });
});
