// The tunnel route to an https:// url speaks TLS over the forwarded stream, with the url's host name for
// SNI and the certificate check: against a loopback HTTPS server whose certificate a test CA signed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tunnelRoute } from "../../../src/ports/http/route.js";

const dir = mkdtempSync(join(tmpdir(), "dg-tls-"));
const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
let server: Server;
let port = 0;
let ca = "";
const seen: { sni: string | undefined; auth: string | undefined }[] = [];

beforeAll(async () => {
  ssl(
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=deploy-gate test CA",
  );
  ssl(
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "srv.key",
    "-out",
    "srv.csr",
    "-subj",
    "/CN=gpu1.test.internal",
  );
  writeFileSync(join(dir, "ext.cnf"), "subjectAltName=DNS:gpu1.test.internal\n");
  ssl(
    "x509",
    "-req",
    "-in",
    "srv.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "srv.pem",
    "-days",
    "2",
    "-extfile",
    "ext.cnf",
  );
  ca = readFileSync(join(dir, "ca.pem"), "utf8");
  server = createServer(
    { key: readFileSync(join(dir, "srv.key")), cert: readFileSync(join(dir, "srv.pem")) },
    (req, res) => {
      seen.push({
        sni: (req.socket as unknown as { servername?: string }).servername,
        auth: req.headers.authorization,
      });
      res.writeHead(200, { "content-type": req.url?.includes("chat") ? "text/event-stream" : "application/json" });
      res.end(
        req.url?.includes("chat")
          ? 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n'
          : '{"data":[{"id":"q"}]}',
      );
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

// The host "opens" the url's address: here every name leads to the loopback server.
const forward = async () => connect(port, "127.0.0.1");

describe("tunnel route over https", () => {
  it("does TLS over the forwarded stream, with the url's name for SNI, so the token never crosses in clear", async () => {
    const route = tunnelRoute(
      "h",
      forward,
      `https://gpu1.test.internal:${port}`,
      { authorization: "Bearer sk-tunnel-secret" },
      { ca },
    );
    const r = await route.send("GET", "/v1/models", undefined, 10_000);
    expect(r).toMatchObject({ status: 200, error: null });
    expect(JSON.parse(r.body)).toEqual({ data: [{ id: "q" }] });
    expect(seen.at(-1)).toEqual({ sni: "gpu1.test.internal", auth: "Bearer sk-tunnel-secret" });
    const s = await route.stream("/v1/chat/completions", { model: "q" }, 10_000);
    expect(s.status).toBe(200);
    expect(s.events.length).toBeGreaterThan(0);
  });

  it("refuses a certificate that does not name the url's host, and one no trusted CA signed", async () => {
    const wrongName = await tunnelRoute(
      "h",
      forward,
      `https://other.test.internal:${port}`,
      { authorization: "Bearer x" },
      { ca },
    ).send("GET", "/v1/models", undefined, 10_000);
    expect(wrongName.status).toBeNull();
    expect(wrongName.error).toMatch(/certificate.*other\.test\.internal|altnames/i);
    const untrusted = await tunnelRoute("h", forward, `https://gpu1.test.internal:${port}`, {}).send(
      "GET",
      "/v1/models",
      undefined,
      10_000,
    );
    expect(untrusted.status).toBeNull();
    expect(untrusted.error).toMatch(/certificate/i);
    expect(seen.filter((x) => x.auth === "Bearer x")).toHaveLength(0);
  });
});
