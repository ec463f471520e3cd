// The client-contract checks against llama-server's and SGLang's answers where they differ from vLLM's
// (reasoning_content absent when empty, "tool_calls" for a named call, llama-server's --jinja), served on
// loopback by the double (real HTTP).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { runnerRoute } from "../../../src/ports/http/route.js";
import { askThinkingCases, checkThinkingMatrix } from "../../../src/stages/verify/thinking.js";
import { askToolCases, checkToolMatrix } from "../../../src/stages/verify/tools.js";
import { askStructured, checkStructured, DEFAULT_SCHEMA } from "../../../src/stages/verify/structured.js";
import { liteChat, type LiteChat } from "../../sandbox/engine/dialect.js";

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serve(e: LiteChat): Promise<string> {
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r = liteChat(e, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(r.status, { "content-type": r.type ?? "application/json" });
      res.end(r.body);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const live = { autoToolChoice: true, toolCallParser: "hermes", model: "q" };

describe.for(["llama.cpp", "sglang"] as const)("%s's answers", (dialect) => {
  it("pass the tool matrix, thinking (reasoning_content) and structured output", async () => {
    const url = await serve({ dialect, served: "q", jinja: true, reasoning: true, tools: true });
    const route = runnerRoute(url, {});
    const tools = checkToolMatrix(await askToolCases(route, "q", 20_000), url, "runner", live);
    expect(tools.status, JSON.stringify(tools)).toBe("pass");
    const thinking = checkThinkingMatrix(await askThinkingCases(route, "q", 20_000), url, "runner", {
      reasoningParser: "qwen3",
      engineTemplateFlags: [],
      model: "q",
    });
    expect(thinking.status, JSON.stringify(thinking)).toBe("pass");
    const structured = checkStructured(
      await askStructured(route, "q", DEFAULT_SCHEMA, 20_000),
      DEFAULT_SCHEMA,
      url,
      "runner",
      {
        model: "q",
      },
    );
    expect(structured.status).toBe("pass");
  });
});

describe("llama-server without --jinja", () => {
  it("refuses tools with a 500: a flags gap whose fix is --jinja", async () => {
    const url = await serve({ dialect: "llama.cpp", served: "q", jinja: false, reasoning: true, tools: false });
    const f = checkToolMatrix(await askToolCases(runnerRoute(url, {}), "q", 20_000), url, "runner", {
      autoToolChoice: false,
      toolCallParser: null,
      model: "q",
    });
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/HTTP 500/);
    expect(f.fix).toMatch(/^a server config gap, not a model fault: start llama-server with --jinja/);
  });
});
