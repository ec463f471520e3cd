// One host of a fleet: connect (pinned, as its step starts), deploy + verify, and the facts that
// verify.replicas compares. Every finding is tagged with the host; progress lines name it.
import { describeTarget } from "../../ports/host/target.js";
import { dirname } from "node:path";
import type { Endpoint } from "../../domain/config/schema.js";
import { runDeploy } from "../../stages/deploy/deploy.js";
import { lockLost } from "../../stages/deploy/rollback-guard.js";
import type { Host } from "../../ports/host/host.js";
import type { Options } from "../options.js";
import type { Finding } from "../../domain/report/finding.js";
import { gatherFacts, runVerify } from "../../stages/verify/verify.js";
import { readBootPlan } from "../../stages/verify/plan.js";
import type { ReplicaFacts } from "../../stages/verify/replicas.js";
import { endpointFor, type FleetHost, type HostOutcome } from "../../domain/rollout.js";
import { deployChanged } from "../../stages/deploy/rollback-guard.js";
import { connect } from "../shared/connect.js";
import { stageContext } from "../shared/stage-context.js";
import { pinFrom } from "../../ports/host/hostkey.js";
import type { SshTarget } from "../../domain/config/schema.js";
import type { Workspace } from "../shared/workspace.js";

export interface FleetRun {
  ws: Workspace;
  name: string;
  ep: Endpoint;
  opts: Options;
  ref: string;
  sha: string;
  progress: (line: string) => void;
  /** connections opened so far, by host name; the runner closes them all at the end */
  conns: Map<string, Host>;
}

export interface StepOutcome extends HostOutcome {
  readyMs: number | null;
}

export const tag = (host: string, fs: readonly Finding[]): Finding[] => fs.map((f) => ({ ...f, host }));
export const hostProgress = (run: FleetRun, host: string) => (line: string) => run.progress(`[${host}] ${line}`);

/**
 * A fleet host's pin with the action's known-hosts input applied: the input's lines replace the config's
 * pin only for a host they name (OpenSSH's matching); a host they do not name keeps its own pin, so one
 * host's line never trusts a key at another's address. (A single host-key is refused for fleets earlier.)
 */
export function withInputPin<E extends { host?: SshTarget }>(ep: E, knownHosts: string | undefined): E {
  if (!knownHosts || !ep.host) return ep;
  const named = pinFrom({ address: ep.host.address, port: ep.host.port, knownHosts });
  return named ? { ...ep, host: { ...ep.host, knownHosts, hostKey: undefined } } : ep;
}

/** Opens the host's pinned connection; a host that cannot be reached is a failure of the step that needed it. */
export async function open(
  run: FleetRun,
  h: FleetHost,
  host: string,
  why: string,
): Promise<{ conn: Host | null; findings: Finding[] }> {
  const had = run.conns.get(host);
  if (had) return { conn: had, findings: [] };
  const ep = withInputPin(endpointFor(run.ep, h), run.opts.hostOverride?.knownHosts);
  const { host: conn, finding } = await connect(ep, run.opts, dirname(run.ws.configFile!));
  if (!conn)
    return {
      conn: null,
      findings: tag(host, [{ ...finding, summary: `${finding.summary} (${why}: counted as a failure, not skipped)` }]),
    };
  run.conns.set(host, conn);
  return { conn, findings: [] };
}

/** Deploy + verify on one host of step `step` (0-based). */
export async function deployHost(run: FleetRun, h: FleetHost, host: string, step: number): Promise<StepOutcome> {
  const p = hostProgress(run, host);
  p(`step ${step + 1}: connecting to ${describeTarget(h)}`);
  const { conn, findings } = await open(run, h, host, `unreachable before step ${step + 1}`);
  if (!conn) return { host, step, findings, changed: false, readyMs: null };
  const ctx = stageContext(run.ws, run.name, endpointFor(run.ep, h), conn, run.ref, run.sha, p, host);
  const t0 = Date.now();
  const dep = await runDeploy(ctx, { dryRun: run.opts.dryRun, lockWaitMs: run.opts.lockWaitMs, owner: run.ws.owner });
  const readyMs = dep.ok && !run.opts.dryRun ? Date.now() - t0 : null;
  const out = [...dep.findings];
  if (dep.ok && !run.opts.dryRun) out.push(...(await runVerify(ctx, { deployment: dep.deployment })));
  p(
    out.some((f) => f.status === "fail")
      ? `step ${step + 1}: FAILED (${[...new Set(out.filter((f) => f.status === "fail").map((f) => f.check))].join(", ")})`
      : `step ${step + 1}: passed`,
  );
  return {
    host,
    step,
    findings: tag(host, out),
    changed: !run.opts.dryRun && deployChanged(dep.findings) && !lockLost(dep.findings),
    readyMs,
  };
}

/** Verify alone on one host, against `sha` (the ref recorded on each host is read by the caller). */
export async function verifyHost(run: FleetRun, h: FleetHost, host: string): Promise<Finding[]> {
  const { conn, findings } = await open(run, h, host, "unreachable for verify");
  if (!conn) return findings;
  const ctx = stageContext(
    run.ws,
    run.name,
    endpointFor(run.ep, h),
    conn,
    run.ref,
    run.sha,
    hostProgress(run, host),
    host,
  );
  return tag(host, await runVerify(ctx, { deployment: null }));
}

/** What verify.replicas compares, from one facts round trip on an open connection. */
export async function replicaFacts(run: FleetRun, host: string): Promise<ReplicaFacts> {
  const conn = run.conns.get(host);
  if (!conn) return { host, sha: null, argv: null, kvTokens: null, error: "not connected" };
  const { facts, error } = await gatherFacts(
    conn,
    { endpoint: run.name, service: run.ep.service ?? null, container: run.ep.container ?? null, planPatterns: [] },
    30_000,
  );
  if (!facts) return { host, sha: null, argv: null, kvTokens: null, error: error ?? "no facts" };
  return {
    host,
    sha: facts.state?.sha ?? null,
    argv: facts.argv,
    kvTokens: readBootPlan(facts.journal).plan.kvTokens,
    error: facts.argv ? null : "the engine's argv could not be read (is it running?)",
  };
}
