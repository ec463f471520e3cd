// The HTTP routes against a real HTTP server on loopback: real curl reading the request from stdin
// (the peer path, here with a local Host), and HTTP over a stream handed in (the tunnel path).
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { argvHost } from "../../helpers/argv-host.js";
import { curlConfig, parseCurlOutput } from "../../../src/ports/http/curl.js";
import { peerRoute, runnerRoute, tunnelRoute } from "../../../src/ports/http/route.js";

let server: Server;
let base: string;
const seen: { auth?: string; body: string; method?: string; url?: string }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({
        auth: req.headers.authorization,
        body: Buffer.concat(chunks).toString(),
        method: req.method,
        url: req.url,
      });
      res.writeHead(req.url === "/v1/models" ? 200 : 400, { "content-type": "application/json" });
      res.end(JSON.stringify({ echo: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const localHost = argvHost;

describe("routes", () => {
  const body = { model: "q", messages: [{ role: "user", content: 'quote " backslash \\ newline \n tab \t' }] };
  it("peer: curl gets the body and header from stdin (nothing in argv) and the status back", async () => {
    const r = await peerRoute(localHost, base, { authorization: "Bearer sk-secret" }).send(
      "POST",
      "/v1/chat/completions",
      body,
      5000,
    );
    expect(r.status).toBe(400);
    expect(JSON.parse(JSON.parse(r.body).echo)).toEqual(body);
    expect(seen.at(-1)).toMatchObject({ auth: "Bearer sk-secret", method: "POST" });
    expect(curlConfig("GET", base, undefined, {}, 5000)).not.toContain("data-binary");
  });
  it("peer: no HTTP answer is a null status with curl's reason", async () => {
    const r = await peerRoute(localHost, "http://127.0.0.1:1", {}).send("GET", "/v1/models", undefined, 3000);
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/from local: .*(refused|connect)/i);
    expect(parseCurlOutput("x\n@@dg-http-status:000")).toEqual({ status: null, body: "x" });
  });
  it("tunnel: HTTP over the stream the host opened, marked not from a peer", async () => {
    const port = Number(new URL(base).port);
    const opened: string[] = [];
    const route = tunnelRoute(
      "h",
      async (host, p) => {
        opened.push(`${host}:${p}`);
        return connect(p, host);
      },
      base,
      {},
    );
    const r = await route.send("POST", "/v1/chat/completions", body, 5000);
    expect(r.status).toBe(400);
    expect(JSON.parse(JSON.parse(r.body).echo)).toEqual(body);
    expect(opened).toEqual([`127.0.0.1:${port}`]);
    expect(route.fromPeer).toBe(false);
    const failed = await tunnelRoute("h", () => Promise.reject(new Error("cannot open")), base, {}).send(
      "GET",
      "/v1/models",
      undefined,
      1000,
    );
    expect(failed).toMatchObject({ status: null, error: "cannot open" });
  });
  it("runner: straight to the url", async () => {
    const r = await runnerRoute(base, {}).send("GET", "/v1/models", undefined, 5000);
    expect(r.status).toBe(200);
  });
});
