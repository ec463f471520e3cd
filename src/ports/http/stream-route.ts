// Timed streaming POSTs for verify.decode, one per route: each piece of the SSE body is stamped with
// the ms since the request was sent, so TTFT is the first token's arrival, not the headers'.
import { request as httpRequest } from "node:http";
import type { Duplex } from "node:stream";
import type { Host } from "../host/host.js";
import { BAD_HEADER, isHeaderError } from "./client.js";
import { curlConfig, parseCurlOutput } from "./curl.js";
import { sseEvents, type StreamResult } from "./sse.js";

const CAP = 8 << 20;

export async function streamFromRunner(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<StreamResult> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  const t0 = performance.now();
  const pieces: { atMs: number; text: string }[] = [];
  const dec = new TextDecoder();
  try {
    const res = await fetch(url, {
      method: "POST",
      signal: ctl.signal,
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += (chunk as Uint8Array).length;
      if (size > CAP) break;
      pieces.push({ atMs: performance.now() - t0, text: dec.decode(chunk as Uint8Array, { stream: true }) });
    }
    const wallMs = performance.now() - t0;
    return {
      status: res.status,
      events: sseEvents(pieces),
      wallMs,
      error: null,
      body: res.status === 200 ? undefined : pieces.map((p) => p.text).join(""),
    };
  } catch (e) {
    return {
      status: null,
      events: sseEvents(pieces),
      wallMs: performance.now() - t0,
      error: ctl.signal.aborted
        ? `no complete answer within ${timeoutMs} ms`
        : isHeaderError(e)
          ? BAD_HEADER
          : (e as Error).message,
    };
  } finally {
    clearTimeout(timer);
  }
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
