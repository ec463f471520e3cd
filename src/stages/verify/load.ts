// The load step of verify.slo: a bounded load (`concurrency` workers, `requests` streamed completions of
// `promptTokens` in and `maxTokens` out) through the route the other HTTP checks chose, each stream timed
// piece by piece, with a progress line as requests finish. Its own cost per request is measured the same
// way against a server on loopback that answers at once, in the same run.
import { spawn } from "node:child_process";
import type { RequestSample } from "../../domain/load/figures.js";
import { runnerRoute, type Route } from "../../ports/http/route.js";
import { jsonEvents, type StreamResult } from "../../ports/http/sse.js";
import { decodeRequest } from "./decode-prompt.js";

export interface LoadSpec {
  concurrency: number;
  requests: number;
  promptTokens: number;
  maxTokens: number;
}

interface Chunk {
  usage?: { completion_tokens?: number; prompt_tokens?: number } | null;
}

const TOKEN = /"(?:content|reasoning|reasoning_content)":"(?!")/;

/** One stream's sample: TTFT at the first token event, the gaps between token events, usage's tokens. */
export function sampleOf(r: StreamResult): RequestSample {
  if (r.status !== 200)
    return {
      ok: false,
      error: r.status === null ? (r.error ?? "no answer") : `HTTP ${r.status}`,
      ttftMs: null,
      itlMs: [],
      e2eMs: r.wallMs,
      outputTokens: 0,
    };
  const at: number[] = [];
  let usage: number | null = null;
  let prompt: number | null = null;
  // A token event is a delta with non-empty text; read without parsing every chunk (the generator's cost
  // is part of every figure it measures). Only the usage chunk is parsed.
  for (const e of r.events) {
    if (TOKEN.test(e.data)) at.push(e.atMs);
    else if (e.data.includes('"usage"')) {
      const u = jsonEvents<Chunk>([e]).chunks[0]?.chunk.usage;
      if (u?.completion_tokens !== undefined) usage = u.completion_tokens;
      if (u?.prompt_tokens !== undefined) prompt = u.prompt_tokens;
    }
  }
  if (!at.length)
    return { ok: false, error: "no token in the stream", ttftMs: null, itlMs: [], e2eMs: r.wallMs, outputTokens: 0 };
  return {
    ok: true,
    error: null,
    ttftMs: at[0]!,
    itlMs: at.slice(1).map((t, i) => t - at[i]!),
    e2eMs: r.wallMs,
    outputTokens: usage ?? at.length,
    promptTokens: prompt,
  };
}

export async function runLoad(
  route: Route,
  model: string,
  spec: LoadSpec,
  timeoutMs: number,
  progress: (s: string) => void = () => {},
): Promise<{ samples: RequestSample[]; wallMs: number }> {
  const body = decodeRequest(model, spec.promptTokens, spec.maxTokens);
  const samples: RequestSample[] = [];
  let next = 0;
  const every = Math.max(1, Math.ceil(spec.requests / 4));
  const t0 = performance.now();
  const worker = async () => {
    while (next < spec.requests) {
      next++;
      samples.push(sampleOf(await route.stream("/v1/chat/completions", body, timeoutMs)));
      if (samples.length % every === 0 || samples.length === spec.requests)
        progress(`verify: load ${samples.length}/${spec.requests} requests (${spec.concurrency} at a time)`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(spec.concurrency, spec.requests) }, worker));
  return { samples, wallMs: performance.now() - t0 };
}

/** The generator's own cost per request: the same load (after one warm-up pass) against a server in a child
 *  process on loopback that streams the same number of token events at once (no engine time): the client's
 *  CPU time per request (what the generator adds to each measured request), and the mean time to the first
 *  event and to the end (what a request costs with no engine time at all). */
export async function generatorCost(spec: LoadSpec): Promise<{ cpuMs: number; e2eMs: number; ttftMs: number }> {
  const server = spawn(process.execPath, ["-e", instantServer(spec.maxTokens)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<number>((res, rej) => {
      server.stdout.once("data", (d: Buffer) => res(Number(d.toString().trim())));
      server.once("exit", (c) => rej(new Error(`the loopback server exited ${c}`)));
    });
    const route = runnerRoute(`http://127.0.0.1:${port}`, {});
    await runLoad(route, "loopback", spec, 30_000);
    const cpu0 = process.cpuUsage();
    const { samples } = await runLoad(route, "loopback", spec, 30_000);
    const cpu = process.cpuUsage(cpu0);
    return {
      cpuMs: (cpu.user + cpu.system) / 1000 / samples.length,
      e2eMs: samples.reduce((n, x) => n + x.e2eMs, 0) / Math.max(1, samples.length),
      ttftMs: samples.reduce((n, x) => n + (x.ttftMs ?? 0), 0) / Math.max(1, samples.length),
    };
  } finally {
    server.kill();
  }
}

/** The child's program: a server that answers every POST with n token chunks, the usage chunk and [DONE]. */
function instantServer(n: number): string {
  return `const c=(d)=>"data: "+JSON.stringify({choices:[{index:0,delta:d}]})+"\\n\\n";
const body=Array.from({length:${n}},()=>c({content:"x "})).join("")+"data: "+JSON.stringify({choices:[],usage:{completion_tokens:${n},prompt_tokens:1}})+"\\n\\ndata: [DONE]\\n\\n";
const s=require("node:http").createServer((q,r)=>{q.resume();q.on("end",()=>{r.writeHead(200,{"content-type":"text/event-stream"});r.end(body);});});
s.listen(0,"127.0.0.1",()=>process.stdout.write(String(s.address().port)+"\\n"));`;
}
