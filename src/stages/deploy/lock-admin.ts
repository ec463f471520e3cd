// `deploy-gate lock status|release`: read the host's lock for an endpoint, and clear it, as a person
// would with `kamal lock status/release`. The remove checks the record it showed (its token) in the same
// remote command, so a lock taken again in between is never the one removed.
import type { Host } from "../../ports/host/host.js";
import { shellQuote } from "../../lib/shell-quote.js";
import { lockDir, underLockMutex } from "./lock.js";
import { HEARTBEAT_GRACE_S, lockStaleness, parseLockRecord, type LockRecord } from "./lock-record.js";

const CMD_TIMEOUT_MS = 20_000;

export interface LockState {
  held: boolean;
  record: LockRecord | null;
  /** the holder's token, to release exactly that lock */
  token: string | null;
  hostNowS: number;
  ageS: number | null;
  heartbeatAgoS: number | null;
  stale: string | null;
}

export async function readLock(host: Host, endpoint: string, staleAfterMs: number): Promise<LockState> {
  const dir = lockDir(endpoint);
  const r = await host.runShell(
    `date +%s; if [ -d ${shellQuote(dir)} ]; then echo HELD; cat ${shellQuote(`${dir}/record.json`)} 2>/dev/null || true; else echo FREE; fi`,
    { timeoutMs: CMD_TIMEOUT_MS },
  );
  const [nowText, state, ...rest] = r.stdout.split("\n");
  const hostNowS = Number(nowText);
  if (r.code !== 0 || !Number.isFinite(hostNowS) || (state !== "HELD" && state !== "FREE")) {
    throw new Error(
      `reading the lock ${dir} on ${host.name} failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`,
    );
  }
  if (state === "FREE")
    return { held: false, record: null, token: null, hostNowS, ageS: null, heartbeatAgoS: null, stale: null };
  const text = rest.join("\n");
  const record = parseLockRecord(text);
  let token: string | null = null;
  try {
    token = ((JSON.parse(text) as { token?: unknown }).token as string) ?? null;
  } catch {
    /* no record yet */
  }
  const st = record ? lockStaleness(record, hostNowS, Math.round(staleAfterMs / 1000)) : null;
  return {
    held: true,
    record,
    token: typeof token === "string" && /^[0-9a-f]+$/.test(token) ? token : null,
    hostNowS,
    ageS: st?.ageS ?? null,
    heartbeatAgoS: record ? hostNowS - record.heartbeatAt : null,
    stale: st?.reason ?? null,
  };
}

/** Removes the lock only if it still is the one in `seen` (same token, or still without a record). */
export async function removeLock(host: Host, endpoint: string, seen: LockState): Promise<boolean> {
  const dir = lockDir(endpoint);
  const rec = shellQuote(`${dir}/record.json`);
  const same = seen.token ? `grep -qF ${shellQuote(seen.token)} ${rec} 2>/dev/null` : `[ ! -e ${rec} ]`;
  const r = await host.runShell(
    underLockMutex(endpoint, `if ${same}; then rm -rf ${shellQuote(dir)} && echo REMOVED; else echo CHANGED; fi`),
    {
      timeoutMs: CMD_TIMEOUT_MS,
    },
  );
  if (r.code !== 0)
    throw new Error(`removing ${dir} on ${host.name} failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`);
  return r.stdout.trim() === "REMOVED";
}

export function describeLock(s: LockState, endpoint: string, hostName: string): string {
  if (!s.held) return `the deploy lock for ${endpoint} on ${hostName} is free`;
  if (!s.record)
    return `the deploy lock for ${endpoint} on ${hostName} is held, without a record (a deploy between taking it and writing who it is, or one that died there)`;
  const r = s.record;
  if (r.message !== undefined)
    return `the deploy lock for ${endpoint} on ${hostName} is held by hand by ${r.owner}: ${JSON.stringify(r.message)}, taken ${s.ageS}s ago (no heartbeat: held until deploy-gate lock release)`;
  const hb =
    s.heartbeatAgoS === null
      ? ""
      : `, last heartbeat ${s.heartbeatAgoS}s ago${s.heartbeatAgoS <= HEARTBEAT_GRACE_S ? " (alive)" : ""}`;
  return `the deploy lock for ${endpoint} on ${hostName} is held by ${r.owner}, deploying ${r.ref}${r.sha ? ` (${r.sha.slice(0, 10)})` : ""}, taken ${s.ageS}s ago${hb}${s.stale ? `; stale: ${s.stale}` : ""}`;
}
