// The deploy stage against the sandbox host: a real sshd, systemd, journald and podman, the engine double.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy, activeLocks, type DeployResult } from "../../src/deploy/index.js";
import { SshHost } from "../../src/host/ssh.js";
import { makeSandboxRepo, removeDeployed, type RepoVars, type SandboxRepo } from "../deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./sandbox.js";

let nextPort = 7800;
const OWNER = "e2e@sandbox (local)";

describe("deploy on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos: SandboxRepo[] = [];
  beforeAll(async () => { if (s) host = await SshHost.connect(target(s)); });
  afterAll(async () => {
    for (const r of repos) { await removeDeployed(host, r); r.cleanup(); }
    await host?.close();
  });
  const repo = (over: Partial<RepoVars> = {}) => {
    const name = fresh("dg-deploy");
    const r = makeSandboxRepo({ endpoint: name, container: name, port: nextPort++, address: s!.address, ...over });
    repos.push(r);
    return r;
  };
  const check = (res: DeployResult, id: string) => res.findings.find((f) => f.check === id);
  const unitActive = async (r: SandboxRepo) => (await host.run(["systemctl", "is-active", r.service])).stdout.trim();
  const lockGone = async (r: SandboxRepo) => (await host.run(["test", "-e", `.deploy-gate/locks/${r.vars.endpoint}.lock`])).code !== 0;

  it("a good deploy reaches ready on a container created after it began, records state, and a redeploy keeps the previous ref", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const lines: string[] = [];
    const res = await runDeploy(r.context(host, (l) => lines.push(l)), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(res.ok).toBe(true);
    expect(check(res, "deploy.ready")?.status).toBe("pass");
    const ps = await host.run(["podman", "inspect", "--format", "{{.Id}}", r.vars.container]);
    expect(res.deployment?.containerId).toBe(ps.stdout.trim());
    expect(res.deployment!.containerCreatedAtHostMs!).toBeGreaterThanOrEqual(res.deployment!.startedAtHostMs);
    expect(lines.some((l) => /^\[\s*\d+s\] dg-deploy-\w+: .* · container [0-9a-f]{6} created \d+s ago/.test(l))).toBe(true);
    const mode = await host.run(["stat", "-c", "%a", r.script]);
    expect(mode.stdout.trim()).toBe("755");
    const models = await (await fetch(`http://${s!.address}:${r.vars.port}/v1/models`)).json() as { data: { id: string }[] };
    expect(models.data[0]!.id).toBe("qwen");
    const first = JSON.parse((await host.run(["cat", `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout) as { sha: string; previous: unknown };
    expect(first).toMatchObject({ sha: r.context(host).sha, previous: null });
    expect(await lockGone(r)).toBe(true);
    expect(activeLocks()).toHaveLength(0);

    // Only the script changes: no daemon-reload, the old container must not count as ready.
    const oldSha = r.context(host).sha;
    r.commit("longer boot", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replace("FAKE_BOOT_SECONDS=2", "FAKE_BOOT_SECONDS=3"));
    });
    const again = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(again.ok).toBe(true);
    expect(check(again, "deploy.restart")?.summary).not.toMatch(/daemon-reload/);
    expect(again.deployment!.containerId).not.toBe(res.deployment!.containerId);
    const second = JSON.parse((await host.run(["cat", `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout) as { previous: { sha: string } };
    expect(second.previous.sha).toBe(oldSha);
    expect(await unitActive(r)).toBe("active");
  });

  it("an OOM boot fails fast with class oom and the shortfall, and the unit is left up", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "2", FAKE_FAIL: "oom", FAKE_OOM_TRIED_GIB: "4", FAKE_OOM_FREE_GIB: "1.5" } });
    const t0 = Date.now();
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.ok).toBe(false);
    expect(check(res, "deploy.ready")?.status).toBe("fail");
    const d = check(res, "deploy.diagnosis");
    expect(d?.data?.class).toBe("oom");
    expect(d?.data?.oom).toMatchObject({ triedGiB: 4, freeGiB: 1.5, shortfallGiB: 2.5 });
    expect(d?.data?.decisive).toMatch(/CUDA out of memory\. Tried to allocate 4\.00 GiB/);
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(["active", "activating"]).toContain(await unitActive(r));
    expect(await lockGone(r)).toBe(true);
  });
});
