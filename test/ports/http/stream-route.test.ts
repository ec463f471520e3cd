// Timed streams on all three routes against a real SSE server on loopback: the runner (fetch), the peer
// (real bash + curl, timed with $EPOCHREALTIME on the peer) and the tunnel (HTTP over a handed-in stream).
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { argvHost } from "../../helpers/argv-host.js";
import { parseSample } from "../../../src/stages/verify/decode-stream.js";
import { peerRoute, runnerRoute, tunnelRoute } from "../../../src/ports/http/route.js";

let server: Server;
let base: string;
const TTFT = 300,
  GAP = 80,
  TOKENS = 6;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n');
      for (let i = 0; i < TOKENS; i++) {
        setTimeout(
          () => res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `tok${i} ` } }] })}\n\n`),
          TTFT + i * GAP,
        );
      }
      setTimeout(
        () =>
          res.end(
            `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "length" }] })}\n\ndata: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: TOKENS } })}\n\ndata: [DONE]\n\n`,
          ),
        TTFT + TOKENS * GAP,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const localHost = argvHost;

describe("timed streams", () => {
  const routes = () =>
    [
      ["runner", runnerRoute(base, {})],
      ["peer", peerRoute(localHost, base, {})],
      ["tunnel", tunnelRoute("h", async (host, p) => connect(p, host), base, {})],
    ] as const;
  it.for(["runner", "peer", "tunnel"])("%s: TTFT at the first token, wall at the end, usage read", async (name) => {
    const route = routes().find(([n]) => n === name)![1];
    const r = await route.stream("/v1/chat/completions", { stream: true }, 10_000);
    expect(r.status).toBe(200);
    const s = parseSample(r);
    expect(s.completionTokens).toBe(TOKENS);
    expect(s.finishReason).toBe("length");
    expect(s.text).toBe(Array.from({ length: TOKENS }, (_, i) => `tok${i} `).join(""));
    // Timers never fire early: the lower bounds hold on any machine. A loaded one only delays, so the upper
    // bounds are loose, there to catch a clock read at the wrong event, not to time the machine.
    expect(s.ttftMs!).toBeGreaterThan(TTFT - 30);
    expect(s.ttftMs!).toBeLessThan(TTFT + 5000);
    expect(s.wallMs).toBeGreaterThan(TTFT + TOKENS * GAP - 30);
    expect(s.wallMs - s.ttftMs!).toBeLessThan(TOKENS * GAP + 5000);
  });
  it("no answer is a null status with the reason", async () => {
    const r = await peerRoute(localHost, "http://127.0.0.1:1", {}).stream("/v1/chat/completions", {}, 3000);
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/from local/);
    expect((await runnerRoute("http://127.0.0.1:1", {}).stream("/x", {}, 3000)).status).toBeNull();
  });
});
