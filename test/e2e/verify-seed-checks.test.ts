// The seed-complete verify checks against engine doubles on the sandbox host: decode speed measured over a
// real stream (rate from the double's argv, a looping double), user plan lines, graphs, VRAM (no smi tool
// here: skipped), and a cache mount that still compiles cold on a second boot. This branch's engine double
// is bound over the image's /app/engine.mjs, so the shared machine's image is left as it is.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { endpointSchema } from "../../src/domain/config/schema.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import type { Finding } from "../../src/domain/report/finding.js";
import { runVerify, VERIFY_CHECKS } from "../../src/stages/verify/verify.js";
import { tempRepo } from "../helpers/repo.js";
import { bundleEngine } from "../sandbox/machine.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { removeUnit, startUnit, unitText, waitUntil, type EngineUnit } from "./support/units.js";
import { contextFor, hostNowMs, scriptText, waitReady, type Booted } from "./support/verify-helpers.js";

const ARGS = ["--served-model-name", "qwen", "--max-model-len", "8192"];
const KV = { name: "kv-tokens", pattern: "GPU KV cache size: ([0-9,]+) tokens", min: 1000 };
// Floor 60: over 3x below the fast case's 200 tok/s and above the slow argv's 25 (an eighth), so no stall of
// a loaded machine moves a sample across it.
const DECODE = { minTokPerS: 60, depths: [166, 1087], maxTokens: 64 };
const CACHE_DIR = "/var/tmp/dg-seven-cache";

interface SevenCase {
  args: string[];
  env: Record<string, string>;
  contracts: Record<string, unknown>;
  mount?: string;
}
const CASES: Record<string, SevenCase> = {
  fast: { args: ARGS, env: { FAKE_DECODE_TOK_S: "200" }, contracts: { decode: DECODE, plan: [KV] } },
  // an eighth of the rate: --max-num-batched-tokens 1024 in the double; and a plan line under its floor
  slow: {
    args: [...ARGS, "--max-num-batched-tokens", "1024"],
    env: { FAKE_DECODE_TOK_S: "200" },
    contracts: { decode: DECODE, plan: [{ ...KV, min: 10_000_000 }] },
  },
  loop: {
    args: ARGS,
    env: { FAKE_DECODE_TOK_S: "400", FAKE_LOOP: "1" },
    contracts: { decode: { ...DECODE, minTokPerS: 10 } },
  },
  // a context shorter than the deeper depth with its tokens out: that depth is not sent, never an invalid sample
  short: {
    args: ["--served-model-name", "qwen", "--max-model-len", "1024"],
    env: { FAKE_DECODE_TOK_S: "200" },
    contracts: { decode: DECODE },
  },
  // the cache mounted on the leaf torch dir, not /root/.cache: every boot compiles cold
  cache: { args: ARGS, env: {}, contracts: {}, mount: `${CACHE_DIR}:/root/.cache/torch` },
};

describe("seed-complete verify on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let engineDir = "";
  const booted = new Map<string, Booted>();
  const local = mkdtempSync(join(tmpdir(), "dg-seven-engine-"));

  async function boot(port: number, c: SevenCase): Promise<Booted> {
    const n = fresh("dg-seven");
    const u: EngineUnit = { unit: `${n}.service`, container: n, port };
    const repo = tempRepo();
    const mounts = ["-v", `${engineDir}/engine.mjs:/app/engine.mjs:ro`, ...(c.mount ? ["-v", c.mount] : [])];
    const script = scriptText(u, s!.image, c.args, c.env).replace(
      "--log-driver journald",
      `--log-driver journald ${c.mount ? `-v ${c.mount}` : ""}`.trimEnd(),
    );
    const sha = repo.commit("serve script", { "scripts/serve.sh": script });
    const endpoint = endpointSchema.parse({
      script: "scripts/serve.sh",
      service: u.unit,
      container: u.container,
      url: `http://${s!.address}:${port}`,
      model: "qwen",
      contracts: c.contracts,
    });
    const startedAtHostMs = await hostNowMs(host);
    const unit = unitText(u, s!.image, c.args, { FAKE_BOOT_SECONDS: "1", ...c.env }).replace(
      "--log-driver journald",
      `--log-driver journald ${mounts.join(" ")}`,
    );
    await startUnit(host, u, unit);
    return { u, repo, sha, endpoint, name: n, startedAtHostMs };
  }

  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    await bundleEngine(local);
    engineDir = `/var/tmp/${fresh("dg-seven-engine")}`;
    await host.runShell(`mkdir -p ${engineDir} ${CACHE_DIR}`);
    await host.writeFile(`${engineDir}/engine.mjs`, readFileSync(join(local, "engine.mjs")), 0o644);
    let port = 7920;
    const entries = Object.entries(CASES);
    const results = await Promise.all(entries.map(([, c]) => boot(port++, c)));
    entries.forEach(([k], i) => booted.set(k, results[i]!));
    await Promise.all(results.map(waitReady));
  });

  afterAll(async () => {
    for (const b of booted.values()) {
      await removeUnit(host, b.u);
      b.repo.cleanup();
    }
    if (host) await host.runShell(`rm -rf ${engineDir} ${CACHE_DIR}`).catch(() => undefined);
    await host?.close();
    rmSync(local, { recursive: true, force: true });
  });

  const verify = async (key: string) => {
    const b = booted.get(key)!;
    return runVerify(contextFor(host, b), {
      deployment: {
        endpoint: b.name,
        ref: "main",
        sha: b.sha,
        startedAtHostMs: b.startedAtHostMs,
        journalCursor: null,
        containerId: null,
        containerCreatedAtHostMs: null,
      },
    });
  };
  const by = (fs: Finding[]) => Object.fromEntries(fs.map((f) => [f.check, f]));

  it("a fast engine passes decode with a per-depth table, its plan line, and its graphs; VRAM is skipped without a tool", async (ctx) => {
    sandboxOrSkip(ctx);
    const fs = await verify("fast");
    expect(fs.map((f) => f.check)).toEqual([...VERIFY_CHECKS]);
    const f = by(fs);
    expect(f["verify.decode"]!.status, f["verify.decode"]!.evidence?.join("\n")).toBe("pass");
    const rows = (f["verify.decode"]!.data as { rows: { depth: number; decodeTokPerS: number; valid: boolean }[] })
      .rows;
    expect(rows.map((r) => r.depth)).toEqual([166, 1087]);
    for (const r of rows) {
      expect(r.valid).toBe(true);
      expect(r.decodeTokPerS).toBeGreaterThan(60);
    }
    expect(f["verify.decode"]!.evidence![0]).toMatch(/^depth \| prompt tokens \| TTFT s/);
    expect(f["verify.plan-lines"]).toMatchObject({ status: "pass" });
    expect((f["verify.plan-lines"]!.data as { rows: { value: number }[] }).rows[0]!.value).toBe(
      (f["verify.plan"]!.data as { kvTokens: number }).kvTokens,
    );
    expect(f["verify.graphs"]).toMatchObject({ status: "pass" });
    expect(f["verify.graphs"]!.data).toMatchObject({
      estimatedGiB: expect.any(Number),
      capturedGiB: expect.any(Number),
    });
    expect(f["verify.vram"]).toMatchObject({
      status: "skip",
      summary: expect.stringMatching(/neither nvidia-smi nor rocm-smi/),
    });
    expect(f["verify.compile-cache"]).toMatchObject({
      status: "pass",
      summary: expect.stringMatching(/^cold: 1 graph/),
    });
  });

  it("a depth longer than the endpoint's context is not measured: the check warns with the depth that fits, and judges the rest", async (ctx) => {
    sandboxOrSkip(ctx);
    const f = by(await verify("short"));
    expect(f["verify.decode"]!.status, f["verify.decode"]!.evidence?.join("\n")).toBe("warn");
    expect(f["verify.decode"]!.summary).toMatch(
      /^decode [\d.]+ tok\/s @ 166; depth 1087 not measured: longer than the endpoint's context \(max-model-len 1024\)$/,
    );
    expect(f["verify.decode"]!.fix).toMatch(/keep its depths at or below 896/);
  });

  it("a slower argv fails decode below the floor, and a plan line under its floor fails plan-lines", async (ctx) => {
    sandboxOrSkip(ctx);
    const f = by(await verify("slow"));
    expect(f["verify.decode"]!.status).toBe("fail");
    expect(f["verify.decode"]!.summary).toMatch(/decode below the contract at depth 166 \(\d+(\.\d+)? < 60 tok\/s\)/);
    expect(f["verify.plan-lines"]!.status).toBe("fail");
    expect(f["verify.plan-lines"]!.summary).toMatch(/kv-tokens \([\d,]+ < min 10,000,000\)/);
  });

  it("a looping engine's samples are invalid, never a speed", async (ctx) => {
    sandboxOrSkip(ctx);
    const d = by(await verify("loop"))["verify.decode"]!;
    expect(d.status).toBe("fail");
    expect(d.summary).toMatch(/2 of 2 decode sample\(s\) invalid/);
    expect(d.evidence!.join("\n")).toMatch(/INVALID: the text loops/);
  });

  it("a cache mount that compiles cold again on the second boot is a warning naming the mount target", async (ctx) => {
    sandboxOrSkip(ctx);
    const b = booted.get("cache")!;
    expect(by(await verify("cache"))["verify.compile-cache"]!.status).toBe("pass"); // first boot: not yet a problem
    const before = (await host.run(["podman", "inspect", "-f", "{{.Id}}", b.u.container])).stdout.trim();
    await host.run(["systemctl", "restart", b.u.unit], { timeoutMs: 60_000 });
    await waitUntil("the second boot", 60_000, async () => {
      const id = (await host.run(["podman", "inspect", "-f", "{{.Id}}", b.u.container])).stdout.trim();
      return id && id !== before ? id : null;
    });
    await waitReady(b);
    const f = by(await verify("cache"))["verify.compile-cache"]!;
    expect(f.status, f.summary).toBe("warn");
    expect(f.summary).toMatch(
      /compiled cold again although scripts\/serve.sh mounts a cache \(\/var\/tmp\/dg-seven-cache:\/root\/\.cache\/torch\) and 1 earlier boot/,
    );
    expect(f.evidence!.join("\n")).toMatch(/mount target \/root\/\.cache\/torch does not contain the vLLM cache root/);
    expect(f.evidence!.join("\n")).toMatch(/no mkdir -p of \/var\/tmp\/dg-seven-cache/);
  });
});
