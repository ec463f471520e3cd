// Fleets on three sandbox machines (`up --hosts 3`, booted by the global setup): canary first, then a
// batch in parallel; a halt on the first failure with a rollback of every changed host; verify.replicas
// naming a drifted replica; SIGINT mid-rollout releasing every lock. Real sshd, systemd, journald, podman.
import { execFile, execFileSync, spawn } from "node:child_process";
import { promisify } from "node:util";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { gate } from "./support/gate-cli.js";
import type { Report } from "../../src/domain/report/finding.js";
import type { SshHost } from "../../src/ports/host/ssh.js";
import { hostSizedScript, makeFleet, vramFile, type Fleet } from "./support/fleet-repo.js";
import { waitUntil } from "./support/units.js";

const execFileAsync = promisify(execFile);
let nextPort = 8210; // this file's port range: 8210-8229

const row = (r: Report, host: string) => r.fleet?.find((x) => x.host === host);
const stateSha = async (h: SshHost, f: Fleet) => {
  const r = await h.run(["cat", `.deploy-gate/state/${f.repo.vars.endpoint}.json`]);
  return r.code === 0 ? (JSON.parse(r.stdout) as { sha: string }).sha : null;
};
const containerId = async (h: SshHost, f: Fleet) =>
  (await h.run(["podman", "inspect", "--format", "{{.Id}}", f.repo.vars.container])).stdout.trim();
const lockHeld = async (h: SshHost, f: Fleet) =>
  (await h.run(["test", "-e", `.deploy-gate/locks/${f.repo.vars.endpoint}.lock`])).code === 0;
const edit = (f: Fleet, msg: string, from: string, to: string) =>
  f.repo.commit(msg, (root) => {
    const p = join(root, "scripts/serve.sh");
    writeFileSync(p, readFileSync(p, "utf8").replace(from, to));
  });

describe("fleet rollout on three sandbox hosts", () => {
  const machines = inject("fleet");
  const fleets: Fleet[] = [];
  afterAll(async () => {
    for (const f of fleets) await f.cleanup();
  });
  const fleet = async (ctx: { skip: (why: string) => void }, extra = "    rollout: { canary: 1, batch: 2 }\n") => {
    if (!machines)
      ctx.skip(
        inject("sandboxSkip") || "the fleet machines were not booted (run this file by name or the whole e2e suite)",
      );
    const f = await makeFleet(machines!, nextPort++, extra);
    fleets.push(f);
    return f;
  };

  it("status --json lists every machine; ssh --host I reaches machine I with its own pinned key", async (ctx) => {
    if (!machines) ctx.skip(inject("sandboxSkip") || "the fleet machines were not booted");
    const sandbox = (...args: string[]) =>
      execFileAsync(process.execPath, ["--import", "tsx", "test/sandbox/cli.ts", ...args], { timeout: 60_000 });
    const st = JSON.parse((await sandbox("status", "--json")).stdout) as {
      address: string;
      hosts: { address: string; hostKeyFingerprint: string }[];
    };
    expect(st.address).toBe("10.231.77.2");
    expect(st.hosts.slice(0, 3)).toEqual(machines);
    expect(new Set(machines!.map((m) => m.hostKeyFingerprint)).size).toBe(3);
    expect(machines!.map((m) => m.address)).toEqual(["10.231.77.2", "10.231.78.2", "10.231.79.2"]);
    // The machine's own addresses, from inside it (no ip(8) in the root): host 2's subnet, not host 0's.
    const r = await sandbox("ssh", "--host", "2", "grep -o '10\\.231\\.[0-9]*\\.2' /proc/net/fib_trie | sort -u");
    expect(r.stdout).toBe("10.231.79.2\n");
  });

  it("a good change rolls out to the canary, then the batch in parallel, and the replicas agree", async (ctx) => {
    const f = await fleet(ctx);
    const { code, report, err } = await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint);
    expect(report.findings.filter((x) => x.status === "fail")).toEqual([]);
    expect(code).toBe(0);
    expect(report.fleet?.map((r) => [r.host, r.step, r.verdict])).toEqual([
      ["gpu-a", 1, "pass"],
      ["gpu-b", 2, "pass"],
      ["gpu-c", 2, "pass"],
    ]);
    for (const r of report.fleet!) {
      expect(r.readyMs).toBeGreaterThan(0);
      expect(r.kvTokens).toBeGreaterThan(0);
    }
    // The batch starts only after the canary passed; progress lines name the host.
    expect(err.indexOf("[gpu-a] step 1: passed")).toBeGreaterThan(-1);
    expect(err.indexOf("[gpu-b] step 2: connecting")).toBeGreaterThan(err.indexOf("[gpu-a] step 1: passed"));
    expect(err.indexOf("[gpu-c] step 2: connecting")).toBeGreaterThan(err.indexOf("[gpu-a] step 1: passed"));
    expect(report.findings.find((x) => x.check === "verify.replicas")?.status).toBe("pass");
    for (const host of f.names)
      expect(report.findings.filter((x) => x.host === host && x.check === "deploy.ready").map((x) => x.status)).toEqual(
        ["pass"],
      );
    const head = execFileSync("git", ["-C", f.repo.root, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    for (const h of f.hosts) expect(await stateSha(h, f)).toBe(head);
    for (const m of machines!) {
      const models = (await (await fetch(`http://${m.address}:${f.repo.vars.port}/v1/models`)).json()) as {
        data: { id: string }[];
      };
      expect(models.data[0]!.id).toBe("qwen");
    }
  });

  it("a change that fails on the canary touches no other host", async (ctx) => {
    const f = await fleet(ctx);
    expect((await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint)).code).toBe(0);
    const good = execFileSync("git", ["-C", f.repo.root, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const before = await Promise.all(f.hosts.slice(1).map((h) => containerId(h, f)));
    edit(f, "raise memory use", "-e FAKE_BOOT_SECONDS=2", "-e FAKE_BOOT_SECONDS=2 -e FAKE_FAIL=oom");
    const { code, report } = await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint);
    expect(code).toBe(1);
    expect(row(report, "gpu-a")?.verdict).toBe("fail");
    expect(report.findings.find((x) => x.host === "gpu-a" && x.check === "deploy.diagnosis")?.data?.class).toBe("oom");
    for (const h of ["gpu-b", "gpu-c"]) {
      expect(row(report, h)?.verdict).toBe("not touched");
      expect(report.findings.filter((x) => x.host === h).map((x) => [x.check, x.status])).toEqual([
        ["fleet.rollout", "skip"],
      ]);
    }
    const halt = report.findings.find((x) => x.check === "fleet.rollout" && !x.host);
    expect(halt?.summary).toMatch(/halted at step 1 of 2: gpu-a failed; 2 host\(s\) not touched \(gpu-b, gpu-c\)/);
    expect(halt?.fix).toContain(`deploy-gate run --endpoint ${f.repo.vars.endpoint}`);
    expect(halt?.fix).not.toContain("--hosts"); // every host still needs the change
    // The other replicas still run the good version in the same containers.
    expect(await Promise.all(f.hosts.slice(1).map((h) => containerId(h, f)))).toEqual(before);
    for (const h of f.hosts.slice(1)) expect(await stateSha(h, f)).toBe(good);
  });

  it("a change that passes the canary but fails on one batch host halts, rolls back every changed host and verifies them; the job fails", async (ctx) => {
    const f = await fleet(ctx, "    rollout: { canary: 1, batch: 2 }\n    rollback: { ref: good, auto: true }\n");
    hostSizedScript(f.repo);
    execFileSync("git", ["-C", f.repo.root, "tag", "good"]);
    expect((await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint)).code).toBe(0);
    const good = execFileSync("git", ["-C", f.repo.root, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    // gpu-c has less free VRAM (another tenant): a longer context fits on 32 GiB but not there.
    await f.hosts[2]!.run(["sh", "-c", `echo 24 > ${vramFile(f.repo)}`]);
    edit(f, "longer context", "--max-model-len 8192", "--max-model-len 65536");
    const { code, report } = await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint);
    expect(code).toBe(1);
    expect(row(report, "gpu-a")?.verdict).toBe("rolled back");
    // on a miss, name what the rollback found (a flake here once said only "rollback failed")
    const rbFindings = report.findings
      .filter((x) => x.host === "gpu-c" && (x.data?.rollback || x.check === "deploy.rollback"))
      .map((x) => `${x.status} ${x.check}: ${x.summary}\n${(x.evidence ?? []).join("\n")}`);
    expect(row(report, "gpu-c")?.verdict, rbFindings.join("\n")).toBe("failed, rolled back");
    expect(report.fleet?.[0]?.host).toBe("gpu-c"); // failures first
    expect(
      report.findings.find((x) => x.host === "gpu-c" && x.check === "deploy.ready" && !x.data?.rollback)?.status,
    ).toBe("fail");
    for (const host of f.names) {
      expect(report.findings.find((x) => x.host === host && x.check === "deploy.rollback")?.status).toBe("pass");
      expect(
        report.findings.some(
          (x) => x.host === host && x.data?.rollback && x.check === "verify.argv" && x.status === "pass",
        ),
      ).toBe(true);
    }
    const halt = report.findings.find((x) => x.check === "fleet.rollout" && !x.host);
    expect(halt?.summary).toMatch(
      /halted at step 2 of 2: gpu-c failed; rolled back and verified: gpu-a, gpu-b, gpu-c; 0 host\(s\) not touched/,
    );
    expect(halt?.fix).toContain(`roll it out again: deploy-gate run --endpoint ${f.repo.vars.endpoint}`);
    expect(halt?.fix).not.toContain("--hosts"); // every host runs the rollback ref again
    for (const h of f.hosts) expect(await stateSha(h, f)).toBe(good);
    for (const m of machines!) {
      const models = (await (await fetch(`http://${m.address}:${f.repo.vars.port}/v1/models`)).json()) as {
        data: { max_model_len: number }[];
      };
      expect(models.data[0]!.max_model_len).toBe(8192);
    }
  });

  it("verify names a replica edited by hand and one that booted with a different KV pool", async (ctx) => {
    const f = await fleet(ctx);
    hostSizedScript(f.repo);
    expect((await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint)).code).toBe(0);
    const clean = await gate(f.repo.root, "verify", "--endpoint", f.repo.vars.endpoint);
    expect(clean.report.findings.filter((x) => x.status === "fail")).toEqual([]);
    // By hand on gpu-b: a shorter context in the installed script. On gpu-c: less free VRAM at the next boot.
    await f.hosts[1]!.run(["sed", "-i", "s/--max-model-len 8192/--max-model-len 4096/", f.repo.script]);
    await f.hosts[2]!.run(["sh", "-c", `echo 28 > ${vramFile(f.repo)}`]);
    for (const [i, h] of f.hosts.entries()) {
      if (i === 0) continue;
      const before = await containerId(h, f);
      await h.run(["systemctl", "restart", f.repo.service], { timeoutMs: 60_000 });
      await waitUntil(`${f.names[i]} ready again`, 90_000, async () => {
        const id = await containerId(h, f);
        if (!id || id === before) return null;
        const r = await fetch(`http://${machines![i]!.address}:${f.repo.vars.port}/v1/models`).catch(() => null);
        return r?.ok ? true : null;
      });
    }
    const { code, report } = await gate(f.repo.root, "verify", "--endpoint", f.repo.vars.endpoint);
    expect(code).toBe(1);
    const rep = report.findings.find((x) => x.check === "verify.replicas");
    expect(rep?.status).toBe("fail");
    expect(rep?.summary).toMatch(/2 of 3 replica\(s\) differ from the fleet: gpu-b \(argv\), gpu-c \(KV\)/);
    expect(rep?.evidence?.join("\n")).toMatch(/gpu-b: .*argv: missing 8192; extra 4096/);
    expect(rep?.fix).toContain("--hosts gpu-b,gpu-c");
    expect(row(report, "gpu-a")?.verdict).toBe("pass");

    // --hosts gpu-b redeploys that replica alone from the repo; verify.replicas still compares the whole fleet.
    const untouched = await Promise.all([0, 2].map((i) => containerId(f.hosts[i]!, f)));
    const fix = await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint, "--hosts", "gpu-b");
    expect(fix.report.fleet?.map((x) => [x.host, x.verdict])).toEqual([["gpu-b", "pass"]]);
    expect(fix.report.findings.find((x) => x.check === "verify.replicas")?.summary).toMatch(
      /^1 of 3 replica\(s\) differ from the fleet: gpu-c \(KV\)$/,
    );
    expect(await Promise.all([0, 2].map((i) => containerId(f.hosts[i]!, f)))).toEqual(untouched);
  });

  it("SIGINT mid-rollout releases every lock and leaves every unit up", async (ctx) => {
    const f = await fleet(ctx, "    rollout: { canary: 0, batch: 2 }\n");
    expect((await gate(f.repo.root, "run", "--endpoint", f.repo.vars.endpoint)).code).toBe(0);
    edit(f, "slow boot", "-e FAKE_BOOT_SECONDS=2", "-e FAKE_BOOT_SECONDS=40");
    const cli = join(import.meta.dirname, "../../src/cli/bin.ts");
    // tsx from this checkout: the fixture repo (the child's cwd) has no node_modules.
    const child = spawn(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), cli, "run", "--endpoint", f.repo.vars.endpoint],
      { cwd: f.repo.root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    try {
      // Interrupt while the first batch (gpu-a, gpu-b) waits for its slow boot, each holding its host's lock.
      await waitUntil("gpu-a and gpu-b waiting on their boot", 90_000, async () =>
        /\[gpu-a\] \[\s*\d+s\]/.test(err) &&
        /\[gpu-b\] \[\s*\d+s\]/.test(err) &&
        (await lockHeld(f.hosts[0]!, f)) &&
        (await lockHeld(f.hosts[1]!, f))
          ? true
          : null,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; the CLI's stderr:\n${err.slice(-3000)}`);
      });
      child.kill("SIGINT");
      expect(await exited).toBe(130);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    expect(err).toMatch(/SIGINT: releasing host locks/);
    expect(err).not.toMatch(/\[gpu-c\]/); // the next step never started
    for (const h of f.hosts) expect(await lockHeld(h, f)).toBe(false);
    for (const h of f.hosts)
      expect(["active", "activating"]).toContain(
        (await h.run(["systemctl", "is-active", f.repo.service])).stdout.trim(),
      );
  });
});
