// The deploy stage against the sandbox host: a real sshd, systemd, journald and podman, the engine double.
import { describe, expect, inject, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy, activeLocks, type DeployResult } from "../../src/stages/deploy/deploy.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, type RepoVars, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxSession, sandboxOrSkip, target } from "./support/sandbox.js";
import { waitUntil } from "./support/units.js";

let nextPort = 7800;
const OWNER = "e2e@sandbox (local)";

describe("deploy on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos = sandboxSession((h) => (host = h));
  const repo = (over: Partial<RepoVars> = {}) => {
    const name = fresh("dg-deploy");
    const r = makeSandboxRepo({ endpoint: name, container: name, port: nextPort++, address: s!.address, ...over });
    repos.push(r);
    return r;
  };
  const check = (res: DeployResult, id: string) => res.findings.find((f) => f.check === id);
  const unitActive = async (r: SandboxRepo) => (await host.run(["systemctl", "is-active", r.service])).stdout.trim();
  const lockGone = async (r: SandboxRepo) =>
    (await host.run(["test", "-e", `.deploy-gate/locks/${r.vars.endpoint}.lock`])).code !== 0;

  it("a good deploy reaches ready on a container created after it began, records state, and a redeploy keeps the previous ref", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const lines: string[] = [];
    const res = await runDeploy(
      r.context(host, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER },
    );
    expect(res.findings.filter((f) => f.status === "fail")).toEqual([]);
    expect(res.ok).toBe(true);
    expect(check(res, "deploy.ready")?.status).toBe("pass");
    // the image's own help, read before the boot (fresh, or kept from an earlier test's deploy of this image)
    expect(check(res, "verify.image-flags")).toMatchObject({ status: "pass", data: { unknown: [] } });
    const ps = await host.run(["podman", "inspect", "--format", "{{.Id}}", r.vars.container]);
    expect(res.deployment?.containerId).toBe(ps.stdout.trim());
    expect(res.deployment!.containerCreatedAtHostMs!).toBeGreaterThanOrEqual(res.deployment!.startedAtHostMs);
    expect(lines.some((l) => /^\[\s*\d+s\] dg-deploy-\w+: .* · container [0-9a-f]{6} created \d+s ago/.test(l))).toBe(
      true,
    );
    const mode = await host.run(["stat", "-c", "%a", r.script]);
    expect(mode.stdout.trim()).toBe("755");
    const models = (await (await fetch(`http://${s!.address}:${r.vars.port}/v1/models`)).json()) as {
      data: { id: string }[];
    };
    expect(models.data[0]!.id).toBe("qwen");
    const first = JSON.parse((await host.run(["cat", `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout) as {
      sha: string;
      previous: unknown;
    };
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
    expect(check(again, "verify.image-flags")?.data).toMatchObject({ cached: true });
    expect(check(again, "deploy.restart")?.summary).not.toMatch(/daemon-reload/);
    expect(again.deployment!.containerId).not.toBe(res.deployment!.containerId);
    const second = JSON.parse((await host.run(["cat", `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout) as {
      previous: { sha: string };
    };
    expect(second.previous.sha).toBe(oldSha);
    expect(await unitActive(r)).toBe("active");
  });

  it("a flag the image dropped fails verify.image-flags before anything changes on the host", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ engineArgs: ["--enable-reasoning"] });
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.ok).toBe(false);
    const f = check(res, "verify.image-flags")!;
    expect(f.status).toBe("fail");
    expect(f.summary).toBe("localhost/engine-double does not know --enable-reasoning: the engine would refuse to boot");
    expect(f.fix).toMatch(/--reasoning-parser alone enables reasoning/);
    // nothing installed, nothing restarted: the unit and the state record were never written
    expect(check(res, "deploy.install")).toBeUndefined();
    expect(check(res, "deploy.restart")).toBeUndefined();
    expect((await host.run(["test", "-e", `.deploy-gate/state/${r.vars.endpoint}.json`])).code).not.toBe(0);
    expect(await lockGone(r)).toBe(true);
  });

  it("an OOM boot fails fast with class oom and the shortfall, and the unit is left up", async (ctx) => {
    sandboxOrSkip(ctx);
    // StartLimitBurst=100: the crash loop goes on after the gate returns without reaching start-limit-hit
    // before the live check below (the gate leaves it retrying; it does not stop it)
    const r = repo({
      fakeEnv: { FAKE_BOOT_SECONDS: "2", FAKE_FAIL: "oom", FAKE_OOM_TRIED_GIB: "4", FAKE_OOM_FREE_GIB: "1.5" },
      startLimitBurst: 100,
    });
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

  it("a dynamo shape failure is named dynamo-shape with the constant", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "2", FAKE_FAIL: "dynamo" }, startLimitBurst: 100 });
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    const d = check(res, "deploy.diagnosis");
    expect(d?.data?.class).toBe("dynamo-shape");
    expect(d?.data?.decisive).toMatch(/Constraints violated \(L\['query_start_loc'\]\.size\(\)\[0\]\)/);
    expect(d?.summary).not.toMatch(/Engine core initialization failed/);
    expect(["active", "activating"]).toContain(await unitActive(r));
  });

  it("an engine that dies at once under Restart=always is engine-args with its usage line, whatever the polls saw, and the gate starts the unit again", async (ctx) => {
    sandboxOrSkip(ctx);
    // An argv error: the engine exits 2 before any vLLM line; three starts within the limit end in start-limit-hit.
    // The verdict may come at the first death or after the start limit: the diagnosis reads the whole window either
    // way.
    const r = repo({ engineArgs: ["--max-num-seqs", "many"], poll: "8s" });
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    // Dying within milliseconds, the unit can already be going down when `systemctl restart` returns: then the
    // restart is red and there is no wait. Either way the diagnosis reads the window and says the same.
    const red = res.findings.filter(
      (f) => (f.check === "deploy.ready" || f.check === "deploy.restart") && f.status === "fail",
    );
    expect(red.length, JSON.stringify(res.findings.map((f) => [f.check, f.status, f.summary]))).toBeGreaterThan(0);
    const d = check(res, "deploy.diagnosis");
    expect(d?.data?.class).toBe("engine-args");
    expect(d?.data?.decisive).toBe("vllm serve: error: argument --max-num-seqs: invalid value: 'many'");
    expect(d?.summary).toMatch(
      /^engine-args: the engine refused its command line before booting \(usage error on --max-num-seqs\)/,
    );
    expect(d?.fix).toMatch(/^Correct --max-num-seqs in the serve script/);
    // Whenever the loop had already ended in start-limit-hit, the gate started the unit again, and the loop is said.
    if (/the unit failed/.test(check(res, "deploy.ready")?.summary ?? "")) {
      expect(d?.summary).toMatch(/crash loop: \d attempts ended/);
      expect(
        res.findings.some(
          (f) => f.check === "deploy.restart" && f.status === "warn" && /started it again/.test(f.summary),
        ),
      ).toBe(true);
    }
    // No live is-active check here: the unit started again dies at once and reaches start-limit-hit within
    // seconds, so what a later read sees depends on timing; the finding above is what the gate did.
  });

  it("a fix deployed while the broken version waits between two attempts of its crash loop is ready, not read as a restart", async (ctx) => {
    sandboxOrSkip(ctx);
    // The broken version dies at once; with RestartSec=15 it sits in auto-restart for 15 s after each death. A
    // restart then keeps the loop's NRestarts (systemd flushes it only after a real stop): before reset-failed,
    // the fix's first poll read that count as its own restart and the deploy went red.
    const r = repo({ engineArgs: ["--max-num-seqs", "many"], restartSec: 15, startLimitBurst: 100 });
    const bad = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(bad.ok).toBe(false);
    await waitUntil("the loop's second death: NRestarts >= 1, waiting in auto-restart", 90_000, async () => {
      const p = (await host.run(["systemctl", "show", "-p", "NRestarts,SubState", "--", r.service])).stdout;
      return /NRestarts=[1-9]/.test(p) && /SubState=auto-restart/.test(p) ? true : null;
    });
    r.commit("fix the argv", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replace("--max-num-seqs many", ""));
    });
    const good = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(
      good.findings.filter((f) => f.status === "fail"),
      JSON.stringify(good.findings.map((f) => [f.check, f.status, f.summary])),
    ).toEqual([]);
    expect(check(good, "deploy.ready")?.status).toBe("pass");
    expect(check(good, "deploy.restart")?.evidence).toContain(`systemctl reset-failed -- ${r.service}`);
  });

  it("an engine that is up where the gate cannot reach it (wrong -p, another container name) fails soon after startup, not at boot.timeout", async (ctx) => {
    sandboxOrSkip(ctx);
    const cases = [
      {
        edit: (t: string) => t.replace('-p "$PORT:7770"', '-p "$PORT:8000"'),
        failure: "url-unreachable",
        fix: /podman run -p HOST:CONTAINER must map to the engine's --port/,
      },
      {
        edit: (t: string) => t.replace(/^CONTAINER="([^"]+)"$/m, 'CONTAINER="$1-b"'),
        failure: "container-mismatch",
        fix: /Make container: in deploy-gate\.yml the name the serve script gives podman run --name \(dg-deploy-\w+-b\)/,
      },
    ];
    for (const c of cases) {
      const r = repo({ bootTimeout: "5m" });
      r.commit("break it", (root) => {
        const p = join(root, "scripts/serve.sh");
        const before = readFileSync(p, "utf8");
        writeFileSync(p, c.edit(before));
        expect(readFileSync(p, "utf8")).not.toBe(before);
      });
      const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
      const ready = check(res, "deploy.ready");
      expect(ready, JSON.stringify(res.findings.map((f) => [f.check, f.status, f.summary]))).toMatchObject({
        status: "fail",
        data: { failure: c.failure },
      });
      expect(ready?.fix).toMatch(c.fix);
      // its own failure, not "timeout": boot.timeout (5 min) was not waited out
      await host.run(["podman", "rm", "-f", `${r.vars.container}-b`]);
    }
  });

  it("a slow ExecStartPre= is said as one, never as a stop hang", async (ctx) => {
    sandboxOrSkip(ctx);
    // TimeoutStopSec=20: the stop-hang watcher looks at 25 s; the start is held 35 s by ExecStartPre
    const r = repo();
    r.commit("pull first", (root) => {
      const p = join(root, "deploy/engine.service");
      writeFileSync(p, readFileSync(p, "utf8").replace("[Service]\n", "[Service]\nExecStartPre=/bin/sleep 35\n"));
    });
    const lines: string[] = [];
    const res = await runDeploy(
      r.context(host, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER },
    );
    // progress while the restart blocks, not 35 s of silence
    expect(
      lines.some((l) =>
        /systemctl restart .*: still waiting after \d+s \(the old engine's stop, then ExecStartPre=\)/.test(l),
      ),
    ).toBe(true);
    const restart = check(res, "deploy.restart");
    expect(restart?.status, JSON.stringify(restart)).toBe("pass");
    expect(restart?.evidence?.join("\n")).toMatch(
      /still waiting after 25 s on the start \(start-pre\), not on the stop: a slow ExecStartPre= holds it/,
    );
    expect(restart?.summary).not.toMatch(/did not stop/);
    expect(check(res, "deploy.ready")?.status).toBe("pass");
  });

  it("verify warns of a serve script edited on the host after the deploy, before a restart runs the edit", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.ok, JSON.stringify(res.findings.map((f) => [f.check, f.status, f.summary]))).toBe(true);
    const before = (await runVerify(r.context(host), { deployment: res.deployment })).find(
      (f) => f.check === "verify.argv",
    )!;
    expect(before.status).toBe("pass");
    await host.run(["sed", "-i", "s/ --enable-auto-tool-choice//", r.script]);
    const after = (await runVerify(r.context(host), { deployment: res.deployment })).find(
      (f) => f.check === "verify.argv",
    )!;
    expect(after.status, after.summary).toBe("warn");
    expect(after.summary).toBe(
      `${r.script} changed on the host since the last deploy wrote it: the live argv still matches main, the next restart runs the edit`,
    );
  });

  it("a container removed from outside mid-wait stops the wait at once and is diagnosed as an outside removal", async (ctx) => {
    sandboxOrSkip(ctx);
    // RestartSec=30: no new container logs over the removed one's last words before the diagnosis reads them
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "40" }, restartSec: 30 });
    let removed = false;
    const other = await SshHost.connect(target(s!));
    try {
      const res = await runDeploy(
        r.context(host, (l) => {
          if (!removed && / · container [0-9a-f]{6} created/.test(l)) {
            removed = true;
            void other.run(["podman", "rm", "-f", r.vars.container], { timeoutMs: 30_000 });
          }
        }),
        { dryRun: false, lockWaitMs: 0, owner: OWNER },
      );
      expect(removed).toBe(true);
      // `rm -f` kills, then removes: a poll between the two sees the container exited, not yet gone
      expect(check(res, "deploy.ready")?.data?.failure).toMatch(
        /container-gone|container-exited|restarting|unit-stopped/,
      );
      expect(check(res, "deploy.diagnosis")?.data?.class).toBe("container-removed");
      expect(["active", "activating"]).toContain(await unitActive(r));
    } finally {
      await other.close();
    }
  });

  it("a boot slower than boot.timeout fails with the phase it reached, after progress lines", async (ctx) => {
    sandboxOrSkip(ctx);
    // The double's first phase line comes at a tenth of its 60 s boot: boot.timeout 20s leaves it 14 s of
    // slack on a loaded machine, and the boot cannot finish inside it (failure "timeout" says it was cut short).
    const r = repo({ fakeEnv: { FAKE_BOOT_SECONDS: "60" }, bootTimeout: "20s" });
    const lines: string[] = [];
    const res = await runDeploy(
      r.context(host, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: OWNER },
    );
    const ready = check(res, "deploy.ready");
    expect(ready?.data?.failure).toBe("timeout");
    expect(ready?.summary).toMatch(/not ready within boot\.timeout \(20s\); last phase: /);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(check(res, "deploy.diagnosis")?.data?.class).toBe("booting");
    expect(await unitActive(r)).toBe("active");
  });

  it("a held lock fails fast naming its holder; --lock-wait waits for its release; a stale lock names the command that clears it", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const dir = `.deploy-gate/locks/${r.vars.endpoint}.lock`;
    const now = Number((await host.run(["date", "+%s"])).stdout.trim());
    const hold = (takenAt: number) =>
      host.runShell(
        `mkdir -p ${dir} && printf '%s' '${JSON.stringify({ endpoint: r.vars.endpoint, owner: "alice@laptop", ref: "v7", sha: "abcdef0123456789", takenAt, heartbeatAt: takenAt, pid: 4242 })}' > ${dir}/record.json`,
      );
    await hold(now);
    const t0 = Date.now();
    const held = await runDeploy(r.context(host), { dryRun: true, lockWaitMs: 0, owner: OWNER });
    expect(Date.now() - t0).toBeLessThan(30_000); // it did not wait
    const f = check(held, "deploy.lock");
    expect(f?.status).toBe("fail");
    expect(f?.summary).toMatch(/alice@laptop deploying v7 \(abcdef0123\)/);
    expect((await host.run(["test", "-d", dir])).code).toBe(0);

    // released once the gate says it waits (its first attempt found the lock held), not after a fixed time
    let released = false;
    const waited = await runDeploy(
      r.context(host, (l) => {
        if (!released && /waiting for the deploy lock/.test(l)) {
          released = true;
          void host.run(["rm", "-rf", dir]);
        }
      }),
      { dryRun: true, lockWaitMs: 120_000, owner: OWNER },
    );
    expect(released).toBe(true);
    expect(check(waited, "deploy.lock")?.summary).toMatch(/after waiting/);
    expect(await lockGone(r)).toBe(true);

    await hold(now - 2 * 3600);
    const stale = await runDeploy(r.context(host), { dryRun: true, lockWaitMs: 0, owner: OWNER });
    const sf = check(stale, "deploy.lock");
    expect(sf?.summary).toMatch(/stale deploy lock/);
    expect(sf?.fix).toContain(`deploy-gate lock release --endpoint ${r.vars.endpoint} --force`);
    expect(sf?.fix).not.toMatch(/rm -rf/);
    await host.run(["rm", "-rf", dir]);
  });

  it("--dry-run shows the diff against the host's copies and the commands, and changes nothing", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const first = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(first.ok).toBe(true);
    const before = (await host.run(["sha256sum", r.script, `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout;
    const id = (await host.run(["podman", "inspect", "--format", "{{.Id}}", r.vars.container])).stdout.trim();
    r.commit("more seqs", (root) => {
      const p = join(root, "scripts/serve.sh");
      writeFileSync(p, readFileSync(p, "utf8").replace("--max-model-len 8192", "--max-model-len 4096"));
    });
    const dry = await runDeploy(r.context(host), { dryRun: true, lockWaitMs: 0, owner: OWNER });
    expect(dry.ok).toBe(true);
    const inst = check(dry, "deploy.install");
    expect(inst?.summary).toMatch(/1 of 2 file\(s\) would change/);
    expect(inst?.evidence?.[0]).toMatch(
      /^--- host:\/root\/dg-e2e\/.*\n\+\+\+ scripts\/serve\.sh \(ref\)[\s\S]*- {2}--served-model-name qwen --max-model-len 8192[\s\S]*\+ {2}--served-model-name qwen --max-model-len 4096/,
    );
    expect(check(dry, "deploy.restart")?.evidence).toContain(`systemctl restart -- ${r.service}`);
    expect((await host.run(["sha256sum", r.script, `.deploy-gate/state/${r.vars.endpoint}.json`])).stdout).toBe(before);
    expect((await host.run(["podman", "inspect", "--format", "{{.Id}}", r.vars.container])).stdout.trim()).toBe(id);
    expect(await lockGone(r)).toBe(true);
  });
});
