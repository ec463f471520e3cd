// Timed streaming POSTs for verify.decode, one per route: each piece of the SSE body is stamped with
// the ms since the request was sent, so TTFT is the first token's arrival, not the headers'.
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Duplex } from "node:stream";
import type { Host } from "../host/host.js";
import { BAD_HEADER } from "./client.js";
import { curlConfig, parseCurlOutput } from "./curl.js";
import { sseEvents, type StreamResult } from "./sse.js";

const CAP = 8 << 20;

// node:http with keep-alive agents rather than fetch: a third of fetch's CPU per request (0.4 ms against
// 1 ms for 32 events on loopback), which verify.slo's load step adds to every request it times.
const AGENTS = { "http:": new HttpAgent({ keepAlive: true }), "https:": new HttpsAgent({ keepAlive: true }) };
const describeError = (e: NodeJS.ErrnoException) =>
  e.code === "ERR_INVALID_CHAR" || e.code === "ERR_HTTP_INVALID_HEADER_VALUE" ? BAD_HEADER : e.message;

export function streamFromRunner(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<StreamResult> {
  const t0 = performance.now();
  const pieces: { atMs: number; text: string }[] = [];
  const payload = JSON.stringify(body);
  return new Promise<StreamResult>((resolve) => {
    let settled = false;
    const done = (r: Omit<StreamResult, "events" | "wallMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, events: sseEvents(pieces), wallMs: performance.now() - t0 });
    };
    const timer = setTimeout(() => {
      req?.destroy();
      done({ status: null, error: `no complete answer within ${timeoutMs} ms` });
    }, timeoutMs);
    let req: ReturnType<typeof httpRequest> | undefined;
    try {
      const u = new URL(url);
      const send = u.protocol === "https:" ? httpsRequest : httpRequest;
      req = send(
        u,
        {
          method: "POST",
          agent: AGENTS[u.protocol as keyof typeof AGENTS],
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
        },
        (res) => {
          res.setEncoding("utf8");
          let size = 0;
          res.on("data", (t: string) => {
            size += t.length;
            if (size > CAP) return res.destroy();
            pieces.push({ atMs: performance.now() - t0, text: t });
          });
          const end = () =>
            done({
              status: res.statusCode ?? null,
              error: null,
              body: res.statusCode === 200 ? undefined : pieces.map((p) => p.text).join(""),
            });
          // a stream cut mid-way (the engine died, the link dropped) is no complete answer
          res.on("error", (e) => done({ status: null, error: `the stream was cut: ${e.message}` }));
          res.on("end", end);
          res.on("close", () => (res.complete ? end() : done({ status: null, error: "the stream was cut" })));
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => done({ status: null, error: describeError(e) }));
      req.end(payload);
    } catch (e) {
      done({ status: null, error: describeError(e as NodeJS.ErrnoException) });
    }
  });
}

/** On the peer: curl -N, each line prefixed with bash's $EPOCHREALTIME (bash 5) so timing is the peer's. */
export async function streamFromPeer(
  peer: Host,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<StreamResult> {
  const script = `s=$EPOCHREALTIME; curl -N -K - | while IFS= read -r l || [ -n "$l" ]; do printf '%s %s %s\\n' "$s" "$EPOCHREALTIME" "$l"; done`;
  const t0 = performance.now();
  let r;
  try {
    r = await peer.run(["bash", "-c", script], {
      stdin: curlConfig("POST", url, body, headers, timeoutMs),
      timeoutMs: timeoutMs + 5000,
    });
  } catch (e) {
    return {
      status: null,
      events: [],
      wallMs: performance.now() - t0,
      error: `from ${peer.name}: ${(e as Error).message}`,
    };
  }
  const pieces: { atMs: number; text: string }[] = [];
  let last = 0;
  for (const line of r.stdout.split("\n")) {
    const m = /^(\d+\.\d+) (\d+\.\d+) ?(.*)$/.exec(line);
    if (!m) continue;
    last = (Number(m[2]) - Number(m[1])) * 1000;
    pieces.push({ atMs: last, text: `${m[3]}\n` });
  }
  const { status } = parseCurlOutput(
    pieces
      .map((p) => p.text)
      .join("")
      .trimEnd(),
  );
  const error =
    status === null
      ? r.stderr.trim() || (r.timedOut ? `no answer within ${timeoutMs} ms` : `curl exited ${r.code}`)
      : null;
  return { status, events: sseEvents(pieces), wallMs: last, error: error && `from ${peer.name}: ${error}` };
}

export function streamThroughTunnel(
  stream: Duplex,
  u: URL,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<StreamResult> {
  const t0 = performance.now();
  const payload = JSON.stringify(body);
  const pieces: { atMs: number; text: string }[] = [];
  return new Promise<StreamResult>((resolve) => {
    const done = (status: number | null, error: string | null) => {
      clearTimeout(timer);
      stream.destroy();
      resolve({ status, events: sseEvents(pieces), wallMs: performance.now() - t0, error });
    };
    const timer = setTimeout(() => {
      req.destroy();
      done(null, `no complete answer within ${timeoutMs} ms through the tunnel`);
    }, timeoutMs);
    const req = httpRequest(
      {
        method: "POST",
        host: u.hostname,
        port: Number(u.port || (u.protocol === "https:" ? 443 : 80)),
        path,
        createConnection: () => stream as never,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      (res) => {
        res.setEncoding("utf8");
        res.on("data", (t: string) => pieces.push({ atMs: performance.now() - t0, text: t }));
        res.on("end", () => done(res.statusCode ?? null, null));
      },
    );
    req.on("error", (e) => done(null, `through the tunnel: ${e.message}`));
    req.end(payload);
  });
}
