// The webhook server: Flagger's pre-rollout and rollout hooks (POST {name, namespace, phase, metadata})
// answered with verify over HTTP alone. 200 when verify passes, 412 with the failing checks, 503 when the
// gate could not judge or is busy, 504 past the deadline, 400 for a body Flagger would not send. Bounded
// concurrency (a call past the limit is refused at once, never queued behind a slow engine), a deadline
// per call, a capped body, and the report's own redaction on every answer.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Config } from "../../domain/config/schema.js";
import { reportExitCode, type Report } from "../../domain/report/finding.js";
import { fillUrl, parseFlaggerPayload, type FlaggerPayload } from "../../domain/webhook/flagger.js";
import { HTTP_TIMEOUTS, type HttpVerifyTimeouts } from "../../stages/verify/over-http.js";
import type { Options } from "../options.js";
import { verifyOverHttpReport, type HttpTarget } from "../verify-http.js";

export const MAX_BODY_BYTES = 64 << 10;

export interface WebhookOptions {
  config: Config;
  /** HOST:PORT (":8080" is every address) */
  listen: string;
  env: NodeJS.ProcessEnv;
  /** verifies running at once; a call past it gets 503 and Retry-After */
  limit: number;
  /** per call: past it the answer is 504 (and every request of that verify has this deadline too) */
  deadlineMs: number;
  log: (line: string) => void;
}

export interface Webhook {
  url: string;
  inFlight: () => number;
  close: () => Promise<void>;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** ":8080", "0.0.0.0:8080", "[::1]:8080", "127.0.0.1:0" -> host and port. */
export function parseListen(v: string): { host: string | undefined; port: number } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]*)):(\d{1,5})$/.exec(v);
  const port = Number(m?.[3]);
  if (!m || port > 65535) return null;
  return { host: m[1] ?? (m[2] || undefined), port };
}

function target(config: Config, p: FlaggerPayload): HttpTarget | string {
  const names = Object.keys(config.endpoints);
  const name = p.metadata.endpoint ?? (names.length === 1 ? names[0]! : null);
  if (!name) return `metadata.endpoint: name one of ${names.join(", ")} in the canary's webhook metadata`;
  const ep = config.endpoints[name];
  if (!ep) return `metadata.endpoint "${name}" is not in the config; endpoints: ${names.join(", ")}`;
  if (!ep.url) return `endpoint ${name} has no url: in the config: add url: http://{name}-canary.{namespace}:PORT`;
  const k = ep.kubernetes;
  const kubernetes = k ? { ...k, namespace: fillUrl(k.namespace, p), selector: fillUrl(k.selector, p) } : undefined;
  return { name, endpoint: { ...ep, url: fillUrl(ep.url, p), ...(kubernetes ? { kubernetes } : {}) }, config };
}

function answerOf(report: Report, p: FlaggerPayload, url: string): Answer {
  const code = reportExitCode(report);
  const failed = report.findings
    .filter((f) => f.status === "fail")
    .map((f) => ({ check: f.check, summary: f.summary, ...(f.fix ? { fix: f.fix } : {}) }));
  const verdict = code === 2 ? "undecided" : code === 1 ? "fail" : "pass";
  return {
    status: code === 2 ? 503 : code === 1 ? 412 : 200,
    body: {
      verdict,
      endpoint: report.endpoint,
      canary: `${p.namespace}/${p.name}`,
      phase: p.phase,
      url,
      durationMs: report.durationMs,
      ...(failed.length ? { failed } : {}),
      checks: report.findings.map((f) => ({ check: f.check, status: f.status, summary: f.summary })),
    },
  };
}

/** The body, at most MAX_BODY_BYTES; null when it was longer. */
function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        req.resume();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startWebhook(o: WebhookOptions): Promise<Webhook> {
  const addr = parseListen(o.listen);
  if (!addr) throw new Error(`--listen ${o.listen}: expected HOST:PORT or :PORT`);
  let running = 0;
  // every request of a verify ends by the call's deadline
  const timeouts: Partial<HttpVerifyTimeouts> = Object.fromEntries(
    Object.entries(HTTP_TIMEOUTS).map(([k, v]) => [k, Math.min(v, o.deadlineMs)]),
  );
  const opts = { command: "verify", json: true, failOnWarn: false } as Options;

  async function handle(req: IncomingMessage): Promise<Answer> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return { status: 200, body: { ok: true, running } };
    if (req.method !== "POST")
      return { status: 405, body: { error: "POST Flagger's webhook payload here" }, headers: { allow: "POST" } };
    const text = await readBody(req);
    if (text === null) return { status: 413, body: { error: `the body is over ${MAX_BODY_BYTES} bytes` } };
    const parsed = parseFlaggerPayload(text);
    if (!parsed.ok) return { status: 400, body: { error: parsed.error } };
    const t = target(o.config, parsed.payload);
    if (typeof t === "string") return { status: 400, body: { error: t } };
    if (running >= o.limit)
      return {
        status: 503,
        body: { error: `busy: ${running} verify already running (the limit is ${o.limit}); Flagger retries` },
        headers: { "retry-after": "10" },
      };
    running++;
    const verify = verifyOverHttpReport(opts, t, o.env, () => {}, Date.now, timeouts).finally(() => running--);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), o.deadlineMs)));
    const report = await Promise.race([verify, late]).finally(() => clearTimeout(timer));
    if (!report)
      return {
        status: 504,
        body: {
          verdict: "undecided",
          error: `verify did not finish within ${o.deadlineMs} ms; raise --deadline and the webhook's timeout:`,
        },
      };
    return answerOf(report, parsed.payload, t.endpoint.url);
  }

  const server = createServer((req, res: ServerResponse) => {
    const t0 = Date.now();
    handle(req)
      .catch((e: Error) => ({ status: 500, body: { error: `internal error: ${e.message}` } }) as Answer)
      .then((a) => {
        const body = JSON.stringify(a.body);
        res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
        res.end(body);
        o.log(`${req.method} ${req.url} -> ${a.status} in ${Date.now() - t0} ms`);
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
    inFlight: () => running,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
