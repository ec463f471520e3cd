// The host-side deploy lock's record and its staleness rule. Pure: the lock I/O is in lock.ts.
export interface LockRecord {
  endpoint: string;
  /** who: user@machine of the runner, and the CI run when there is one */
  owner: string;
  ref: string;
  sha: string | null;
  /** host clock, epoch seconds, when taken */
  takenAt: number;
  /** host clock, epoch seconds, refreshed while the holder works */
  heartbeatAt: number;
  pid: number;
  /** a hold taken by hand (lock acquire -m): why; it has no heartbeat and never goes stale */
  message?: string;
}

export function parseLockRecord(text: string): LockRecord | null {
  try {
    const v = JSON.parse(text) as Partial<LockRecord>;
    if (typeof v.owner !== "string" || typeof v.takenAt !== "number") return null;
    return {
      endpoint: v.endpoint ?? "?",
      owner: v.owner,
      ref: v.ref ?? "?",
      sha: v.sha ?? null,
      takenAt: v.takenAt,
      heartbeatAt: v.heartbeatAt ?? v.takenAt,
      pid: v.pid ?? 0,
      ...(typeof v.message === "string" ? { message: v.message } : {}),
    };
  } catch {
    return null;
  }
}

/** How long a holder may go without a heartbeat before it counts as gone. */
export const HEARTBEAT_GRACE_S = 120;

/** Stale only when the holder has gone quiet: a recent heartbeat means a live deploy, whatever its age. */
export function lockStaleness(
  rec: LockRecord,
  hostNow: number,
  staleAfterS: number,
): { stale: boolean; reason: string | null; ageS: number } {
  const ageS = Math.max(0, hostNow - rec.takenAt);
  // a hold by hand has no heartbeat: it stays until someone releases it
  if (rec.message !== undefined) return { stale: false, reason: null, ageS };
  const quiet = hostNow - rec.heartbeatAt;
  if (quiet <= Math.min(HEARTBEAT_GRACE_S, staleAfterS)) return { stale: false, reason: null, ageS };
  if (ageS > staleAfterS)
    return {
      stale: true,
      reason: `taken ${ageS}s ago, older than lock.staleAfter (${staleAfterS}s), and its holder stopped refreshing it ${quiet}s ago`,
      ageS,
    };
  return { stale: true, reason: `its holder stopped refreshing it ${quiet}s ago (holder gone)`, ageS };
}

export function describeHolder(rec: LockRecord, hostNow: number): string {
  if (rec.message !== undefined)
    return `${rec.owner} holds it by hand: ${JSON.stringify(rec.message)}, taken ${Math.max(0, hostNow - rec.takenAt)}s ago`;
  return `${rec.owner} deploying ${rec.ref}${rec.sha ? ` (${rec.sha.slice(0, 10)})` : ""}, taken ${Math.max(0, hostNow - rec.takenAt)}s ago`;
}
