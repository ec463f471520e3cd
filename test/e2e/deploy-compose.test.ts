// deploy and verify for an endpoint whose systemd unit runs podman-compose (Debian 12's 1.0.3, really run on
// the sandbox host): the engine's container is the compose service's, named by podman-compose
// (`<project>_<service>_1`, the project being the compose file's directory), with no container: in the config.
import { describe, expect, inject, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runDeploy, type DeployResult } from "../../src/stages/deploy/deploy.js";
import { runVerify } from "../../src/stages/verify/verify.js";
import type { Finding } from "../../src/domain/report/finding.js";
import type { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, type RepoVars, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, sandboxSession } from "./support/sandbox.js";

let nextPort = 8280; // this file's port range: 8280-8289
const OWNER = "e2e@sandbox (local)";
const COMPOSE = "deploy/compose.yaml";

describe("deploy and verify an endpoint whose unit runs podman-compose", () => {
  const s = inject("sandbox");
  let host: SshHost;
  const repos = sandboxSession((h) => (host = h));
  const repo = (over: Partial<RepoVars> = {}) => {
    const name = fresh("dg-compose");
    const r = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: nextPort++,
      address: s!.address,
      template: "sandbox-compose-repo",
      ...over,
    });
    repos.push(r);
    return r;
  };
  // the compose file is installed in /root/dg-e2e/<name>/: podman-compose names the project after that directory
  const serviceContainer = (r: SandboxRepo) => `${r.vars.container}_engine_1`;
  const check = (fs: readonly Finding[], id: string) => fs.find((f) => f.check === id);
  const shown = (fs: readonly Finding[]) => JSON.stringify(fs.map((f) => [f.check, f.status, f.summary]));
  const editCompose = (r: SandboxRepo, message: string, edit: (text: string) => string) =>
    r.commit(message, (root) => {
      const p = join(root, COMPOSE);
      const before = readFileSync(p, "utf8");
      const after = edit(before);
      expect(after).not.toBe(before);
      writeFileSync(p, after);
    });
  const inspect = async (name: string, format: string) =>
    (await host.run(["podman", "container", "inspect", "--format", format, "--", name])).stdout.trim();

  it("a good deploy waits for the service's new container, verify reads its live argv, and a changed compose command is drift", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo();
    const res: DeployResult = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(
      res.findings.filter((f) => f.status === "fail"),
      shown(res.findings),
    ).toEqual([]);
    expect(check(res.findings, "deploy.ready")?.status).toBe("pass");
    // the container deploy waited for is the one podman-compose made for the service, created after the deploy began
    const c = serviceContainer(r);
    expect(res.deployment?.containerId).toBe(await inspect(c, "{{.Id}}"));
    expect(await inspect(c, '{{index .Config.Labels "com.docker.compose.service"}}')).toBe("engine");
    expect(res.deployment!.containerCreatedAtHostMs!).toBeGreaterThanOrEqual(res.deployment!.startedAtHostMs);
    // the unit's main process is podman-compose itself
    const main = (await host.run(["systemctl", "show", "-p", "MainPID", "--value", r.service])).stdout.trim();
    expect((await host.run(["cat", `/proc/${main}/cmdline`])).stdout.split("\0")).toContain("/usr/bin/podman-compose");

    const verified = await runVerify(r.context(host), { deployment: res.deployment });
    expect(
      verified.filter((f) => f.status === "fail"),
      shown(verified),
    ).toEqual([]);
    expect(check(verified, "verify.container")?.status).toBe("pass");
    const argv = check(verified, "verify.argv")!;
    expect(argv.status, argv.summary).toBe("pass");
    expect(argv.summary).toBe(`live argv carries all 3 contract flag(s) and matches ${COMPOSE} at main`);
    expect(argv.evidence?.[0]).toMatch(/^live argv: \/bin\/node \/app\/engine\.mjs \/models\/qwen --port 7770 /);

    // A redeploy after a compose change runs the file as it is now: a new container of the same name.
    editCompose(r, "longer boot", (t) => t.replace('FAKE_BOOT_SECONDS: "2"', 'FAKE_BOOT_SECONDS: "3"'));
    const again = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(again.ok, shown(again.findings)).toBe(true);
    expect(again.deployment!.containerId).not.toBe(res.deployment!.containerId);
    expect(await inspect(c, "{{.Id}}")).toBe(again.deployment!.containerId);

    // The repository's compose command moves on without a deploy: the live argv no longer matches it.
    editCompose(r, "longer context", (t) => t.replace('      - "8192"\n', '      - "16384"\n'));
    const drift = check(await runVerify(r.context(host), { deployment: again.deployment }), "verify.argv")!;
    expect(drift.status, drift.summary).toBe("fail");
    expect(drift.summary).toBe(`live argv drifted from ${COMPOSE} at main: 1 difference(s)`);
    expect(drift.file).toBe(COMPOSE);
    expect(drift.evidence?.some((e) => e.startsWith("drift: ") && e.includes("--max-model-len"))).toBe(true);
  });

  it("a compose command the engine refuses fails with engine-args and the engine's usage line", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ poll: "8s" });
    editCompose(r, "a value the engine refuses", (t) =>
      t.replace('      - "8192"\n', '      - "8192"\n      - --max-num-seqs\n      - many\n'),
    );
    const res = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(res.ok).toBe(false);
    // the image knows the flag (only its value is wrong): the boot is tried, and the engine dies at once
    expect(check(res.findings, "verify.image-flags")?.status, shown(res.findings)).toBe("pass");
    const red = res.findings.filter(
      (f) => (f.check === "deploy.ready" || f.check === "deploy.restart") && f.status === "fail",
    );
    expect(red.length, shown(res.findings)).toBeGreaterThan(0);
    const d = check(res.findings, "deploy.diagnosis");
    expect(d?.data?.class, shown(res.findings)).toBe("engine-args");
    expect(d?.data?.decisive).toBe("vllm serve: error: argument --max-num-seqs: invalid value: 'many'");
    expect(d?.summary).toMatch(/^engine-args: the engine refused its command line before booting/);
  });

  it("a unit whose podman-compose up reuses the old container fails soon with container-reused, not at boot.timeout", async (ctx) => {
    sandboxOrSkip(ctx);
    const r = repo({ bootTimeout: "150s" });
    // no down on start or stop: systemd's stop kills the engine and leaves its container behind, and the next
    // `podman-compose up` fails to create one of that name and starts the old one
    r.commit("no compose down in the unit", (root) => {
      const p = join(root, "deploy/engine.service");
      writeFileSync(p, readFileSync(p, "utf8").replace(/^Exec(StartPre|Stop)=.*\n/gm, ""));
    });
    const first = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(first.ok, shown(first.findings)).toBe(true);
    editCompose(r, "longer boot", (t) => t.replace('FAKE_BOOT_SECONDS: "2"', 'FAKE_BOOT_SECONDS: "3"'));
    const t0 = Date.now();
    const again = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(again.ok).toBe(false);
    const ready = check(again.findings, "deploy.ready")!;
    expect(ready.data?.failure, shown(again.findings)).toBe("container-reused");
    expect(ready.summary).toMatch(/the restart started the old container again instead of a new one$/);
    expect(ready.fix).toBe(
      `podman-compose up starts an existing container of the same name as it was, so the changed compose file never ran: add ExecStartPre=-/usr/bin/podman-compose -f /root/dg-e2e/${r.vars.container}/compose.yaml down to deploy/engine.service (or run up --force-recreate), then deploy again.`,
    );
    // the old container, still the first deploy's, runs the old environment
    expect(await inspect(serviceContainer(r), "{{.Id}}")).toBe(first.deployment!.containerId);
    expect(Date.now() - t0).toBeLessThan(100_000);
  });

  it("with the service logging to k8s-file (no journald records of its own), the unit's copies of its lines carry the boot and the diagnosis", async (ctx) => {
    sandboxOrSkip(ctx);
    // podman-compose runs the service attached (`podman start -a`): its output is podman-compose's stdout, in the
    // unit's journal, whatever the container's log driver
    const r = repo({ poll: "8s" });
    editCompose(r, "log to a file", (t) =>
      t.replace("    environment:\n", "    logging:\n      driver: k8s-file\n    environment:\n"),
    );
    const good = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    expect(good.ok, shown(good.findings)).toBe(true);
    expect(await inspect(serviceContainer(r), "{{.HostConfig.LogConfig.Type}}")).toBe("k8s-file");
    editCompose(r, "a value the engine refuses", (t) =>
      t.replace('      - "8192"\n', '      - "8192"\n      - --max-num-seqs\n      - many\n'),
    );
    const bad = await runDeploy(r.context(host), { dryRun: false, lockWaitMs: 0, owner: OWNER });
    const d = check(bad.findings, "deploy.diagnosis");
    expect(d?.data?.class, shown(bad.findings)).toBe("engine-args");
    expect(d?.data?.decisive).toBe("vllm serve: error: argument --max-num-seqs: invalid value: 'many'");
  });
});
