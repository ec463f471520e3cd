// Verify over HTTP alone against a ready engine (the engine double on loopback), and Flagger's webhook
// around it: wall time of runVerifyOverHttp against the same probes sent one after another by hand
// (the named baseline), and the webhook's answer time against the verify time, in the same run.
import { startWebhook } from "../../src/commands/webhook/server.js";
import { parseConfig } from "../../src/domain/config/load.js";
import { runVerifyOverHttp } from "../../src/stages/verify/over-http.js";
import { thinkingRequest } from "../../src/stages/verify/thinking.js";
import { toolsRequest } from "../../src/stages/verify/tools.js";
import { livenessRequest as oneTokenRequest } from "../../src/stages/verify/liveness.js";
import { engineDoubles } from "../../test/helpers/engine-double.js";

export interface HttpVerifyBench {
  runs: number;
  verifyMs: number;
  manualMs: number;
  webhookMs: number;
  failed: string[];
  webhookStatus: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ARGS = [
  "--max-model-len",
  "8192",
  "--reasoning-parser",
  "qwen3",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "hermes",
];

export async function runHttpVerifyBench(runs = 7): Promise<HttpVerifyBench> {
  const doubles = engineDoubles();
  try {
    const url = await doubles.start(ARGS);
    const yml = `version: 1\nendpoints:\n  chat:\n    script: s.sh\n    url: ${url}\n    model: qwen\n    contracts: { thinking: true, tools: true, kv: { requests: 2 } }\n`;
    const config = parseConfig(yml, "deploy-gate.yml");
    const ep = { ...config.endpoints.chat!, url };
    const verify = () => runVerifyOverHttp({ name: "chat", endpoint: ep, apiKey: null, progress: () => {} });
    await verify(); // warm: the first request of a process pays for its module loading
    const times: number[] = [];
    let failed: string[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const fs = await verify();
      times.push(performance.now() - t0);
      failed = fs.filter((f) => f.status === "fail").map((f) => f.check);
    }
    const post = (body: unknown) =>
      fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    const manual: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      // what a person types: curl each probe in turn
      await fetch(`${url}/v1/models`).then((r) => r.text());
      await post(oneTokenRequest("qwen"));
      await post(thinkingRequest("qwen"));
      await post(toolsRequest("qwen"));
      await fetch(`${url}/metrics`).then((r) => r.text());
      manual.push(performance.now() - t0);
    }
    const hook = await startWebhook({
      config,
      listen: "127.0.0.1:0",
      env: {},
      limit: 4,
      deadlineMs: 60_000,
      namespaces: null,
      log: () => {},
    });
    const hookTimes: number[] = [];
    let webhookStatus = 0;
    try {
      const body = JSON.stringify({ name: "chat", namespace: "llm", phase: "Progressing", metadata: {} });
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const r = await fetch(hook.url, { method: "POST", body });
        await r.text();
        hookTimes.push(performance.now() - t0);
        webhookStatus = r.status;
      }
    } finally {
      await hook.close();
    }
    return {
      runs,
      verifyMs: median(times),
      manualMs: median(manual),
      webhookMs: median(hookTimes),
      failed,
      webhookStatus,
    };
  } finally {
    doubles.stopAll();
  }
}

export function renderHttpVerifyBench(v: HttpVerifyBench): { text: string; ok: boolean } {
  const ok = v.verifyMs < 1000 && v.webhookMs <= v.verifyMs + 50 && v.failed.length === 0 && v.webhookStatus === 200;
  const text = [
    `| measure (median of ${v.runs}) | deploy-gate | baseline | target |`,
    "|---|---|---|---|",
    `| verify over HTTP alone (models, liveness, thinking, tools, /metrics) | ${v.verifyMs.toFixed(0)} ms | ${v.manualMs.toFixed(0)} ms (the same probes one after another) | < 1000 ms |`,
    `| webhook POST -> answer (HTTP ${v.webhookStatus}) | ${v.webhookMs.toFixed(0)} ms | ${v.verifyMs.toFixed(0)} ms (verify alone) | <= verify + 50 ms |`,
    v.failed.length
      ? `failing checks on a correct engine: ${v.failed.join(", ")}`
      : "every HTTP check passed on the correct engine",
    ok ? "verify over HTTP: target met" : "verify over HTTP: TARGET MISSED",
  ].join("\n");
  return { text, ok };
}

// `node --import tsx bench/verify-http/bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { text, ok } = renderHttpVerifyBench(await runHttpVerifyBench());
  console.log(text);
  process.exitCode = ok ? 0 : 1;
}
