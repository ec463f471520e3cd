// The inbound JSON port on loopback, with a raw socket where fetch cannot say it (a body that stops midway).
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { serveJson, type JsonServer } from "../../../src/ports/http/json-server.js";

const servers: JsonServer[] = [];
afterAll(async () => Promise.all(servers.map((s) => s.close())));

async function start(): Promise<{ port: number; handled: () => number }> {
  let handled = 0;
  const s = await serveJson({
    listen: "127.0.0.1:0",
    maxBodyBytes: 1024,
    handle: async (r) => {
      handled++;
      return r.body === null
        ? { status: 413, body: { error: "too long" } }
        : { status: 200, body: { n: r.body.length } };
    },
    log: () => {},
  });
  servers.push(s);
  return { port: Number(new URL(s.url).port), handled: () => handled };
}

/** Sends head + part of a body that claims to be longer, then waits (never ends the body); resolves with the answer. */
function partial(port: number, claimed: number, sent: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, "127.0.0.1", () => {
      sock.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${claimed}\r\n\r\n`);
      sock.write("a".repeat(sent));
    });
    let got = "";
    sock.on("data", (d) => {
      got += d.toString();
      if (got.includes("\r\n\r\n")) {
        sock.destroy();
        resolve(got);
      }
    });
    sock.on("error", reject);
    sock.on("close", () => resolve(got));
  });
}

describe("serveJson", () => {
  it("answers 413 as soon as a body passes the cap, without waiting for a body that never ends", async () => {
    const s = await start();
    const answer = await partial(s.port, 10_000_000, 4096);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/connection: close/i);
  }, 60_000);

  it("a body under the cap reaches the handler whole", async () => {
    const s = await start();
    const r = await fetch(`http://127.0.0.1:${s.port}/`, { method: "POST", body: "x".repeat(1000) });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ n: 1000 });
  });
});
