// The engine double's entrypoint: `node engine.mjs MODEL --vllm-flags...`, like the seed's vLLM image (or
// `node vllm serve MODEL …`, like vLLM's CLI run by a unit without a container), or
// another engine's command (`llama-server …`, `python3 -m sglang.launch_server …`: other-engines.ts).
import { createServer, type ServerResponse } from "node:http";
import { bootScript, type Step } from "./boot.js";
import { chat, metrics, models, specDecodeLine, type Counters, type Reply } from "./api.js";
import { crashWrites } from "./failures.js";
import { logRecord, uvicorn, type Proc } from "./format.js";
import { ArgvError, makePlan } from "./plan.js";
import { serveOther } from "./other-engines.js";

// Run as `vllm serve MODEL …` (a `vllm` launcher next to engine.mjs, for units that start the engine
// without a container), the words after `serve` are the argv, as vLLM's CLI reads them.
const ARGV =
  /(^|\/)vllm$/.test(process.argv[1] ?? "") && process.argv[2] === "serve"
    ? process.argv.slice(3)
    : process.argv.slice(2);
if (!serveOther(ARGV)) serveVllm();

function serveVllm(): void {
  const api: Proc = { name: "APIServer", pid: process.pid };
  const core: Proc = { name: "EngineCore_DP0", pid: process.pid + 74 };
  let plan;
  try {
    plan = makePlan(ARGV, process.env);
  } catch (e) {
    if (!(e instanceof ArgvError)) throw e;
    process.stderr.write(`usage: vllm serve [model_tag] [options]\nvllm serve: error: ${e.message}\n`);
    process.exit(2);
  }
  const p = plan;
  const started = Date.now();
  const counters: Counters = {
    prompt: 0,
    generation: 0,
    requests: 0,
    drafts: 0,
    draftTokens: 0,
    accepted: 0,
    acceptedPerPos: [],
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = (req.url ?? "/").split("?")[0];
      let reply: Reply;
      const authorized = !p.apiKey || req.headers.authorization === `Bearer ${p.apiKey}`;
      if (url?.startsWith("/v1/") && !authorized)
        reply = { status: 401, body: JSON.stringify({ error: "Unauthorized" }), type: "application/json" };
      else if (url === "/health" && req.method === "GET") reply = { status: 200, body: "" };
      else if (url === "/v1/models" && req.method === "GET") reply = models(p, Math.floor(started / 1000));
      else if (url === "/metrics" && req.method === "GET" && process.env.FAKE_METRICS !== "off")
        reply = metrics(p, counters);
      // FAKE_HANG=1: a wedged engine core behind a live API server (/health and /v1/models stay 200)
      else if (url === "/v1/chat/completions" && process.env.FAKE_HANG === "1") return;
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
      process.stdout.write(
        uvicorn(
          api,
          "INFO",
          `${req.socket.remoteAddress}:${req.socket.remotePort} - "${req.method} ${req.url} HTTP/${req.httpVersion}" ${reply.status} ${reason}`,
        ),
      );
      const spec = url === "/v1/chat/completions" ? specDecodeLine(p, counters) : null;
      if (spec) process.stdout.write(logRecord(api, "INFO", new Date(), "metrics.py:96", spec));
    });
  });

  /**
   * A streamed reply at its own pace: each piece when its time comes. The schedule is re-anchored at the first
   * token actually written, so a late first timer (a loaded machine) delays the stream instead of bunching
   * the tokens after it: the decode window a client measures is never shorter than the rate gives.
   */
  function playStream(res: ServerResponse, timed: NonNullable<Reply["timed"]>): void {
    let t0 = Date.now();
    let anchored = false;
    let i = 0;
    const next = () => {
      while (i < timed.length && timed[i]!.atMs <= Date.now() - t0) {
        if (!anchored && timed[i]!.atMs > 0) {
          anchored = true;
          t0 = Date.now() - timed[i]!.atMs;
        }
        res.write(timed[i++]!.text);
      }
      if (i >= timed.length || res.destroyed) {
        res.end();
        return;
      }
      setTimeout(next, Math.max(1, timed[i]!.atMs - (Date.now() - t0)));
    };
    next();
  }

  function play(step: Step): void {
    if ("listen" in step) server.listen(p.port, p.host);
    else if ("exit" in step) {
      server.close();
      process.exitCode = step.exit;
      setTimeout(() => process.exit(step.exit), 50);
    } else (step.stream === "stdout" ? process.stdout : process.stderr).write(step.text(new Date()));
  }

  const steps = bootScript(p, api, core);
  if (p.crashAfterSeconds !== null) steps.push(...crashWrites(api, core, p.crashAfterSeconds * 1000));
  for (const s of steps) setTimeout(() => play(s), s.at);
  // podman stop sends SIGTERM: exit promptly like uvicorn's shutdown.
  process.on("SIGTERM", () => {
    process.stderr.write(uvicorn(api, "INFO", "Shutting down"));
    process.exit(0);
  });
}
