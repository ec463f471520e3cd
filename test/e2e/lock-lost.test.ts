// A deploy whose lock is cleared and taken by another runner while it waits for the boot: its next
// heartbeat finds another token, it stops waiting and says so, and it never touches the other's lock.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { activeLocks, runDeploy } from "../../src/stages/deploy/deploy.js";
import { lockDir, takeLock } from "../../src/stages/deploy/lock.js";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, removeDeployed, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";

describe("a lost deploy lock stops the deploy", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let repo: SandboxRepo;
  beforeAll(async () => {
    if (s) host = await SshHost.connect(target(s));
  });
  afterAll(async () => {
    if (repo) {
      await removeDeployed(host, repo);
      repo.cleanup();
    }
    await host?.close();
  });

  it("stops at its next wait, names who holds the lock now, and leaves that lock in place", async (ctx) => {
    sandboxOrSkip(ctx);
    const name = fresh("dg-lost");
    repo = makeSandboxRepo({
      endpoint: name,
      container: name,
      port: 7996,
      address: s!.address,
      fakeEnv: { FAKE_BOOT_SECONDS: "120" },
      bootTimeout: "5m",
      poll: "1s",
    });
    const lines: string[] = [];
    const deploying = runDeploy(
      repo.context(host, (l) => lines.push(l)),
      { dryRun: false, lockWaitMs: 0, owner: "first@runner" },
    );
    // wait (with a generous deadline) until the deploy is polling the boot
    for (const t0 = Date.now(); !lines.some((l) => l.includes(name));) {
      if (Date.now() - t0 > 180_000) throw new Error(`the deploy never started polling: ${lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const mine = activeLocks().find((l) => l.record.endpoint === name)!;
    await host.run(["rm", "-rf", lockDir(name)]);
    const theirs = await takeLock(host, {
      endpoint: name,
      owner: "dave@other",
      ref: "v9",
      sha: null,
      staleAfterMs: 3600_000,
      waitMs: 0,
    });
    if (!theirs.ok) throw new Error(theirs.detail);
    await mine.heartbeat(); // the 30 s timer would do this too; called here so the test does not wait on it
    const res = await deploying;
    const lost = res.findings.find((f) => f.check === "deploy.lock" && f.status === "fail");
    expect(lost?.summary).toMatch(/no longer holds the lock .*dave@other \(v9\)/);
    expect(res.findings.find((f) => f.check === "deploy.ready")?.summary).toMatch(/stopped waiting: .*dave@other/);
    expect(res.ok).toBe(false);
    const rec = JSON.parse((await host.run(["cat", `${lockDir(name)}/record.json`])).stdout) as { owner: string };
    expect(rec.owner).toBe("dave@other");
    await theirs.lock.release();
  }, 400_000);
});
