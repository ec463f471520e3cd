// The whole verify stage against a ready engine on the sandbox host, with the whole client-contract matrix
// (liveness, thinking plain/streamed/off, the seven tool cases, structured output, dashboard metric names):
// wall time (SSH connect included), SSH round trips and connections, against the manual procedure (one SSH
// command per fact, one request per case, one after another) on the same connection kind in the same run.
import { SshHost } from "../../src/ports/host/ssh.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import { status } from "../../test/sandbox/machine.js";
import { removeUnit } from "../../test/e2e/support/units.js";
import { bootCase, contextFor, GOOD_ARGS, waitReady } from "../../test/e2e/support/verify-helpers.js";
import { TOOL_CASES, toolCaseBody } from "../../src/stages/verify/tool-cases.js";
import { thinkingOffRequest, thinkingRequest, thinkingStreamRequest } from "../../src/stages/verify/thinking-cases.js";
import { livenessRequest } from "../../src/stages/verify/liveness.js";
import { DEFAULT_SCHEMA, structuredRequest } from "../../src/stages/verify/structured.js";
import { bootPaced, loadBench, loadOk, renderLoadBench, type LoadBench } from "./load.js";

const RULES = `groups:
  - name: vllm
    rules:
      - alert: KvCacheFull
        expr: vllm:kv_cache_usage_perc > 0.95
      - alert: SlowTokens
        expr: histogram_quantile(0.95, sum by (le) (rate(vllm:inter_token_latency_seconds_bucket[5m]))) > 0.2
`;
const CONTRACTS = {
  flags: ["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"],
  env: ["VLLM_LOGGING_LEVEL"],
  kv: { requests: 4 },
  thinking: true,
  tools: true,
  structured: true,
  metrics: ["alerts/vllm.rules.yml"],
};
/** Every chat request the matrix sends, as a person would send them with curl: one at a time. */
const manualBodies = (model: string) => [
  livenessRequest(model),
  thinkingRequest(model),
  thinkingStreamRequest(model),
  thinkingOffRequest(model),
  ...TOOL_CASES.map((c) => toolCaseBody(c, model)),
  structuredRequest(model, DEFAULT_SCHEMA),
];

export interface VerifyBench {
  skipped: string | null;
  runs: number;
  /** median wall time of connect + runVerify + close */
  verifyMs: number;
  roundTrips: number;
  connections: number;
  /** the seed's procedure: one SSH command per host fact plus the HTTP probes, on one connection */
  manualMs: number;
  manualRoundTrips: number;
  failed: string[];
  load: LoadBench | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const BENCH_PORT = 7899;

export async function runVerifyBench(runs = 5): Promise<VerifyBench> {
  const s = await status();
  const empty = {
    runs: 0,
    verifyMs: 0,
    roundTrips: 0,
    connections: 0,
    manualMs: 0,
    manualRoundTrips: 0,
    failed: [],
    load: null,
  };
  if (!s) return { skipped: "the sandbox host is not running (npm run sandbox -- up)", ...empty };
  const target = {
    address: s.address,
    port: s.sshPort,
    user: s.user,
    knownHosts: s.knownHosts,
    identityFile: s.identityFile,
  };
  const admin = await SshHost.connect(target);
  const b = await bootCase(admin, s, BENCH_PORT, {
    live: GOOD_ARGS,
    env: { VLLM_LOGGING_LEVEL: "INFO" },
    contracts: CONTRACTS,
  });
  b.sha = b.repo.commit("alert rules", { "alerts/vllm.rules.yml": RULES });
  const paced = await bootPaced(admin, s);
  try {
    await Promise.all([waitReady(b), waitReady(paced)]);
    const times: number[] = [];
    let roundTrips = 0;
    let connections = 0;
    let failed: string[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const host = await SshHost.connect(target);
      const fs = await runVerify(contextFor(host, b), { deployment: null });
      await host.close();
      times.push(performance.now() - t0);
      roundTrips = host.roundTrips;
      connections = host.connections;
      failed = fs.filter((f) => f.status === "fail").map((f) => f.check);
    }
    const manual: number[] = [];
    let manualRoundTrips = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const host = await SshHost.connect(target);
      const c = b.u.container;
      // The seed's section 6 and plan-line checklist, one command each, in order.
      await host.run(["systemctl", "show", "-p", "NRestarts", "--value", b.u.unit]);
      await host.run(["podman", "inspect", c]);
      await host.run(["podman", "exec", c, "cat", "/proc/1/cmdline"]);
      await host.run(["podman", "exec", c, "cat", "/proc/1/environ"]);
      await host.runShell(
        `journalctl CONTAINER_NAME=${c} -b -o cat --no-pager | grep -aE "GPU KV cache size|Maximum concurrency|non-default args|CUDA graph|Graph capturing"`,
      );
      for (const path of ["/v1/models", "/health", "/metrics"]) await (await fetch(`${b.endpoint.url}${path}`)).text();
      for (const body of manualBodies("qwen")) {
        const r = await fetch(`${b.endpoint.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        await r.text();
      }
      await host.close();
      manual.push(performance.now() - t0);
      manualRoundTrips = host.roundTrips;
    }
    return {
      skipped: null,
      runs,
      verifyMs: median(times),
      roundTrips,
      connections,
      manualMs: median(manual),
      manualRoundTrips,
      failed,
      load: await loadBench(paced.endpoint.url!),
    };
  } finally {
    await removeUnit(admin, b.u);
    await removeUnit(admin, paced.u);
    paced.repo.cleanup();
    b.repo.cleanup();
    await admin.close();
  }
}

export function renderVerifyBench(v: VerifyBench): { text: string; ok: boolean } {
  if (v.skipped) return { text: `verify: skipped (${v.skipped})`, ok: true };
  const l = v.load;
  const ok = v.verifyMs < 2000 && v.connections === 1 && v.failed.length === 0 && loadOk(l);
  const text = [
    "| measure | deploy-gate verify (whole matrix) | manual: one SSH command per fact, one request per case | target |",
    "|---|---|---|---|",
    `| wall time (median of ${v.runs}, connect included) | ${v.verifyMs.toFixed(0)} ms | ${v.manualMs.toFixed(0)} ms | < 2000 ms |`,
    `| SSH round trips | ${v.roundTrips} | ${v.manualRoundTrips} | 1 |`,
    `| SSH connections | ${v.connections} | 1 | 1 |`,
    v.failed.length
      ? `failing checks on a correct engine: ${v.failed.join(", ")}`
      : "every check passed on the correct engine",
    l ? `\n${renderLoadBench(l)}` : "load step: not measured",
    ok ? "verify: target met" : "verify: TARGET MISSED",
  ].join("\n");
  return { text, ok };
}

// `node --import tsx bench/verify/bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const v = await runVerifyBench();
  const { text, ok } = renderVerifyBench(v);
  console.log(text);
  process.exitCode = ok ? 0 : 1;
}
