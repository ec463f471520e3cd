// The deploy lock with real mkdir/sh in a temp home: atomic taking, holder named, stale rules, waiting, release.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  activeLocks,
  clearCommand,
  lockDir,
  lockMutex,
  releaseAllLocks,
  takeLock,
  type LockRequest,
} from "../../../src/stages/deploy/lock.js";
import { LocalHost } from "./local-host.js";
import { lockStaleness, parseLockRecord } from "../../../src/stages/deploy/lock-record.js";
import { until } from "../../helpers/until.js";

const req = (over: Partial<LockRequest> = {}): LockRequest => ({
  endpoint: "archon",
  owner: "bob@ci (run 7)",
  ref: "main",
  sha: "0123456789abcdef",
  staleAfterMs: 3600_000,
  waitMs: 0,
  ...over,
});
const newHost = () => new LocalHost(mkdtempSync(join(tmpdir(), "dg-lock-")));
const nowS = () => Math.floor(Date.now() / 1000);

afterEach(async () => {
  await releaseAllLocks();
});

describe("a lock held by hand (lock acquire -m)", () => {
  it("stays after its taker exits, names the reason to every deploy, and never goes stale", async () => {
    const host = newHost();
    const got = await takeLock(host, req({ owner: "ops@laptop", ref: "-", sha: null, message: "swapping GPU 2" }));
    if (!got.ok) throw new Error(got.detail);
    got.lock.keep();
    expect(activeLocks()).toHaveLength(0); // a signal or exit no longer releases it
    await releaseAllLocks();
    expect(existsSync(join(host.home, lockDir("archon")))).toBe(true);
    const deploy = await takeLock(host, req());
    expect(deploy.ok).toBe(false);
    if (!deploy.ok) {
      expect(deploy.detail).toMatch(/^ops@laptop holds it by hand: "swapping GPU 2", taken \d+s ago$/);
      expect(deploy.stale).toBeNull();
    }
    const rec = parseLockRecord(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8"))!;
    // a day without a heartbeat: a deploy's lock would be stale, a hold by hand is not
    expect(lockStaleness(rec, rec.takenAt + 86_400, 3600).stale).toBe(false);
    expect(lockStaleness({ ...rec, message: undefined }, rec.takenAt + 86_400, 3600).stale).toBe(true);
  });
});

describe("takeLock", () => {
  it("of two racing deploys exactly one gets the lock; the other is told who holds it", async () => {
    const host = newHost();
    const [a, b] = await Promise.all([takeLock(host, req({ owner: "alice" })), takeLock(host, req({ owner: "bob" }))]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const loser = a.ok ? b : a;
    if (loser.ok) throw new Error("unreachable");
    expect(loser.stale).toBeNull();
    expect(activeLocks()).toHaveLength(1);
  });

  it("records who, when and which ref on the host clock, and release removes it", async () => {
    const host = newHost();
    const got = await takeLock(host, req());
    if (!got.ok) throw new Error(got.detail);
    const rec = JSON.parse(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(rec).toMatchObject({ owner: "bob@ci (run 7)", ref: "main", sha: "0123456789abcdef", pid: process.pid });
    expect(Math.abs((rec.takenAt as number) - nowS())).toBeLessThan(5);
    const held = await takeLock(host, req({ owner: "carol" }));
    expect(held.ok).toBe(false);
    if (!held.ok) expect(held.detail).toMatch(/^bob@ci \(run 7\) deploying main \(0123456789\), taken \d+s ago$/);
    await got.lock.release();
    expect(existsSync(join(host.home, lockDir("archon")))).toBe(false);
    expect(activeLocks()).toHaveLength(0);
  });

  it("a wait for a held lock says so as it goes, and its failure says how long it waited", async () => {
    const host = newHost();
    const first = await takeLock(host, req({ owner: "alice" }));
    expect(first.ok).toBe(true);
    const lines: string[] = [];
    const second = await takeLock(host, req({ owner: "bob", waitMs: 2500, progress: (l) => lines.push(l) }));
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.detail).toMatch(/^alice deploying main .* \(waited \d+ s\)$/);
    expect(lines[0]).toMatch(/^waiting for the deploy lock \(0 s of 3 s\): held by alice deploying main/);
  });

  it("release never removes a lock someone else took after ours was cleared", async () => {
    const host = newHost();
    const mine = await takeLock(host, req());
    if (!mine.ok) throw new Error(mine.detail);
    await host.run(["rm", "-rf", lockDir("archon")]);
    const theirs = await takeLock(host, req({ owner: "dave" }));
    expect(theirs.ok).toBe(true);
    await mine.lock.release();
    expect(existsSync(join(host.home, lockDir("archon"), "record.json"))).toBe(true);
  });

  it("a lock older than staleAfter, or whose holder stopped its heartbeat, is stale with the command that clears it", async () => {
    const host = newHost();
    const plant = async (takenAt: number, heartbeatAt: number) => {
      await host.run(["mkdir", "-p", lockDir("archon")]);
      await host.writeFile(
        `${lockDir("archon")}/record.json`,
        JSON.stringify({ endpoint: "archon", owner: "eve", ref: "v1", sha: null, takenAt, heartbeatAt, pid: 1 }),
        0o644,
      );
    };
    await plant(nowS() - 7200, nowS() - 300);
    const old = await takeLock(host, req());
    expect(old).toMatchObject({
      ok: false,
      stale: expect.stringMatching(/older than lock.staleAfter \(3600s\)/),
      clearCommand: "deploy-gate lock release --endpoint archon --force",
    });
    // a recent heartbeat is never stale, whatever the lock's age
    await plant(nowS() - 7200, nowS() - 5);
    expect(await takeLock(host, req())).toMatchObject({ ok: false, stale: null });
    await plant(nowS() - 600, nowS() - 600);
    const gone = await takeLock(host, req());
    expect(gone).toMatchObject({ ok: false, stale: expect.stringMatching(/holder gone/) });
  });

  it("--lock-wait polls until the holder releases, within its budget", async () => {
    const host = newHost();
    const first = await takeLock(host, req());
    if (!first.ok) throw new Error(first.detail);
    setTimeout(() => void first.lock.release(), 2500);
    const t0 = Date.now();
    const second = await takeLock(host, req({ waitMs: 15_000, owner: "frank" }));
    expect(second.ok).toBe(true);
    if (second.ok) expect(second.waitedMs).toBeGreaterThanOrEqual(2000);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const third = await takeLock(host, req({ waitMs: 1500 }));
    expect(third.ok).toBe(false);
  });

  it("a heartbeat moves heartbeatAt; releaseAllLocks frees every held lock", async () => {
    const host = newHost();
    const got = await takeLock(host, req());
    if (!got.ok) throw new Error(got.detail);
    got.lock.record.heartbeatAt = 1;
    await got.lock.heartbeat();
    const rec = JSON.parse(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8")) as {
      heartbeatAt: number;
    };
    expect(Math.abs(rec.heartbeatAt - nowS())).toBeLessThan(5);
    await releaseAllLocks();
    expect(existsSync(join(host.home, lockDir("archon")))).toBe(false);
  });

  it("a heartbeat checks and writes under the lock's mutex, so a force-release never falls between them", async () => {
    const host = newHost();
    const got = await takeLock(host, req());
    if (!got.ok) throw new Error(got.detail);
    // another process (a force-release in progress) holds the mutex
    // its own process group: flock's child holds the lock too, and goes with the group
    const holder = spawn("flock", [lockMutex("archon"), "sleep", "600"], {
      cwd: host.home,
      stdio: "ignore",
      detached: true,
    });
    const stop = () => {
      try {
        process.kill(-holder.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    try {
      expect(await until(() => existsSync(join(host.home, lockMutex("archon"))))).toBe(true);
      got.lock.record.heartbeatAt = 1;
      let done = false;
      const beat = got.lock.heartbeat().then(() => (done = true));
      await new Promise((r) => setTimeout(r, 1500));
      expect(done, "the heartbeat wrote while another process held the mutex").toBe(false);
      // that process clears the lock and another runner takes it, then the mutex is free
      rmSync(join(host.home, lockDir("archon")), { recursive: true });
      const other = await takeLock(host, req({ owner: "carol@ci" }));
      if (!other.ok) throw new Error(other.detail);
      stop();
      await beat;
      expect(got.lock.lost).toMatch(/held by carol@ci/);
      const rec = JSON.parse(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8")) as {
        owner: string;
      };
      expect(rec.owner).toBe("carol@ci");
    } finally {
      stop();
    }
  });

  it("the fix for a held lock is deploy-gate lock release, never a hand-typed rm -rf", () => {
    expect(clearCommand("x")).toBe("deploy-gate lock release --endpoint x --force");
  });

  it("on a fleet host the clear command names that host: the lock is per host", async () => {
    const host = newHost();
    const a = await takeLock(host, req({ owner: "carol@ci" }));
    expect(a.ok).toBe(true);
    const b = await takeLock(host, req({ fleetHost: "gpu-b" }));
    expect(b).toMatchObject({
      ok: false,
      clearCommand: "deploy-gate lock release --endpoint archon --hosts gpu-b --force",
    });
  });

  it("a take that fails after the host printed TAKEN leaves no lock behind", async () => {
    const host = newHost();
    // The record cannot be written: the host said TAKEN, then the write failed.
    const broken = Object.assign(Object.create(host) as LocalHost, {
      writeFile: () => Promise.reject(new Error("disk full")),
    });
    await expect(takeLock(broken, req())).rejects.toThrow(/disk full/);
    expect(existsSync(join(host.home, lockDir("archon")))).toBe(false);
    // The host printed TAKEN but the exit status came back lost (null): same, no record-less lock left.
    const lostExit = Object.assign(Object.create(host) as LocalHost, {
      runShell: async (s: string, o?: object) => ({
        ...(await host.runShell(s, o)),
        code: s.includes("echo TAKEN") ? null : 0,
      }),
    });
    await expect(takeLock(lostExit, req())).rejects.toThrow(/taking the lock/);
    expect(existsSync(join(host.home, lockDir("archon")))).toBe(false);
  });

  it("heartbeat and release act only while the record carries this run's token; a lost lock stops the holder", async () => {
    const host = newHost();
    const mine = await takeLock(host, req());
    if (!mine.ok) throw new Error(mine.detail);
    await host.run(["rm", "-rf", lockDir("archon")]);
    const theirs = await takeLock(host, req({ owner: "dave" }));
    if (!theirs.ok) throw new Error(theirs.detail);
    const before = readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8");
    await mine.lock.heartbeat();
    expect(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8")).toBe(before);
    expect(mine.lock.lost).toMatch(/dave/);
    expect(mine.lock.signal.aborted).toBe(true);
    await mine.lock.release();
    expect(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8")).toBe(before);
    // the holder's own heartbeat keeps it, and does not mark it lost
    theirs.lock.record.heartbeatAt = 1;
    await theirs.lock.heartbeat();
    expect(theirs.lock.lost).toBeNull();
    expect(JSON.parse(readFileSync(join(host.home, lockDir("archon"), "record.json"), "utf8"))).toMatchObject({
      owner: "dave",
      token: theirs.lock.record.token,
    });
  });
});
