// The vLLM double's HTTP routes, one request handler: the engine process (main.ts) listens with it, and the
// verify tests serve it on loopback in-process, so both answer with the same code.
import type { IncomingMessage, ServerResponse } from "node:http";
import { chat, metrics, models, specDecodeLine, type Counters, type Reply } from "./api.js";
import { logRecord, uvicorn, type Proc } from "./format.js";
import type { Plan } from "./plan.js";

export const newCounters = (): Counters => ({
  prompt: 0,
  generation: 0,
  requests: 0,
  drafts: 0,
  draftTokens: 0,
  accepted: 0,
  acceptedPerPos: [],
});

/**
 * A streamed reply at its own pace: each piece when its time comes. The schedule is re-anchored at the first
 * token actually written, so a late first timer (a loaded machine) delays the stream instead of bunching
 * the tokens after it: the decode window a client measures is never shorter than the rate gives. On
 * performance.now(): Date.now()'s whole milliseconds put up to 1 ms of error on each scheduled write.
 */
function playStream(res: ServerResponse, timed: NonNullable<Reply["timed"]>): void {
  const now = () => performance.now();
  let t0 = now();
  let anchored = false;
  let i = 0;
  const next = () => {
    while (i < timed.length && timed[i]!.atMs <= now() - t0) {
      if (!anchored && timed[i]!.atMs > 0) {
        anchored = true;
        t0 = now() - timed[i]!.atMs;
      }
      res.write(timed[i++]!.text);
    }
    if (i >= timed.length || res.destroyed) {
      res.end();
      return;
    }
    setTimeout(next, Math.max(1, Math.ceil(timed[i]!.atMs - (now() - t0))));
  };
  next();
}

export function vllmHandler(
  p: Plan,
  counters: Counters,
  started: number,
  log: (line: string) => void,
  api: Proc,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "/").split("?")[0];
      // a wedged engine: the HTTP server still answers /health, the scheduler never returns a completion
      if (p.breaks.has("wedged") && url === "/v1/chat/completions") return;
      let reply: Reply;
      const authorized = !p.apiKey || req.headers.authorization === `Bearer ${p.apiKey}`;
      if (url?.startsWith("/v1/") && !authorized)
        reply = { status: 401, body: JSON.stringify({ error: "Unauthorized" }), type: "application/json" };
      else if (url === "/health" && req.method === "GET") reply = { status: 200, body: "" };
      else if (url === "/v1/models" && req.method === "GET") reply = models(p, Math.floor(started / 1000));
      else if (url === "/metrics" && req.method === "GET" && !p.breaks.has("metrics-off")) reply = metrics(p, counters);
      else if (url === "/v1/chat/completions" && req.method === "POST")
        reply = chat(p, Buffer.concat(chunks).toString("utf8"), counters, Date.now());
      else reply = { status: 404, body: JSON.stringify({ detail: "Not Found" }), type: "application/json" };
      // FAKE_REPLY_DELAY_MS: a busy engine; each completion answers that much later (concurrent callers overlap)
      const delay = url === "/v1/chat/completions" ? Number(process.env.FAKE_REPLY_DELAY_MS ?? 0) : 0;
      const send = () => {
        res.writeHead(reply.status, reply.type ? { "content-type": reply.type } : {});
        if (reply.timed) playStream(res, reply.timed);
        else res.end(reply.body);
      };
      if (delay > 0) setTimeout(send, delay);
      else send();
      const reason = { 200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found" }[reply.status] ?? "";
      log(
        uvicorn(
          api,
          "INFO",
          `${req.socket.remoteAddress}:${req.socket.remotePort} - "${req.method} ${req.url} HTTP/${req.httpVersion}" ${reply.status} ${reason}`,
        ),
      );
      const spec = url === "/v1/chat/completions" ? specDecodeLine(p, counters) : null;
      if (spec) log(logRecord(api, "INFO", new Date(), "metrics.py:96", spec));
    });
  };
}
