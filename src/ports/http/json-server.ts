// The inbound HTTP port: a small JSON server for the webhook verb. Every request's body is capped (a
// longer one is answered 413 without being kept), a client that never finishes its request is dropped,
// and the handler's answer is written as JSON. What to answer is the caller's.
import { createServer, type IncomingMessage } from "node:http";

export interface Inbound {
  method: string;
  path: string;
  /** the body; null when it was longer than maxBodyBytes */
  body: string | null;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface JsonServer {
  url: string;
  close: () => Promise<void>;
}

/** ":8080", "0.0.0.0:8080", "[::1]:8080", "127.0.0.1:0" -> host and port. */
export function parseListen(v: string): { host: string | undefined; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(v);
  const port = Number(m?.[3]);
  if (!m || port > 65535) return null;
  return { host: m[1] ?? (m[2] || undefined), port };
}

/** The body, or null as soon as it passes max: the rest is never read (the answer closes the connection). */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      req.off("data", onData);
      req.pause();
      resolve(null);
    };
    req.on("data", onData);
    req.on("end", () => resolve(size > max ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function serveJson(o: {
  listen: string;
  maxBodyBytes: number;
  handle: (r: Inbound) => Promise<Answer>;
  log: (line: string) => void;
}): Promise<JsonServer> {
  const addr = parseListen(o.listen);
  if (!addr) throw new Error(`--listen ${o.listen}: expected HOST:PORT or :PORT`);
  const server = createServer((req, res) => {
    const t0 = Date.now();
    const path = (req.url ?? "/").split("?")[0]!;
    readBody(req, o.maxBodyBytes)
      .then((body) => o.handle({ method: req.method ?? "GET", path, body }))
      .catch((e: Error) => ({ status: 500, body: { error: `internal error: ${e.message}` } }) as Answer)
      .then((a) => {
        // a body left unread (past the cap) must not be drained on this socket: close it after the answer
        const close = req.readableEnded ? {} : { connection: "close" };
        res.writeHead(a.status, { "content-type": "application/json", ...close, ...a.headers });
        res.end(JSON.stringify(a.body));
        if (!req.readableEnded) res.once("finish", () => req.socket.destroySoon());
        o.log(`${req.method} ${path} -> ${a.status} in ${Date.now() - t0} ms`);
      });
  });
  // a client that never finishes its request cannot hold a socket
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(addr.port, addr.host, resolve);
  });
  const a = server.address() as { address: string; port: number; family: string };
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
