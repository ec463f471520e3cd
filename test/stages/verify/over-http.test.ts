// verify with no SSH host, against the engine double served on loopback: a faithful engine passes every
// check HTTP can prove (the host-only ones are skip, never pass), and each broken contract fails its check.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import type { Finding } from "../../../src/domain/report/finding.js";
import { runVerifyOverHttp } from "../../../src/stages/verify/over-http.js";
import { closedPort } from "../../helpers/closed-port.js";
import { engineDoubles } from "../../helpers/engine-double.js";

const doubles = engineDoubles();
afterAll(() => doubles.stopAll());

const FAITHFUL = [
  "--max-model-len",
  "8192",
  "--reasoning-parser",
  "qwen3",
  "--enable-auto-tool-choice",
  "--tool-call-parser",
  "hermes",
];
const endpoint = (url: string, extra: Record<string, unknown> = {}) =>
  endpointSchema.parse({
    script: "s.sh",
    url,
    model: "qwen",
    contracts: {
      thinking: true,
      tools: true,
      kv: { requests: 2 },
      decode: { minTokPerS: 60, depths: [166], maxTokens: 256 },
    },
    ...extra,
  }) as ReturnType<typeof endpointSchema.parse> & { url: string };
const verify = (ep: ReturnType<typeof endpoint>, timeouts = {}) =>
  runVerifyOverHttp({ name: "chat", endpoint: ep, apiKey: null, progress: () => {} }, timeouts);
/** the double as SGLang's launch_server on loopback */
const sglangDouble = (extra: string[], env: Record<string, string> = {}) =>
  doubles.start(
    [
      "-m",
      "sglang.launch_server",
      "--model-path",
      "/models/qwen",
      "--host",
      "127.0.0.1",
      "--port",
      "{port}",
      "--served-model-name",
      "qwen",
      "--context-length",
      "8192",
      ...extra,
    ],
    { FAKE_BOOT_SECONDS: "0.2", ...env },
    true,
  );
const byCheck = (fs: Finding[]) => Object.fromEntries(fs.map((f) => [f.check, f]));
const HOST_ONLY = [
  "verify.restarts",
  "verify.container",
  "verify.plan",
  "verify.argv",
  "verify.env",
  "verify.plan-lines",
  "verify.graphs",
  "verify.compile-cache",
  "verify.vram",
];

describe("verify over HTTP alone", () => {
  it("a faithful engine: every HTTP-provable check passes, KV from /metrics, the host-only checks skip with the reason", async () => {
    const url = await doubles.start(FAITHFUL, { FAKE_DECODE_TOK_S: "400" });
    const f = byCheck(await verify(endpoint(url)));
    for (const c of [
      "verify.models",
      "verify.liveness",
      "verify.kv-capacity",
      "verify.thinking",
      "verify.tools",
      "verify.decode",
    ])
      expect(f[c]?.status, `${c}: ${f[c]?.summary}`).toBe("pass");
    expect(f["verify.kv-capacity"]!.evidence!.join("\n")).toMatch(
      /KV pool from \/metrics: vllm:cache_config_info kv_cache_size_tokens/,
    );
    expect(f["verify.kv-capacity"]!.summary).toMatch(/>= 2 request\(s\) x 8,192 max-model-len/);
    expect(f["verify.spec-decode"]!.status).toBe("skip");
    for (const c of HOST_ONLY) {
      expect(f[c]?.status).toBe("skip");
      expect(f[c]!.summary).toMatch(/needs the serving host/);
    }
  });

  it("each broken contract fails its own check: no reasoning parser, no tool parser, a slow decode, no /metrics", async () => {
    const url = await doubles.start(["--max-model-len", "8192"], {
      FAKE_DECODE_TOK_S: "45",
      FAKE_BREAK: "metrics-off",
    });
    const f = byCheck(await verify(endpoint(url)));
    expect(f["verify.models"]!.status).toBe("pass");
    expect(f["verify.liveness"]!.status).toBe("pass");
    expect(f["verify.thinking"]!.status).toBe("fail");
    expect(f["verify.tools"]!.status).toBe("fail");
    expect(f["verify.decode"]!.status).toBe("fail");
    expect(f["verify.kv-capacity"]!.status).toBe("fail");
    expect(f["verify.kv-capacity"]!.summary).toMatch(/unproven over HTTP: \/metrics answered HTTP 404/);
  });

  it("a pool too small for the declared requests, and a declared spec-decode the engine does not run", async () => {
    const url = await doubles.start(FAITHFUL, { FAKE_DECODE_TOK_S: "400" });
    const ep = endpoint(url);
    ep.contracts.kv = { requests: 1000 };
    ep.contracts.flags = ['--speculative-config {"method":"mtp","num_speculative_tokens":2}'];
    ep.contracts.decode = undefined;
    const f = byCheck(await verify(ep));
    expect(f["verify.kv-capacity"]!.status).toBe("fail");
    expect(f["verify.kv-capacity"]!.summary).toMatch(/KV pool too small: .* < 1000 request\(s\) x 8,192/);
    expect(f["verify.spec-decode"]!.status).toBe("fail");
  });

  it("spec-decode engaged is read from vLLM's counters after a completion", async () => {
    const url = await doubles.start([
      ...FAITHFUL,
      "--speculative-config",
      '{"method":"mtp","num_speculative_tokens":2}',
    ]);
    const ep = endpoint(url);
    ep.contracts.flags = ['--speculative-config {"method":"mtp","num_speculative_tokens":2}'];
    ep.contracts.decode = undefined;
    ep.contracts.thinking = false;
    ep.contracts.tools = false;
    const f = byCheck(await verify(ep));
    expect(f["verify.spec-decode"]!.status, f["verify.spec-decode"]!.summary).toBe("pass");
    expect(f["verify.spec-decode"]!.summary).toMatch(/engaged \(metrics\)/);
  });

  it("SGLang: the pool from sglang:max_total_num_tokens with --enable-metrics; without it, not proven (skip, fail when declared)", async () => {
    const sg = (extra: string[]) => sglangDouble(extra);
    const ep = (url: string) => endpoint(url, { contracts: { kv: { requests: 2 } } });
    const f = byCheck(await verify(ep(await sg(["--enable-metrics"]))));
    expect(f["verify.kv-capacity"]!.status, f["verify.kv-capacity"]!.summary).toBe("pass");
    expect(f["verify.kv-capacity"]!.evidence!.join("\n")).toMatch(
      /KV pool from \/metrics: sglang:max_total_num_tokens/,
    );
    expect(f["verify.kv-capacity"]!.summary).toMatch(/2 request\(s\) x 8,192 max-model-len/);
    expect(f["verify.liveness"]!.status).toBe("pass");
    const g = byCheck(await verify(ep(await sg([]))));
    expect(g["verify.kv-capacity"]!.status).toBe("fail");
    expect(g["verify.kv-capacity"]!.fix).toMatch(/start SGLang with --enable-metrics/);
  });

  // SGLang's gauges (sgl-project/sglang python/sglang/srt/metrics/collector.py @00ae9c1: sglang:spec_accept_length,
  // sglang:spec_accept_rate, mostrecent) are set by scheduler_metrics_mixin.py @01bb3c8 log_decode_stats only every
  // --decode-log-interval (40) decode batches: accepted tokens (+1 per batch) / batches, 0 with no algorithm.
  it("SGLang spec-decode: sglang:spec_accept_length once a decode log interval passed; 0 or 1 is no drafting", async () => {
    const sg = (extra: string[], env: Record<string, string> = {}) => sglangDouble(["--enable-metrics", ...extra], env);
    const EAGLE = [
      "--speculative-algorithm",
      "EAGLE",
      "--speculative-draft-model-path",
      "/models/qwen-eagle",
      "--speculative-num-steps",
      "3",
      "--speculative-eagle-topk",
      "1",
      "--speculative-num-draft-tokens",
      "4",
    ];
    const ep = (url: string) => endpoint(url, { contracts: { flags: ["--speculative-algorithm EAGLE"] } });
    const on = byCheck(await verify(ep(await sg(EAGLE, { FAKE_SPEC_ACCEPT_LEN: "2.6" }))))["verify.spec-decode"]!;
    expect(on.status, on.summary).toBe("pass");
    expect(on.summary).toMatch(/mean accept length 2\.60/);
    expect(on.evidence!.join("\n")).toMatch(/sglang:spec_accept_length\{model_name="qwen",engine_type="unified"/);
    // declared in the contracts, not running in the engine: the gauge stays 0
    const off = byCheck(await verify(ep(await sg([]))))["verify.spec-decode"]!;
    expect(off.status).toBe("fail");
    expect(off.evidence!.join("\n")).toMatch(/sglang:spec_accept_length\{[^}]*\} 0/);
    // running, every draft rejected: one token per batch
    const rejected = byCheck(await verify(ep(await sg(EAGLE, { FAKE_SPEC_ACCEPT_LEN: "1" }))))["verify.spec-decode"]!;
    expect(rejected.status).toBe("fail");
  });

  it("llama-server: the pool from /props (slots x per-slot context); -np 2 holds 2 full requests, not 4", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-gguf-"));
    writeFileSync(join(dir, "qwen.gguf"), "GGUF\u0003\u0000\u0000\u0000");
    try {
      const url = await doubles.start(
        [
          "llama-server",
          "-m",
          join(dir, "qwen.gguf"),
          "--alias",
          "qwen",
          "--host",
          "127.0.0.1",
          "--port",
          "{port}",
          "-c",
          "16384",
          "-np",
          "2",
          "--jinja",
        ],
        { FAKE_BOOT_SECONDS: "0.2" },
        true,
      );
      const two = byCheck(await verify(endpoint(url, { contracts: { kv: { requests: 2 } } })));
      expect(two["verify.kv-capacity"]!.status, two["verify.kv-capacity"]!.summary).toBe("pass");
      expect(two["verify.kv-capacity"]!.evidence!.join("\n")).toMatch(
        /llama-server \/props: n_ctx 8192 per slot x 2 slot\(s\)/,
      );
      const four = byCheck(await verify(endpoint(url, { contracts: { kv: { requests: 4 } } })));
      expect(four["verify.kv-capacity"]!.status).toBe("fail");
      expect(four["verify.kv-capacity"]!.fix).toMatch(/-np/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("/health and /v1/models green but completions hang: liveness fails, never passes", async () => {
    const url = await doubles.start(FAITHFUL, { FAKE_BREAK: "wedged" });
    const ep = endpoint(url);
    ep.contracts.thinking = false;
    ep.contracts.tools = false;
    ep.contracts.decode = undefined;
    const f = byCheck(await verify(ep, { livenessMs: 1500, metricsMs: 3000 }));
    expect(f["verify.models"]!.status).toBe("pass");
    expect(f["verify.liveness"]!.status).toBe("fail");
    expect(f["verify.liveness"]!.summary).toMatch(/did not finish within 1500 ms while \/health answers 200/);
    expect(f["verify.liveness"]!.data).toMatchObject({ class: "wedged" });
  });

  it("an endpoint that does not answer: the gate could not judge (undecided), nothing passes", async () => {
    const fs = await verify(endpoint(`http://127.0.0.1:${await closedPort()}`));
    const f = byCheck(fs);
    expect(f["verify.models"]!.status).toBe("fail");
    expect(f["verify.models"]!.data).toMatchObject({ undecided: true });
    expect(fs.filter((x) => x.status === "pass")).toEqual([]);
  });

  it("no model named: the one /v1/models lists is verified; several listed is bad input (undecided)", async () => {
    const url = await doubles.start(["--max-model-len", "8192"]);
    const f = byCheck(await verify(endpoint(url, { model: undefined, contracts: {} })));
    expect(f["verify.models"]!.status).toBe("pass");
    expect(f["verify.liveness"]!.status).toBe("pass");
    const two = createServer((_q, r) => r.end(JSON.stringify({ object: "list", data: [{ id: "a" }, { id: "b" }] })));
    await new Promise<void>((r) => two.listen(0, "127.0.0.1", r));
    try {
      const port = (two.address() as { port: number }).port;
      const g = byCheck(await verify(endpoint(`http://127.0.0.1:${port}`, { model: undefined, contracts: {} })));
      expect(g["verify.models"]!.summary).toMatch(/no model to verify: model: is not set and \/v1\/models lists a, b/);
      expect(g["verify.models"]!.data).toMatchObject({ undecided: true });
    } finally {
      two.close();
    }
  });
});
