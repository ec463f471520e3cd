// `deploy-gate lock status|release|acquire --endpoint NAME [--hosts A,B] [--force] [-m WHY]`: who holds an endpoint's
// deploy lock, release it (--force for a lock someone else holds, naming whose it was), or hold it by hand.
// A fleet endpoint (hosts:) has a lock per host: every host, or the ones --hosts names.
import { dirname } from "node:path";
import { requireFor } from "../domain/config/load.js";
import type { Endpoint } from "../domain/config/schema.js";
import { describeLock, readLock, removeLock, type LockState } from "../stages/deploy/lock-admin.js";
import { endpointFor as fleetEndpoint, hostName } from "../domain/rollout.js";
import type { Host } from "../ports/host/host.js";
import { takeLock } from "../stages/deploy/lock.js";
import type { Io, Options } from "./options.js";
import { sanitizeValue } from "../domain/report/sanitize.js";
import { withHost } from "./shared/connect.js";
import type { Finding } from "../domain/report/finding.js";
import { endpointFor, hostsOf, oneEndpoint } from "./shared/endpoints.js";
import { openWorkspace } from "./shared/workspace.js";

export type LockIo = Pick<Io, "out" | "err" | "env">;

type HostTarget = { label: string | null; ep: Endpoint & Required<Pick<Endpoint, "host">> };
interface HostResult {
  code: number;
  json: Record<string, unknown>;
  out?: string;
  err?: string;
}

export async function lockCommand(opts: Options, io: LockIo): Promise<number> {
  const ws = await openWorkspace(opts, io.env);
  const { name, ep } = oneEndpoint(ws, opts, "the endpoint's host");
  let targets: HostTarget[];
  const fleet = hostsOf(name, ep, opts);
  if (ep.hosts) {
    targets = fleet.map((h) => ({ label: hostName(h), ep: fleetEndpoint(ep, h) }));
  } else {
    requireFor(name, ep, "lock", ["host"], ws.configFile!);
    targets = [{ label: null, ep: endpointFor(ws, name, opts) as HostTarget["ep"] }];
  }
  const results = await Promise.all(targets.map((t) => lockOnHost(t, name, opts, dirname(ws.configFile!), ws.owner)));
  for (const r of results) {
    // in config order, whichever host answered first
    if (r.out && !opts.json) io.out(r.out);
    if (r.err) io.err(r.err);
  }
  if (opts.json) {
    const body = ep.hosts
      ? { endpoint: name, hosts: results.map((r) => r.json) }
      : { endpoint: name, ...results[0]!.json };
    io.out(`${JSON.stringify(sanitizeValue(body), null, 2)}\n`);
  }
  return Math.max(...results.map((r) => r.code));
}

/** status or release on one host: its text and JSON, printed by the caller. */
async function lockOnHost(
  t: HostTarget,
  name: string,
  opts: Options,
  configDir: string,
  me: string,
): Promise<HostResult> {
  const tag = t.label ? `[${t.label}] ` : "";
  const hostsArg = t.label ? ` --hosts ${t.label}` : "";
  const base = t.label ? { name: t.label } : {};
  // the summary quotes what the other end said (an SSH disconnect reason), before any host key was checked
  const refused = (finding: Finding): HostResult => ({
    code: 1,
    json: { ...base, error: finding.summary },
    err: `${sanitizeValue(`deploy-gate: ${tag}${finding.summary}`)}\n${finding.fix ? `fix: ${finding.fix}\n` : ""}`,
  });
  return withHost(t.ep, opts, configDir, refused, async (host) => {
    const say = (s: LockState, text: string, extra: Record<string, unknown> = {}): HostResult => {
      return {
        code: 0,
        json: { ...base, host: host.name, ...lockJson(s), ...extra },
        out: `${sanitizeValue(`${tag}${text}`)}\n`,
      };
    };
    const refuse = (text: string, s: LockState | null): HostResult => {
      return {
        code: 1,
        json: { ...base, host: host.name, ...(s ? lockJson(s) : {}), released: false, error: text },
        err: `${sanitizeValue(`deploy-gate: ${tag}${text}`)}\n`,
      };
    };
    try {
      const c = { host, name, staleAfterMs: t.ep.lock.staleAfter, opts, hostsArg, me };
      const r = opts.lockAction === "acquire" ? await acquire(c, refuse) : await statusOrRelease(c, say, refuse);
      return { ...r, json: { ...base, ...r.json } };
    } catch (e) {
      return refuse(`${(e as Error).message}; check the SSH user can read its home directory on the host`, null);
    }
  });
}

/** One host's lock, as a lock command sees it: who asks, with which options. */
interface OnHost {
  host: Host;
  name: string;
  staleAfterMs: number;
  opts: Options;
  hostsArg: string;
  me: string;
}

async function statusOrRelease(
  { host, name, staleAfterMs, opts, hostsArg, me }: OnHost,
  say: (s: LockState, text: string, extra?: Record<string, unknown>) => HostResult,
  refuse: (text: string, s: LockState | null) => HostResult,
): Promise<HostResult> {
  const state = await readLock(host, name, staleAfterMs);
  const text = describeLock(state, name, host.name);
  if (opts.lockAction === "status") return say(state, text);
  if (!state.held) return say(state, `${text}: nothing to release`, { released: false });
  if (state.record?.owner !== me && !opts.force) {
    return refuse(
      `${text}. Not released: it is held by ${state.record?.owner ?? "a deploy that has not written its record"}. If that deploy is dead (or you must stop it), run: deploy-gate lock release --endpoint ${name}${hostsArg} --force`,
      state,
    );
  }
  if (!(await removeLock(host, name, state))) {
    return refuse(
      `the lock for ${name} changed while releasing it (another deploy took it): nothing removed; run deploy-gate lock status --endpoint ${name}${hostsArg}`,
      state,
    );
  }
  const whose = state.record
    ? `${state.record.owner} (${state.record.ref}, taken ${state.ageS}s ago)`
    : "a deploy that never wrote its record";
  return say(state, `released the deploy lock for ${name} on ${host.name}, held by ${whose}`, { released: true });
}

/** A hold by hand: the lock taken as a deploy takes it, kept after this process, with why. */
async function acquire(
  { host, name, staleAfterMs, opts, hostsArg, me }: OnHost,
  refuse: (text: string, s: LockState | null) => HostResult,
): Promise<HostResult> {
  const got = await takeLock(host, {
    endpoint: name,
    owner: me,
    ref: "-",
    sha: null,
    staleAfterMs,
    waitMs: opts.lockWaitMs,
    message: opts.message!,
  });
  if (!got.ok) return refuse(`the deploy lock for ${name} on ${host.name} is held: ${got.detail}; not acquired`, null);
  got.lock.keep();
  const text = `acquired the deploy lock for ${name} on ${host.name}: ${JSON.stringify(opts.message)}; every deploy is refused until deploy-gate lock release --endpoint ${name}${hostsArg}`;
  return {
    code: 0,
    json: { host: host.name, held: true, acquired: true, message: opts.message },
    out: `${sanitizeValue(text)}\n`,
  };
}

const lockJson = (s: LockState) => ({
  held: s.held,
  holder: s.record,
  ageS: s.ageS,
  heartbeatAgoS: s.heartbeatAgoS,
  stale: s.stale,
});
