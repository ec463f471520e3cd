// deploy.lock: one deploy per endpoint, held as an atomic `mkdir` on the host with the record inside.
// Released on every exit path; the CLI's signal handlers call releaseAllLocks().
import { randomBytes } from "node:crypto";
import type { Host } from "../../ports/host/host.js";
import { shellQuote } from "../../lib/shell-quote.js";
import { describeHolder, lockStaleness, parseLockRecord, type LockRecord } from "./lock-record.js";
import { HOST_STATE_DIR } from "../../domain/host-state.js";
import { sleepUnlessAborted } from "../../lib/sleep.js";

const CMD_TIMEOUT_MS = 20_000;
const HEARTBEAT_MS = 30_000;
const WAIT_POLL_MS = 2_000;

export const lockDir = (endpoint: string) => `${HOST_STATE_DIR}/locks/${endpoint}.lock`;
/** A file beside the lock, never removed: what a heartbeat and a release hold while they check and act. */
export const lockMutex = (endpoint: string) => `${HOST_STATE_DIR}/locks/.${endpoint}.mutex`;

/**
 * The script under the endpoint's mutex (flock, util-linux), so a check of the lock's token and the write
 * or removal after it are one step: a force-release cannot fall between a heartbeat's check and its write
 * (which then overwrote the new holder's record). A host without flock runs the script as before.
 */
export function underLockMutex(endpoint: string, script: string): string {
  const m = shellQuote(lockMutex(endpoint));
  return `mkdir -p ${shellQuote(`${HOST_STATE_DIR}/locks`)} && if command -v flock >/dev/null 2>&1; then exec flock -w 10 ${m} sh -c ${shellQuote(script)}; else exec sh -c ${shellQuote(script)}; fi`;
}

export interface LockRequest {
  endpoint: string;
  owner: string;
  ref: string;
  sha: string | null;
  staleAfterMs: number;
  waitMs: number;
  signal?: AbortSignal;
  /** said once per poll while a held lock is waited for */
  progress?: (line: string) => void;
  /** a fleet endpoint's host name: the clear command names it (--hosts) */
  fleetHost?: string;
  /** lock acquire -m: a hold by hand, with why */
  message?: string;
}

export type LockOutcome =
  | { ok: true; lock: HeldLock; waitedMs: number }
  | { ok: false; held: LockRecord | null; stale: string | null; clearCommand: string; detail: string };

const held = new Set<HeldLock>();

/** Locks this process holds now (for the CLI's SIGINT/SIGTERM handlers). */
export const activeLocks = (): readonly HeldLock[] => [...held];

/** Releases every lock this process holds; never throws. */
export async function releaseAllLocks(): Promise<void> {
  await Promise.all([...held].map((l) => l.release().catch(() => undefined)));
}

export class HeldLock {
  private timer: NodeJS.Timeout | null = null;
  private released = false;
  private readonly lostCtl = new AbortController();
  /** why this run no longer holds the lock (cleared and taken by another); null while it does */
  lost: string | null = null;

  constructor(
    private readonly host: Host,
    readonly record: LockRecord & { token: string },
  ) {
    held.add(this);
    this.timer = setInterval(() => void this.heartbeat().catch(() => undefined), HEARTBEAT_MS);
    this.timer.unref();
  }

  get dir(): string {
    return lockDir(this.record.endpoint);
  }

  /** Aborted when the lock is found to be someone else's: the deploy stops at its next wait. */
  get signal(): AbortSignal {
    return this.lostCtl.signal;
  }

  /**
   * Refreshes heartbeatAt on the host clock, so a live holder never looks gone. The token check and the
   * write are one remote command: a lock cleared and taken by another runner is never taken back.
   */
  async heartbeat(): Promise<void> {
    if (this.released || this.lost) return;
    const rec = `${this.dir}/record.json`;
    const tmp = `${rec}.hb-${this.record.token}`;
    const template = JSON.stringify({ ...this.record, heartbeatAt: 0 }).replace(
      '"heartbeatAt":0',
      '"heartbeatAt":@NOW@',
    );
    const script = `if grep -qF ${shellQuote(this.record.token)} ${shellQuote(rec)} 2>/dev/null; then now=$(date +%s); sed "s/@NOW@/$now/" > ${shellQuote(tmp)} && mv -f ${shellQuote(tmp)} ${shellQuote(rec)} && echo "OK $now"; else echo LOST; cat ${shellQuote(rec)} 2>/dev/null; fi`;
    const r = await this.host.runShell(underLockMutex(this.record.endpoint, script), {
      stdin: template,
      timeoutMs: CMD_TIMEOUT_MS,
    });
    const [first, ...rest] = r.stdout.split("\n");
    if (first === "LOST") {
      const other = parseLockRecord(rest.join("\n"));
      this.lost = other
        ? `the lock was cleared and is now held by ${other.owner} (${other.ref})`
        : "the lock was cleared by someone else";
      this.lostCtl.abort(new Error(this.lost));
      return;
    }
    const m = /^OK (\d+)$/.exec(first ?? "");
    if (r.code === 0 && m) this.record.heartbeatAt = Number(m[1]);
  }

  /** A hold by hand: the lock stays on the host after this process (no heartbeat, no release on exit). */
  keep(): void {
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    held.delete(this);
  }

  /** Removes the lock only while it is still ours (its token), so a cleared-and-retaken lock survives. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.timer) clearInterval(this.timer);
    held.delete(this);
    const rec = shellQuote(`${this.dir}/record.json`);
    await this.host.runShell(
      underLockMutex(
        this.record.endpoint,
        `if grep -qF ${shellQuote(this.record.token)} ${rec} 2>/dev/null; then rm -rf ${shellQuote(this.dir)}; fi`,
      ),
      { timeoutMs: CMD_TIMEOUT_MS },
    );
  }
}

/** What a person runs to clear a lock whose holder is gone. */
export function clearCommand(endpoint: string, fleetHost?: string): string {
  return `deploy-gate lock release --endpoint ${endpoint}${fleetHost ? ` --hosts ${fleetHost}` : ""} --force`;
}

/** One attempt: mkdir is atomic, so exactly one of two racing deploys gets the directory. */
async function tryTake(
  host: Host,
  req: LockRequest,
  token: string,
): Promise<{ taken: LockRecord & { token: string } } | { holder: LockRecord | null; hostNowS: number }> {
  const dir = lockDir(req.endpoint);
  const script = `mkdir -p ${shellQuote(`${HOST_STATE_DIR}/locks`)} && if mkdir ${shellQuote(dir)} 2>/dev/null; then echo TAKEN; date +%s; else echo HELD; date +%s; cat ${shellQuote(`${dir}/record.json`)} 2>/dev/null || true; fi`;
  const r = await host.runShell(script, { timeoutMs: CMD_TIMEOUT_MS });
  const [state, nowText, ...rest] = r.stdout.split("\n");
  const hostNowS = Number(nowText);
  if (r.code !== 0 || !Number.isFinite(hostNowS) || (state !== "TAKEN" && state !== "HELD")) {
    // Our mkdir may have worked: a lock without its record could never be cleared as stale.
    if (state === "TAKEN")
      await host.runShell(`rm -rf ${shellQuote(dir)}`, { timeoutMs: CMD_TIMEOUT_MS }).catch(() => undefined);
    throw new Error(
      `taking the lock ${dir} on ${host.name} failed (exit ${r.code}): ${r.stderr.trim() || r.stdout.trim()}; check that the home directory is writable`,
    );
  }
  if (state === "HELD") return { holder: parseLockRecord(rest.join("\n")), hostNowS };
  const rec = {
    endpoint: req.endpoint,
    owner: req.owner,
    ref: req.ref,
    sha: req.sha,
    takenAt: hostNowS,
    heartbeatAt: hostNowS,
    pid: process.pid,
    token,
    ...(req.message !== undefined ? { message: req.message } : {}),
  };
  try {
    await host.writeFile(`${dir}/record.json`, JSON.stringify(rec), 0o644, { timeoutMs: CMD_TIMEOUT_MS });
  } catch (e) {
    await host.runShell(`rm -rf ${shellQuote(dir)}`, { timeoutMs: CMD_TIMEOUT_MS }).catch(() => undefined);
    throw e;
  }
  return { taken: rec };
}

const sleep = sleepUnlessAborted;

export async function takeLock(host: Host, req: LockRequest, now: () => number = Date.now): Promise<LockOutcome> {
  const token = randomBytes(12).toString("hex");
  const start = now();
  let said = -1; // progress every 10 s of waiting, not every poll
  for (;;) {
    const r = await tryTake(host, req, token);
    if ("taken" in r) return { ok: true, lock: new HeldLock(host, r.taken), waitedMs: now() - start };
    const clear = clearCommand(req.endpoint, req.fleetHost);
    // A record not written yet (a racing holder between mkdir and write) counts as held, not stale.
    const st = r.holder ? lockStaleness(r.holder, r.hostNowS, Math.round(req.staleAfterMs / 1000)) : null;
    if (st?.stale)
      return {
        ok: false,
        held: r.holder,
        stale: st.reason,
        clearCommand: clear,
        detail: describeHolder(r.holder!, r.hostNowS),
      };
    const waited = now() - start;
    if (waited >= req.waitMs || req.signal?.aborted) {
      const who = r.holder ? describeHolder(r.holder, r.hostNowS) : "a holder whose record is not written yet";
      return {
        ok: false,
        held: r.holder,
        stale: null,
        clearCommand: clear,
        detail: req.waitMs > 0 ? `${who} (waited ${Math.round(waited / 1000)} s)` : who,
      };
    }
    if (Math.floor(waited / 10_000) !== said) {
      said = Math.floor(waited / 10_000);
      req.progress?.(
        `waiting for the deploy lock (${Math.round(waited / 1000)} s of ${Math.round(req.waitMs / 1000)} s): held by ${r.holder ? describeHolder(r.holder, r.hostNowS) : "a holder whose record is not written yet"}`,
      );
    }
    await sleep(Math.min(WAIT_POLL_MS, req.waitMs - waited), req.signal);
  }
}
