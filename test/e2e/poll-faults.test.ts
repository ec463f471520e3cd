// Polls that never read a fault as an answer, on the sandbox host: sshd's whole unit killed mid-wait and
// the link dropped for longer than the keepalive limit both end green on a healthy boot; the readiness
// probe sends DEPLOY_GATE_API_KEY to an --api-key engine, and a missing key is auth-mismatch at once.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runDeploy, type DeployResult } from "../../src/stages/deploy/deploy.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, removeDeployed, type RepoVars, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { waitUntil } from "./support/units.js";

let nextPort = 7960;
const OWNER = "e2e@sandbox (poll faults)";
const LINK = "ve-dgsandbox";

/** The deploy running, its wait loop begun; a deploy that ended before that fails with its findings. */
async function waiting(deploy: Promise<DeployResult>, lines: string[]): Promise<void> {
  let ended: DeployResult | null = null;
  void deploy.then(
    (r) => {
      ended = r;
    },
    () => undefined,
  );
  await until(
    "the wait loop's first progress line",
    () => ended !== null || lines.some((l) => /^\[\s*\d+s\] /.test(l)),
    120_000,
  );
  if (ended)
    throw new Error(
      `the deploy ended before its wait loop: ${JSON.stringify((ended as DeployResult).findings.filter((f) => f.status !== "pass"))}`,
    );
}

/** A condition met within a generous deadline (units.ts's waitUntil, for booleans). */
const until = (what: string, cond: () => boolean | Promise<boolean>, ms: number) =>
  waitUntil(what, ms, async () => ((await cond()) ? true : null));

describe("polls across SSH faults on the sandbox host", () => {
  const s = inject("sandbox");
  let admin: SshHost;
  const repos: SandboxRepo[] = [];
  beforeAll(async () => {
    if (s) admin = await SshHost.connect(target(s));
  });
  afterAll(async () => {
    for (const r of repos) {
      await removeDeployed(admin, r);
      r.cleanup();
    }
    await admin?.close();
  });
  const repo = (over: Partial<RepoVars> = {}) => {
    const name = fresh("dg-poll");
    const r = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: nextPort++,
      address: s!.address,
      bootTimeout: "240s",
      poll: "2s",
      ...over,
    });
    repos.push(r);
    return r;
  };
  /** sshd answers again: a fresh connection gets through. */
  const sshdBack = async () => {
    await until(
      "sshd to answer again",
      async () => {
        const h = await SshHost.connect(target(s!), { timeoutMs: 5000 }).catch(() => null);
        await h?.close();
        return h !== null;
      },
      120_000,
    );
  };

  it("sshd's whole unit killed mid-wait: no reading, reconnect, and the healthy boot ends green", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "20" } });
    const host = await SshHost.connect(target(s!));
    const lines: string[] = [];
    try {
      const deploy = runDeploy(
        r.context(host, (l) => lines.push(l)),
        { dryRun: false, lockWaitMs: 0, owner: OWNER },
      );
      await waiting(deploy, lines);
      const before = host.connections;
      // A transient unit outlives the session it was started from: it kills every process of ssh.service
      // (the listener and all sessions, ours too), then starts sshd again.
      const unit = fresh("dg-e2e-sshkill");
      // sshd stays down 10s (longer than the port's reconnect backoff), so at least one poll gets no reading.
      await admin.runShell(
        `systemd-run --unit=${unit} --collect sh -c 'sleep 1; systemctl kill --signal=KILL ssh.service; systemctl stop ssh.service; sleep 10; systemctl reset-failed ssh.service; systemctl start ssh.service'`,
        { timeoutMs: 30_000 },
      );
      const res = await deploy;
      expect(res.findings.filter((f) => f.status === "fail")).toEqual([]);
      expect(res.ok).toBe(true);
      expect(lines.some((l) => /no reading from this poll .*reconnecting and polling again/.test(l))).toBe(true);
      expect(host.connections).toBeGreaterThan(before);
    } finally {
      await sshdBack();
      await host.close();
      await admin.close();
      admin = await SshHost.connect(target(s!));
    }
  }, 300_000);

  it("the link down for longer than the keepalive limit, then up: the same boot ends green", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "20" } });
    // keepalive every 2s, 3 missed: the connection is given up after ~6-8s; the link stays down 20s.
    const host = await SshHost.connect(target(s!), { keepaliveMs: 2000 });
    const lines: string[] = [];
    let down = false;
    try {
      const deploy = runDeploy(
        r.context(host, (l) => lines.push(l)),
        { dryRun: false, lockWaitMs: 0, owner: OWNER },
      );
      await waiting(deploy, lines);
      const before = host.connections;
      execFileSync("ip", ["link", "set", LINK, "down"]);
      down = true;
      const downAt = Date.now();
      await until("a poll that got no reading", () => lines.some((l) => /no reading from this poll/.test(l)), 120_000);
      await until("20s of outage", () => Date.now() - downAt > 20_000, 60_000);
      execFileSync("ip", ["link", "set", LINK, "up"]);
      down = false;
      const res = await deploy;
      expect(res.findings.filter((f) => f.status === "fail")).toEqual([]);
      expect(res.ok).toBe(true);
      // The old connection died of keepalive: the ready verdict came over a new one.
      expect(host.connections).toBeGreaterThan(before);
    } finally {
      if (down) execFileSync("ip", ["link", "set", LINK, "up"]);
      await sshdBack();
      await host.close();
      await admin.close();
      admin = await SshHost.connect(target(s!));
    }
  }, 300_000);

  it("an --api-key engine: ready with DEPLOY_GATE_API_KEY; without it, auth-mismatch at once", async (ctx) => {
    sandboxOrSkip(ctx);
    const key = `sk-e2e-${fresh("k")}`;
    const r = repo({ engineArgs: ["--api-key", key], bootTimeout: "600s", fakeEnv: { FAKE_BOOT_SECONDS: "2" } });
    const lines: string[] = [];
    const t0 = Date.now();
    const bad = await runDeploy(
      r.context(admin, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER, env: {} },
    );
    expect(bad.ok).toBe(false);
    const d = bad.findings.find((f) => f.check === "deploy.diagnosis");
    expect(d?.data?.class).toBe("auth-mismatch");
    expect(d?.summary).toMatch(/401/);
    expect(d?.fix).toMatch(/DEPLOY_GATE_API_KEY/);
    expect(bad.findings.find((f) => f.check === "deploy.ready")?.data?.failure).toBe("auth-mismatch");
    expect(Date.now() - t0).toBeLessThan(90_000); // far inside boot.timeout (600s): not waited on

    const good = await runDeploy(
      r.context(admin, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER, env: { DEPLOY_GATE_API_KEY: key } },
    );
    expect(good.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(good.ok).toBe(true);
    const all = JSON.stringify([bad.findings, good.findings, lines]);
    expect(all).not.toContain(key);
  }, 300_000);
});
