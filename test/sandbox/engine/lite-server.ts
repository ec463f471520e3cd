// The double as an engine other than vLLM (llama.ts, sglang.ts): plays that engine's timed boot script and
// serves the OpenAI routes those engines answer alike. Before its readiness line it answers `loading`
// (llama-server's 503; SGLang does not listen yet), after it /health, /v1/models, /v1/chat/completions.
import { closeSync, openSync, readSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Step } from "./boot.js";
import { liteChat, type LiteChat } from "./dialect.js";

export interface LiteEngine {
  host: string;
  port: number;
  apiKey: string | null;
  steps: Step[];
  /** the line after which the engine serves */
  isReady(line: string): boolean;
  /** the answer while loading, when the engine already listens then */
  loading: { status: number; body: string };
  models(createdS: number): string;
  /** a refusal of this chat body (status, body), or null to answer it */
  refuse(body: string): { status: number; body: string } | null;
  /** how it answers a chat it does not refuse (dialect.ts) */
  chat: LiteChat;
  /** each completion it answered (its request body): the engine's own counters */
  answered?: (body: string) => void;
  /** the engine's access-log line */
  accessLine(method: string, url: string, addr: string, status: number): string;
  /** the line it prints on SIGTERM */
  stopLine: string;
  /** /metrics (Prometheus text) where the engine serves it, else `metricsOff` (or the 404) */
  metrics?: () => string | null;
  metricsOff?: { status: number; body: string };
  /** the body of a 404 (FastAPI's for SGLang), else llama-server's error envelope */
  notFound?: string;
  /** llama-server's /props (JSON), else 404 */
  props?: () => string;
  /** /health when it is not llama-server's instant 200 {"status":"ok"}: SGLang's generates a token first */
  health?: (wedged: boolean) => { status: number; body: string; afterMs: number };
}

/** The first bytes of a model file as the engine reads them: null when it cannot be opened. */
export function fileMagic(path: string, n = 4): string | null {
  try {
    const fd = openSync(path, "r");
    const b = Buffer.alloc(n);
    readSync(fd, b, 0, n, 0);
    closeSync(fd);
    return b.toString("latin1");
  } catch {
    return null;
  }
}

/** The engine's HTTP routes once it listens; `ready()` says whether its readiness line was printed.
 *  FAKE_BREAK=wedged: completions never answer (the scheduler hangs), /health as the engine says then. */
export function liteHandler(
  e: LiteEngine,
  ready: () => boolean,
  wedged = (process.env.FAKE_BREAK ?? "").split(",").includes("wedged"),
): (req: IncomingMessage, res: ServerResponse) => void {
  const started = Math.floor(Date.now() / 1000);
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "/").split("?")[0]!;
      const reply = (status: number, body: string) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(body);
        process.stderr.write(e.accessLine(req.method ?? "GET", url, req.socket.remoteAddress ?? "", status));
      };
      if (!ready()) return reply(e.loading.status, e.loading.body);
      if (e.apiKey && url !== "/health" && req.headers.authorization !== `Bearer ${e.apiKey}`)
        return reply(
          401,
          JSON.stringify({ error: { code: 401, message: "Invalid API Key", type: "authentication_error" } }),
        );
      if (url === "/health" && e.health) {
        const h = e.health(wedged);
        const t = setTimeout(() => {
          res.writeHead(h.status);
          res.end(h.body);
          process.stderr.write(e.accessLine(req.method ?? "GET", url, req.socket.remoteAddress ?? "", h.status));
        }, h.afterMs);
        res.on("close", () => clearTimeout(t));
        return;
      }
      if (url === "/health") return reply(200, JSON.stringify({ status: "ok" }));
      if (url === "/v1/models" && req.method === "GET") return reply(200, e.models(started));
      const prom = url === "/metrics" && req.method === "GET" ? (e.metrics?.() ?? null) : null;
      if (prom !== null) return reply(200, prom);
      if (url === "/metrics" && e.metricsOff) return reply(e.metricsOff.status, e.metricsOff.body);
      if (url === "/props" && req.method === "GET" && e.props) return reply(200, e.props());
      if (url === "/v1/chat/completions" && req.method === "POST") {
        if (wedged) return;
        const body = Buffer.concat(chunks).toString("utf8");
        const refused = e.refuse(body);
        if (refused) return reply(refused.status, refused.body);
        e.answered?.(body);
        const r = liteChat(e.chat, body);
        res.writeHead(r.status, { "content-type": r.type ?? "application/json; charset=utf-8" });
        res.end(r.body);
        process.stderr.write(e.accessLine(req.method ?? "GET", url, req.socket.remoteAddress ?? "", r.status));
        return;
      }
      return reply(
        404,
        e.notFound ?? JSON.stringify({ error: { code: 404, message: "Not Found", type: "not_found_error" } }),
      );
    });
  };
}

export function serveLite(e: LiteEngine): void {
  let ready = false;
  const server = createServer(liteHandler(e, () => ready));
  const play = (s: Step) => {
    if ("listen" in s) server.listen(e.port, e.host);
    else if ("exit" in s) {
      server.close();
      process.exitCode = s.exit;
      setTimeout(() => process.exit(s.exit), 50);
    } else {
      const text = s.text(new Date());
      (s.stream === "stdout" ? process.stdout : process.stderr).write(text);
      if (e.isReady(text)) ready = true;
    }
  };
  for (const s of e.steps) setTimeout(() => play(s), s.at);
  process.on("SIGTERM", () => {
    process.stderr.write(e.stopLine);
    process.exit(0);
  });
}
