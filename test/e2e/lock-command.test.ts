// `deploy-gate lock status|release` through main() against the sandbox host's real lock directory.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { lockDir, releaseAllLocks, takeLock } from "../../src/stages/deploy/lock.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, withSandboxHost, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";
import { owner } from "../../src/commands/shared/workspace.js";

async function gate(cwd: string, ...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env: {}, cwd });
  return { code, out, err };
}

describe("deploy-gate lock status|release on the sandbox host", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let repo: SandboxRepo;
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    const name = fresh("dg-lockcmd");
    repo = makeSandboxRepo({ endpoint: name, container: name, port: 7990, address: s.address });
    repo.commit("pin the sandbox host", (root) => {
      const p = join(root, "deploy-gate.yml");
      writeFileSync(p, withSandboxHost(readFileSync(p, "utf8"), s));
    });
  });
  afterAll(async () => {
    await releaseAllLocks();
    if (repo) {
      await host.run(["rm", "-rf", lockDir(repo.vars.endpoint)]);
      repo.cleanup();
    }
    await host?.close();
  });

  it("shows the holder, its age and heartbeat; release needs --force for another's lock and names whose it was", async (ctx) => {
    sandboxOrSkip(ctx);
    const ep = repo.vars.endpoint;
    expect((await gate(repo.root, "lock", "status", "--endpoint", ep)).out).toMatch(/is free/);
    const theirs = await takeLock(host, {
      endpoint: ep,
      owner: "carol@ci-7 (run 42)",
      ref: "v3",
      sha: "abcdef0123456789",
      staleAfterMs: 3600_000,
      waitMs: 0,
    });
    if (!theirs.ok) throw new Error(theirs.detail);
    const st = await gate(repo.root, "lock", "status", "--endpoint", ep);
    expect(st.code).toBe(0);
    expect(st.out).toMatch(
      /held by carol@ci-7 \(run 42\), deploying v3 \(abcdef0123\), taken \d+s ago, last heartbeat \d+s ago \(alive\)/,
    );
    const json = JSON.parse((await gate(repo.root, "lock", "status", "--endpoint", ep, "--json")).out) as {
      held: boolean;
      holder: { owner: string };
    };
    expect(json).toMatchObject({ held: true, holder: { owner: "carol@ci-7 (run 42)" } });

    const refused = await gate(repo.root, "lock", "release", "--endpoint", ep);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/Not released: it is held by carol@ci-7 \(run 42\).*--force/s);
    expect((await host.run(["test", "-d", lockDir(ep)])).code).toBe(0);

    const forced = await gate(repo.root, "lock", "release", "--endpoint", ep, "--force");
    expect(forced.code).toBe(0);
    expect(forced.out).toMatch(/released the deploy lock for .* held by carol@ci-7 \(run 42\) \(v3, taken \d+s ago\)/);
    expect((await host.run(["test", "-d", lockDir(ep)])).code).toBe(1);
    // carol's run finds out at its next heartbeat, and its release leaves others' locks alone
    await theirs.lock.heartbeat();
    expect(theirs.lock.lost).toMatch(/cleared/);
  });

  it("releases this runner's own lock without --force; a lock without its record is shown as such", async (ctx) => {
    sandboxOrSkip(ctx);
    const ep = repo.vars.endpoint;
    const mine = await takeLock(host, {
      endpoint: ep,
      owner: owner(process.env),
      ref: "main",
      sha: null,
      staleAfterMs: 3600_000,
      waitMs: 0,
    });
    if (!mine.ok) throw new Error(mine.detail);
    expect((await gate(repo.root, "lock", "release", "--endpoint", ep)).code).toBe(0);
    expect((await host.run(["test", "-d", lockDir(ep)])).code).toBe(1);
    await host.run(["mkdir", "-p", lockDir(ep)]);
    const bare = await gate(repo.root, "lock", "status", "--endpoint", ep);
    expect(bare.out + bare.err).toMatch(/held, without a record/);
    expect((await gate(repo.root, "lock", "release", "--endpoint", ep, "--force")).code).toBe(0);
    expect((await host.run(["test", "-d", lockDir(ep)])).code).toBe(1);
    expect((await gate(repo.root, "lock", "bogus")).code).toBe(2);
  });

  it("lock acquire -m holds the endpoint by hand: status shows why, a run is refused with it, release frees it", async (ctx) => {
    sandboxOrSkip(ctx);
    const ep = repo.vars.endpoint;
    const got = await gate(repo.root, "lock", "acquire", "--endpoint", ep, "-m", "swapping GPU 2");
    expect(got.err).toBe("");
    expect(got.code).toBe(0);
    expect(got.out).toMatch(
      /acquired the deploy lock .*"swapping GPU 2"; every deploy is refused until deploy-gate lock release/,
    );
    // the process that took it has exited its command: the hold stays on the host
    expect((await gate(repo.root, "lock", "status", "--endpoint", ep)).out).toMatch(
      /held by hand by .*: "swapping GPU 2", taken \d+s ago \(no heartbeat: held until deploy-gate lock release\)/,
    );
    const run = await gate(repo.root, "run", "--endpoint", ep, "--json");
    expect(run.code).toBe(1);
    const lock = (JSON.parse(run.out) as { findings: { check: string; summary: string }[] }).findings.find(
      (f) => f.check === "deploy.lock",
    );
    expect(lock?.summary).toMatch(/holds it by hand: "swapping GPU 2"/);
    const rel = await gate(repo.root, "lock", "release", "--endpoint", ep);
    expect(rel.code).toBe(0);
    expect((await gate(repo.root, "lock", "status", "--endpoint", ep)).out).toMatch(/is free/);
  });
});
