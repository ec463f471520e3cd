// The runner's timed stream (node:http, keep-alive): pieces stamped as they arrive, a non-200 body kept,
// a stream cut mid-way reported as no complete answer, a server that never answers as a timeout.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamFromRunner } from "../../../src/ports/http/stream-route.js";

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/ok") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write('data: {"n":1}\n\n');
        setTimeout(() => res.end('data: {"n":2}\n\ndata: [DONE]\n\n'), 30);
      } else if (req.url === "/bad") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end('{"error":{"message":"nope"}}');
      } else if (req.url === "/cut") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write('data: {"n":1}\n\n');
        setTimeout(() => res.socket?.destroy(), 20);
      } // /hang: never answered
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe("streamFromRunner", () => {
  it("stamps each piece as it arrives", async () => {
    const r = await streamFromRunner(`${url}/ok`, {}, {}, 10_000);
    expect(r.status).toBe(200);
    expect(r.events.map((e) => e.data)).toEqual(['{"n":1}', '{"n":2}', "[DONE]"]);
    expect(r.events[1]!.atMs).toBeGreaterThan(r.events[0]!.atMs);
  });
  it("keeps a refusal's body, reports a cut stream and a silent server", async () => {
    expect(await streamFromRunner(`${url}/bad`, {}, {}, 10_000)).toMatchObject({
      status: 400,
      body: '{"error":{"message":"nope"}}',
    });
    expect(await streamFromRunner(`${url}/cut`, {}, {}, 10_000)).toMatchObject({
      status: null,
      error: expect.stringMatching(/^the stream was cut/),
    });
    expect(await streamFromRunner(`${url}/hang`, {}, {}, 300)).toMatchObject({
      status: null,
      error: "no complete answer within 300 ms",
    });
  });
});
