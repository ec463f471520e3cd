// `deploy-gate lock status|release --endpoint NAME [--force]`: see who holds an endpoint's deploy lock,
// and release it. Releasing a lock someone else holds needs --force, and says whose it was.
import { dirname } from "node:path";
import { requireFor } from "./config/load.js";
import { describeLock, readLock, removeLock, type LockState } from "./deploy/lock-admin.js";
import type { Options } from "./options.js";
import { openWorkspace } from "./pipeline.js";
import { sanitizeValue } from "./report/sanitize.js";
import { connect, endpointFor, oneEndpoint, owner } from "./stages.js";

export interface LockIo { out: (s: string) => void; err: (s: string) => void }

export async function lockCommand(opts: Options, io: LockIo): Promise<number> {
  const ws = await openWorkspace(opts);
  const { name, ep } = oneEndpoint(ws, opts, "lock", "the endpoint's host");
  requireFor(name, ep, "lock", ["host"], ws.configFile!);
  const { host, finding } = await connect(endpointFor(ws, name, opts) as typeof ep, opts, dirname(ws.configFile!));
  if (!host) {
    io.err(`deploy-gate: ${finding.summary}\n${finding.fix ? `fix: ${finding.fix}\n` : ""}`);
    return 1;
  }
  const say = (s: LockState | null, text: string, extra: Record<string, unknown> = {}) =>
    io.out(opts.json ? `${JSON.stringify(sanitizeValue({ endpoint: name, host: host.name, ...lockJson(s), ...extra }), null, 2)}\n` : `${sanitizeValue(text)}\n`);
  try {
    const state = await readLock(host, name, ep.lock.staleAfter);
    const text = describeLock(state, name, host.name);
    if (opts.lockAction === "status") return say(state, text), 0;
    if (!state.held) return say(state, `${text}: nothing to release`, { released: false }), 0;
    const mine = state.record?.owner === owner();
    if (!mine && !opts.force) {
      io.err(`${sanitizeValue(`deploy-gate: ${text}. Not released: it is held by ${state.record?.owner ?? "a deploy that has not written its record"}. If that deploy is dead (or you must stop it), run: deploy-gate lock release --endpoint ${name} --force`)}\n`);
      return 1;
    }
    if (!(await removeLock(host, name, state))) {
      io.err(`deploy-gate: the lock for ${name} changed while releasing it (another deploy took it): nothing removed; run deploy-gate lock status --endpoint ${name}\n`);
      return 1;
    }
    const whose = state.record ? `${state.record.owner} (${state.record.ref}, taken ${state.ageS}s ago)` : "a deploy that never wrote its record";
    say(state, `released the deploy lock for ${name} on ${host.name}, held by ${whose}`, { released: true });
    return 0;
  } catch (e) {
    io.err(`deploy-gate: ${sanitizeValue((e as Error).message)}; check the SSH user can read its home directory on the host\n`);
    return 1;
  } finally {
    await host.close();
  }
}

const lockJson = (s: LockState | null) => s && { held: s.held, holder: s.record, ageS: s.ageS, heartbeatAgoS: s.heartbeatAgoS, stale: s.stale };
