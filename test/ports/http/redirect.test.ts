// The runner's HTTP requests (client.ts) judge the url they are given: a redirect is reported, never followed
// (curl on a peer, the SSH tunnel and main's node:http stream do not follow either), so a verify cannot pass on
// another server's answers.
import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { request } from "../../../src/ports/http/client.js";

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}

describe("redirects from the endpoint", () => {
  it("a GET that is redirected says where to, and the other server is never asked", async () => {
    let asked = 0;
    const other = await listen((_req, res) => {
      asked++;
      res.end('{"data":[]}');
    });
    const url = await listen((_req, res) => {
      res.writeHead(307, { location: `${other}/v1/models` });
      res.end();
    });
    const get = await request("GET", `${url}/v1/models`, undefined, { timeoutMs: 10_000 });
    expect(get.status).toBeNull();
    expect(get.error).toContain(`redirected (HTTP 307) to ${other}/v1/models`);
    const post = await request("POST", `${url}/v1/completions`, { prompt: "x" }, { timeoutMs: 10_000 });
    expect(post.status).toBeNull();
    expect(post.error).toContain(`redirected (HTTP 307) to ${other}/v1/models`);
    expect(asked).toBe(0);
  });
});
