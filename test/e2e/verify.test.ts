// The verify stage against engine doubles on the sandbox host: a correct engine passes every check; each
// broken engine fails exactly the check that should fail, with a fix.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SshHost } from "../../src/ports/host/ssh.js";
import type { Finding } from "../../src/domain/report/finding.js";
import { readStateRecord, runVerify, VERIFY_CHECKS } from "../../src/stages/verify/verify.js";
import { sandboxOrSkip, target } from "./support/sandbox.js";
import { removeUnit, waitUntil } from "./support/units.js";
import {
  bootCase,
  contextFor,
  GOOD_ARGS,
  hostNowMs,
  scriptText,
  waitReady,
  type Booted,
  type Case,
} from "./support/verify-helpers.js";

const without = (args: string[], ...flags: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!flags.includes(args[i]!)) {
      out.push(args[i]!);
      continue;
    }
    if (args[i + 1] !== undefined && !args[i + 1]!.startsWith("--")) i++;
  }
  return out;
};
const ENV = { VLLM_LOGGING_LEVEL: "INFO", HF_TOKEN: "hf_secretvalue123" };
const CONTRACTS_NO_REASONING = {
  flags: ["--enable-auto-tool-choice", "--tool-call-parser qwen3_xml"],
  env: ["VLLM_LOGGING_LEVEL", "HF_TOKEN"],
  kv: { requests: 4 },
  thinking: true,
  tools: true,
};
const CONTRACTS_NO_TOOLS = {
  flags: ["--reasoning-parser qwen3"],
  env: ["VLLM_LOGGING_LEVEL", "HF_TOKEN"],
  kv: { requests: 4 },
  thinking: true,
  tools: true,
};

const CASES: Record<string, Case> = {
  good: {
    live: GOOD_ARGS,
    env: ENV,
    contracts: {
      ...CONTRACTS_NO_REASONING,
      flags: ["--reasoning-parser qwen3", ...CONTRACTS_NO_REASONING.flags],
      structured: true,
    },
  },
  noReasoning: { live: without(GOOD_ARGS, "--reasoning-parser"), env: ENV, contracts: CONTRACTS_NO_REASONING },
  noTools: {
    live: without(GOOD_ARGS, "--enable-auto-tool-choice", "--tool-call-parser"),
    env: ENV,
    contracts: CONTRACTS_NO_TOOLS,
  },
  // 2 GiB at 98,304 B/token = 21,840 tokens < 4 x 8,192
  smallKv: { live: [...GOOD_ARGS, "--kv-cache-memory-bytes", String(2 ** 31)], env: ENV },
  envMissing: { live: GOOD_ARGS, env: { HF_TOKEN: ENV.HF_TOKEN }, repoEnv: ENV },
  // the repo says 8192; someone changed the unit on the host by hand to 16384
  crashLoop: { live: GOOD_ARGS, env: ENV, unitEnv: { FAKE_BOOT_SECONDS: "0.3", FAKE_CRASH_AFTER: "1" } },
  drift: { live: GOOD_ARGS.map((a) => (a === "8192" ? "16384" : a)), repo: GOOD_ARGS, env: ENV },
};

const failing = (fs: Finding[]) =>
  fs
    .filter((f) => f.status === "fail")
    .map((f) => f.check)
    .sort();

describe("verify stage on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const booted = new Map<string, Booted>();
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    let port = 7850;
    const entries = Object.entries(CASES);
    const results = await Promise.all(entries.map(([, c]) => bootCase(host, s, port++, c)));
    entries.forEach(([k], i) => booted.set(k, results[i]!));
    await Promise.all(results.filter((b) => b !== booted.get("crashLoop")).map(waitReady));
  });
  afterAll(async () => {
    for (const b of booted.values()) {
      await removeUnit(host, b.u);
      b.repo.cleanup();
    }
    await host?.close();
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

  it("a correct engine passes every check, with the plan, argv and spec-decode figures in the data", async (ctx) => {
    sandboxOrSkip(ctx);
    const fs = await verify("good");
    expect(fs.map((f) => f.check)).toEqual([...VERIFY_CHECKS]);
    // skipped for want of a contract (plan-lines, decode) or of a GPU tool on the host (vram); everything else passes
    expect(fs.filter((f) => f.status !== "pass").map((f) => `${f.check}: ${f.status}`)).toEqual([
      "verify.plan-lines: skip",
      "verify.vram: skip",
      "verify.metrics: skip",
      "verify.decode: skip",
      "verify.slo: skip",
    ]);
    const by = Object.fromEntries(fs.map((f) => [f.check, f]));
    expect(by["verify.plan"]!.data).toMatchObject({ maxModelLen: 8192 });
    expect((by["verify.plan"]!.data as { kvTokens: number }).kvTokens).toBeGreaterThan(4 * 8192);
    expect(by["verify.spec-decode"]!.data).toMatchObject({ source: "metrics" });
    // secrets never leave the host in the clear
    expect(JSON.stringify(fs)).not.toContain("hf_secretvalue123");
    expect(by["verify.env"]!.evidence).toContain("HF_TOKEN=***");
  });

  const cases: [string, string, RegExp][] = [
    ["noReasoning", "verify.thinking", /--reasoning-parser/],
    ["noTools", "verify.tools", /--enable-auto-tool-choice/],
    ["smallKv", "verify.kv-capacity", /--kv-cache-memory-bytes/],
    ["envMissing", "verify.env", /VLLM_LOGGING_LEVEL/],
    ["drift", "verify.argv", /redeploy/],
  ];
  it.for(cases)("%s fails exactly %s, with a fix", async ([key, check, fix], ctx) => {
    sandboxOrSkip(ctx);
    const fs = await verify(key);
    expect(failing(fs)).toEqual([check]);
    const f = fs.find((x) => x.check === check)!;
    expect(f.fix).toMatch(fix);
  });

  it("the failures show their arithmetic and drift line by line", async (ctx) => {
    sandboxOrSkip(ctx);
    const kv = (await verify("smallKv")).find((f) => f.check === "verify.kv-capacity")!;
    expect(kv.summary).toMatch(/21,840 KV tokens < 4 request\(s\) x 8,192 max-model-len = 32,768/);
    const argv = (await verify("drift")).find((f) => f.check === "verify.argv")!;
    expect(argv.data?.drift).toEqual([
      { flag: "--max-model-len", kind: "value-differs", repo: "8192", host: "16384", line: expect.any(Number) },
    ]);
    expect(argv.evidence).toContainEqual(
      expect.stringMatching(/^drift: --max-model-len: repo \(scripts\/serve.sh:\d+\) 8192, host 16384$/),
    );
    const tools = (await verify("noTools")).find((f) => f.check === "verify.tools")!;
    expect(tools.summary).toMatch(/HTTP 400/);
  });

  it("a restart loop fails verify.restarts with the count and how to read the cause", async (ctx) => {
    sandboxOrSkip(ctx);
    const b = booted.get("crashLoop")!;
    await waitUntil("a restart", 60_000, async () =>
      Number((await host.run(["systemctl", "show", "-p", "NRestarts", "--value", b.u.unit])).stdout.trim()) >= 1
        ? true
        : null,
    );
    const f = (await verify("crashLoop")).find((x) => x.check === "verify.restarts")!;
    expect(f.status).toBe("fail");
    expect((f.data as { nRestarts: number }).nRestarts).toBeGreaterThanOrEqual(1);
    expect(f.fix).toMatch(/journalctl -u dg-verify-\w+\.service/);
  });

  it("verify alone dates the container against the host's state record, and fails an older container", async (ctx) => {
    sandboxOrSkip(ctx);
    const b = booted.get("good")!;
    const path = `.deploy-gate/state/${b.name}.json`;
    const record = (deployedAt: number) =>
      JSON.stringify({
        schema: 1,
        endpoint: b.name,
        ref: "main",
        sha: b.sha,
        deployedAt,
        by: "test",
        files: [],
        previous: null,
      });
    try {
      await host.runShell("mkdir -p .deploy-gate/state");
      await host.writeFile(path, record(Math.floor(b.startedAtHostMs / 1000)), 0o644);
      expect(await readStateRecord(host, b.name)).toMatchObject({ endpoint: b.name, sha: b.sha });
      let f = (await runVerify(contextFor(host, b), { deployment: null })).find((x) => x.check === "verify.container")!;
      expect(f.status).toBe("pass");
      expect(f.data).toMatchObject({ stateRecord: { sha: b.sha } });
      await host.writeFile(path, record(Math.floor((await hostNowMs(host)) / 1000) + 3600), 0o644);
      f = (await runVerify(contextFor(host, b), { deployment: null })).find((x) => x.check === "verify.container")!;
      expect(f.status).toBe("fail");
      expect(f.summary).toMatch(/predates the deploy/);
    } finally {
      await host.run(["rm", "-f", path]);
    }
  });

  it("rollback-tag verification: the live argv against the script at a tag lists the drift line by line", async (ctx) => {
    sandboxOrSkip(ctx);
    const b = booted.get("good")!;
    const old = GOOD_ARGS.map((a) => (a === "8192" ? "4096" : a)).filter(
      (a) => a !== "--speculative-config" && !a.startsWith("{"),
    );
    const tagSha = b.repo.commit("older shape", { "scripts/serve.sh": scriptText(b.u, s!.image, old, ENV) });
    b.repo.git("tag", "shape-old");
    b.repo.git("reset", "-q", "--hard", b.sha);
    const fs = await runVerify({ ...contextFor(host, b, "shape-old"), sha: tagSha }, { deployment: null });
    const argv = fs.find((x) => x.check === "verify.argv")!;
    expect(argv.status).toBe("fail");
    expect(argv.summary).toMatch(/drifted from scripts\/serve.sh at shape-old: 2 difference/);
    expect((argv.data!.drift as { flag: string; kind: string }[]).map((d) => `${d.flag} ${d.kind}`).sort()).toEqual([
      "--max-model-len value-differs",
      "--speculative-config added-on-host",
    ]);
  });
});
