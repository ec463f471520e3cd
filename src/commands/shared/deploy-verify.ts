// `run`, `verify` and `rollback`: connect to the host once, then deploy and/or verify, with the
// rollback ref deployed and verified when an auto-rollback is configured and the deploy failed.
import { hostname, userInfo } from "node:os";
import { dirname, relative, resolve } from "node:path";
import { runAbort } from "./lifecycle.js";
import { requireFor } from "../../domain/config/load.js";
import type { Endpoint } from "../../domain/config/schema.js";
import { runDeploy } from "../../stages/deploy/deploy.js";
import { rollbackBlocked } from "../../stages/deploy/rollback-guard.js";
import { GitReader } from "../../ports/git/batched.js";
import { HostError } from "../../ports/host/errors.js";
import type { Host } from "../../ports/host/host.js";
import { SshHost } from "../../ports/host/ssh.js";
import { describeTarget, effectiveTarget, sshOptions } from "../../ports/host/target.js";
import { UsageError, type Options } from "../options.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { StageContext } from "../../stages/context.js";
import { readStateRecord, runVerify } from "../../stages/verify/verify.js";
import type { Workspace } from "../index.js";
import { statePath } from "../../domain/host-state.js";

export function owner(env: NodeJS.ProcessEnv = process.env): string {
  const run = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? ` (${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID})` : "";
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    /* no passwd entry in some containers */
  }
  return `${user}@${hostname()}${run}`;
}

/** The endpoint with the host overrides from outside the config applied (a host given whole by the
 *  action's inputs needs no host: in the config). */
export function endpointFor(ws: Workspace, name: string, opts: Options): Endpoint {
  const ep = ws.config!.endpoints[name]!;
  const o = opts.hostOverride;
  if (!o) return ep;
  if (!ep.host && !ep.hosts && !o.address !== !o.user) {
    throw new UsageError(`endpoint ${name} has no host: in ${ws.configFile}: give the host and user inputs together (the ${o.address ? "user" : "host"} input is missing), or add host: to the endpoint`);
  }
  const base = ep.host ?? (o.address && o.user ? { address: o.address, user: o.user, port: 22 } : undefined);
  return base ? { ...ep, host: effectiveTarget(base, o, dirname(ws.configFile!)) } : ep;
}

/** The one endpoint a host command (logs, lock) works on: --endpoint, or the config's only one. */
export function oneEndpoint(ws: Workspace, opts: Options, command: string, needs: string): { name: string; ep: Endpoint } {
  if (!ws.config) throw new UsageError(`${command} needs deploy-gate.yml (${needs}): see the README's config reference`);
  const names = Object.keys(ws.config.endpoints);
  const name = opts.endpoint ?? (names.length === 1 ? names[0]! : null);
  if (!name) throw new UsageError(`${command} works on one endpoint: pass --endpoint NAME (endpoints: ${names.join(", ")})`);
  const ep = ws.config.endpoints[name];
  if (!ep) throw new UsageError(`--endpoint ${name} is not in ${ws.configFile}; endpoints: ${names.join(", ")}`);
  return { name, ep };
}

/** Connect with the endpoint's pin (and its jump host's); a refused connection is a finding, not a crash. */
export async function connect(ep: Endpoint & Required<Pick<Endpoint, "host">>, opts: Options, configDir: string): Promise<{ host: Host | null; finding: Finding }> {
  const target = effectiveTarget(ep.host, null, configDir);
  const where = describeTarget(target);
  try {
    const host = await SshHost.connect(target, sshOptions(target, { timeoutMs: opts.connectTimeoutMs ?? 20_000 }));
    return { host, finding: pass("deploy.connect", `connected to ${where} (host key pinned)`, { data: { host: where } }) };
  } catch (e) {
    if (e instanceof HostError) {
      return { host: null, finding: fail("deploy.connect", `cannot connect to ${where}: ${e.message}`, { fix: e.fix ?? connectFix(e.kind, where), data: { host: where, kind: e.kind } }) };
    }
    throw e;
  }
}

function connectFix(kind: HostError["kind"], where: string): string {
  switch (kind) {
    case "no-pin": return "pin the host key: add host.hostKey (SHA256:...) or host.knownHosts to the endpoint (host.jump.hostKey for a jump host; or the action's host-key / jump-host-key input), with the line in the message above; never trust on first use";
    case "host-key-mismatch": return `the host's key is not the pinned one: if the host was reinstalled, verify the new key out of band and update the pin; otherwise stop, this may be a different machine than ${where}`;
    case "auth": return "the key was refused: check host.user, and that the public key of identityFile / DEPLOY_GATE_SSH_KEY is in the user's authorized_keys";
    case "timeout": return "no SSH handshake in time: check the address and port, and whether a firewall drops the connection";
    case "unreachable": return "nothing answers on that address and port: check host.address and host.port, and that sshd runs";
    default: return "retry; if it persists, check sshd's log on the host";
  }
}

export function stageContext(ws: Workspace, name: string, ep: Endpoint, host: Host, ref: string, sha: string, progress: (s: string) => void, fleetHost?: string): StageContext {
  return {
    ...(fleetHost ? { fleetHost } : {}), name, endpoint: ep, configFile: ws.configFile!, root: ws.root, reader: new GitReader(ws.git), ref, sha, host, progress, now: Date.now, signal: runAbort.signal,
    repoPath: (p) => relative(ws.root, resolve(dirname(ws.configFile!), p)).split("\\").join("/"),
  };
}

export interface StageRun { findings: Finding[]; ref: string; sha: string | null }

/** The ref run/rollback deploys (--ref, the branch, or rollback.ref) and its commit. */
export async function deployRef(ws: Workspace, name: string, opts: Options): Promise<{ ref: string; sha: string }> {
  const ep = ws.config!.endpoints[name]!;
  // The state record on the host names what was deployed: a branch name says more than "HEAD".
  let ref = opts.ref ?? (await ws.git.branch()) ?? "HEAD";
  // rollback: --ref names another version to go back to than rollback.ref
  if (opts.command === "rollback" && !opts.ref) {
    if (!ep.rollback) throw new UsageError(`endpoints.${name}.rollback is not configured: add rollback: { ref: <tag> } to roll back, or pass --ref REF`);
    ref = ep.rollback.ref;
  }
  const sha = await ws.git.resolve(ref);
  if (!sha) throw new UsageError(`${ref} does not exist in this repository (git fetch --tags; with actions/checkout use fetch-depth: 0)`);
  return { ref, sha };
}

/** run (deploy + verify, auto-rollback) or rollback (deploy rollback.ref + verify) for one endpoint. */
export async function deployAndVerify(ws: Workspace, name: string, opts: Options, progress: (s: string) => void): Promise<StageRun> {
  const ep = endpointFor(ws, name, opts);
  // container: is checked by deploy and verify, which read the launch file (an engine the unit runs itself has none)
  requireFor(name, ep, opts.command, ["host", "service", "install", "url", "model"], ws.configFile!);
  const findings: Finding[] = [];
  const { ref, sha } = await deployRef(ws, name, opts);
  const { host, finding } = await connect(ep, opts, dirname(ws.configFile!));
  if (!host) return { findings: [finding], ref, sha }; // on success runDeploy reports deploy.connect itself
  try {
    const ctx = stageContext(ws, name, ep, host, ref, sha, progress);
    const dep = await runDeploy(ctx, { dryRun: opts.dryRun, lockWaitMs: opts.lockWaitMs, owner: owner() });
    findings.push(...dep.findings);
    if (opts.dryRun) return { findings, ref, sha };
    if (dep.ok) findings.push(...(await runVerify(ctx, { deployment: dep.deployment })));
    // a change verify fails is rolled back like one that did not boot (as a fleet's step is)
    if (opts.command !== "run" || !findings.some((f) => f.status === "fail")) return { findings, ref, sha };
    const blocked = rollbackBlocked(dep.findings);
    if (blocked) findings.push(skip("deploy.rollback", `nothing rolled back: ${blocked}`, { data: { blocked } }));
    else if (ep.rollback?.auto) findings.push(...(await autoRollback(ws, name, ep, host, progress, dep.ok ? "verify failed" : "deploy failed", sha)));
    else findings.push(skip("deploy.rollback", "no auto-rollback configured", { fix: `roll back by hand: deploy-gate rollback --endpoint ${name} (needs rollback.ref)` }));
    return { findings, ref, sha };
  } finally {
    await host.close();
  }
}

export async function autoRollback(ws: Workspace, name: string, ep: Endpoint, host: Host, progress: (s: string) => void, why: string, deployedSha: string, fleetHost?: string): Promise<Finding[]> {
  const ref = ep.rollback!.ref;
  const sha = await ws.git.resolve(ref);
  if (!sha) return [fail("deploy.rollback", `rollback ref ${ref} does not exist here: the endpoint is left as the failed deploy left it`, { fix: "fetch tags (fetch-depth: 0) or fix rollback.ref; then deploy-gate rollback" })];
  // the same commit again would fail the same way, after another whole boot
  if (sha === deployedSha) {
    return [skip("deploy.rollback", `nothing rolled back: the failed deploy was the rollback ref ${ref} (${sha.slice(0, 10)}) itself; the endpoint is left as it left it`, {
      fix: `read the failures above; go back to another version that works: deploy-gate rollback --endpoint ${name}${fleetHost ? ` --hosts ${fleetHost}` : ""} --ref REF`, data: { ref, sha, same: true },
    })];
  }
  progress(`${name}: ${why}; rolling back to ${ref} (${sha.slice(0, 10)})`);
  const ctx = stageContext(ws, name, ep, host, ref, sha, progress, fleetHost);
  const dep = await runDeploy(ctx, { dryRun: false, lockWaitMs: 60_000, owner: `${owner()} (auto-rollback)` });
  const verified = dep.ok ? await runVerify(ctx, { deployment: dep.deployment }) : [];
  const broken = [...dep.findings, ...verified].filter((f) => f.status === "fail");
  const sub = [...dep.findings, ...verified].map((f) => ({ ...f, summary: `[rollback] ${f.summary}`, data: { ...f.data, rollback: true } }));
  if (broken.length === 0) {
    return [...sub, pass("deploy.rollback", `rolled back to ${ref} (${sha.slice(0, 10)}): deployed and verified; the failed change is not live`, { data: { ref, sha } })];
  }
  return [...sub, fail("deploy.rollback", `rollback to ${ref} failed too (${broken.map((f) => f.check).join(", ")}): the endpoint may be down`, {
    fix: `act now: read the [rollback] findings above; deploy-gate verify --endpoint ${name}${fleetHost ? ` --hosts ${fleetHost}` : ""} shows what runs`,
    data: { ref, sha },
  })];
}

/** verify alone: against --ref, or the ref recorded on the host by the last deploy. */
export async function verifyOnly(ws: Workspace, name: string, opts: Options, progress: (s: string) => void): Promise<StageRun> {
  const ep = endpointFor(ws, name, opts);
  requireFor(name, ep, "verify", ["host", "service", "url", "model"], ws.configFile!);
  const { host, finding } = await connect(ep, opts, dirname(ws.configFile!));
  if (!host) return { findings: [finding], ref: opts.ref ?? "(host unreachable: deployed ref unknown)", sha: null };
  try {
    let ref = opts.ref;
    let shown = ref;
    if (!ref) {
      const state = await readStateRecord(host, name);
      if (!state) {
        return { findings: [fail("verify.container", `no deploy record for ${name} on the host (${statePath(name)})`, { fix: `pass --ref REF to verify against a ref, or deploy with deploy-gate run first` })], ref: "(no deploy record on the host)", sha: null };
      }
      ref = state.sha;
      // shown by the record's ref name (main, v1.2) while that name still points at the deployed commit
      shown = (await ws.git.resolve(state.ref).catch(() => null)) === state.sha ? state.ref : state.sha.slice(0, 10);
      progress(`${name}: verifying against the deployed ref ${state.ref} (${state.sha.slice(0, 10)}) recorded on the host`);
    }
    const sha = await ws.git.resolve(ref);
    if (!sha) throw new UsageError(`${ref} does not exist in this repository (git fetch --tags; with actions/checkout use fetch-depth: 0)`);
    const ctx = stageContext(ws, name, ep, host, shown ?? ref, sha, progress);
    return { findings: [...(await runVerify(ctx, { deployment: null }))], ref: shown ?? ref, sha };
  } finally {
    await host.close();
  }
}

