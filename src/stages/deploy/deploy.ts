// The deploy stage: lock → install → restart → ready (or diagnosis). The lock is released on every path.
import { authMismatchDiagnosis } from "../../domain/diagnosis/auth-mismatch.js";
import { diagnosisFinding } from "./diagnosis-finding.js";
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import { apiKeyOf, type Deployment, type StageContext } from "../context.js";
import { diagnoseDeploy } from "./diagnose.js";
import { dryRun, missingConfig } from "./dry-run.js";
import { install, InstallError } from "./install.js";
import { takeLock, type HeldLock } from "./lock.js";
import { short, type Decision } from "./readiness.js";
import { ensureUp, restartUnit } from "./restart.js";
import { waitReady } from "./wait.js";
import { checkImageFlags } from "./image-flags.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { readEndpointLaunch, type ComposeLaunch } from "../launch-script.js";
import { runsDirect, type ContainerCli } from "../../domain/launch/container-cli.js";

export { activeLocks, releaseAllLocks } from "./lock.js";
import { formatElapsed } from "../../lib/elapsed.js";

export interface DeployOptions {
  dryRun: boolean;
  lockWaitMs: number;
  owner: string /* "user@machine (run URL)" */;
  env?: NodeJS.ProcessEnv; /* DEPLOY_GATE_API_KEY; default process.env */
}
export interface DeployResult {
  findings: Finding[];
  deployment: Deployment | null;
  ok: boolean;
}

const hostsArg = (ctx: StageContext) => (ctx.fleetHost ? ` --hosts ${ctx.fleetHost}` : "");
const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function runDeploy(ctx: StageContext, opts: DeployOptions): Promise<DeployResult> {
  const findings: Finding[] = [];
  const done = (deployment: Deployment | null = null): DeployResult => ({
    findings,
    deployment,
    ok: !findings.some((f) => f.status === "fail"),
  });
  const { service } = ctx.endpoint;
  // The launch file says whether a container runs the engine (podman or docker), a compose service's container
  // does (named by the compose tool), or the unit runs it itself.
  const launch = await readEndpointLaunch(ctx);
  const { script, cli } = launch;
  const direct = !launch.compose && runsDirect(script);
  const container = ctx.endpoint.container ?? launch.compose?.container ?? (direct ? null : undefined);
  if (!service || container === undefined) {
    findings.push(
      missingConfig(
        ctx,
        [!service ? "service" : "", container === undefined ? "container" : ""].filter(Boolean),
        launch.compose?.gap ?? undefined,
      ),
    );
    return done();
  }
  findings.push(pass("deploy.connect", `connected to ${ctx.host.name} (${ctx.host.origin ?? "host key pinned"})`));
  // The user's container: wins over the parse, but a launch file with no container run makes it a likely slip.
  if (direct && ctx.endpoint.container) {
    findings.push(
      warn(
        "deploy.connect",
        `container: ${ctx.endpoint.container} is set, but ${ctx.configFile}'s launch file for ${ctx.name} runs the engine itself (no podman or docker run): deploy waits for that container`,
        {
          fix: `If the unit runs the engine without a container, remove container: from endpoints.${ctx.name} in ${ctx.configFile}; deploy then waits for the unit's new run.`,
        },
      ),
    );
  }
  let lock: HeldLock;
  try {
    const got = await takeLock(
      ctx.host,
      {
        endpoint: ctx.name,
        owner: opts.owner,
        ref: ctx.ref,
        sha: ctx.sha,
        staleAfterMs: ctx.endpoint.lock.staleAfter,
        waitMs: opts.lockWaitMs,
        signal: ctx.signal,
        fleetHost: ctx.fleetHost,
        progress: (l) => ctx.progress(`${ctx.name}: ${l}`),
      },
      ctx.now,
    );
    if (!got.ok) {
      findings.push(
        got.stale
          ? fail("deploy.lock", `stale deploy lock on ${ctx.host.name}: ${got.detail}; ${got.stale}`, {
              evidence: [got.detail, got.stale],
              fix: `If no deploy of ${ctx.name} is running, clear it: ${got.clearCommand}`,
              data: { holder: got.held, stale: true, clear: got.clearCommand },
            })
          : fail("deploy.lock", `another deploy holds the lock for ${ctx.name}: ${got.detail}`, {
              evidence: [got.detail],
              fix: `Wait for it to finish (${opts.lockWaitMs > 0 ? "a longer --lock-wait" : "or pass --lock-wait 10m"}). If that deploy is dead, clear it: ${got.clearCommand}`,
              data: { holder: got.held, stale: false, clear: got.clearCommand },
            }),
      );
      return done();
    }
    lock = got.lock;
    findings.push(
      pass(
        "deploy.lock",
        `lock taken for ${ctx.name} on ${ctx.host.name}${got.waitedMs > 1000 ? ` after waiting ${formatElapsed(got.waitedMs)}` : ""}`,
        { data: { dir: lock.dir } },
      ),
    );
  } catch (e) {
    findings.push(
      fail("deploy.lock", `could not take the deploy lock: ${msg(e)}`, {
        fix: "Check that the SSH user can write to its home directory on the host.",
      }),
    );
    return done();
  }
  try {
    if (opts.dryRun) {
      findings.push(...(await dryRun(ctx, service)));
      return done();
    }
    // A lock cleared and taken by another runner stops this deploy at its next wait, and says so.
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, lock.signal]) : lock.signal;
    const result = await deploySteps(
      { ...ctx, signal },
      opts,
      service,
      { container, cli, compose: launch.compose },
      script,
      findings,
      done,
    );
    if (lock.lost) findings.push(lostLock(ctx, lock.lost));
    return lock.lost ? done(result.deployment) : result;
  } catch (e) {
    if (lock.lost) findings.push(lostLock(ctx, lock.lost));
    const check = e instanceof InstallError ? "deploy.install" : "deploy.restart";
    findings.push(
      fail(check, `deploy stopped: ${msg(e)}`, { fix: "Fix the cause above and deploy again; the lock was released." }),
    );
    if (!opts.dryRun) await ensureUpFinding(ctx, service, findings);
    return done();
  } finally {
    await lock.release().catch((e: unknown) =>
      findings.push(
        warn("deploy.lock", `releasing the lock failed: ${msg(e)}`, {
          fix: `See who holds it: deploy-gate lock status --endpoint ${ctx.name}${hostsArg(ctx)}; clear it: deploy-gate lock release --endpoint ${ctx.name}${hostsArg(ctx)}`,
        }),
      ),
    );
  }
}

function lostLock(ctx: StageContext, why: string): Finding {
  return fail("deploy.lock", `deploy stopped: this run no longer holds the lock for ${ctx.name}: ${why}`, {
    fix: `Two deploys ran at once. See who holds it now: deploy-gate lock status --endpoint ${ctx.name}${hostsArg(ctx)}; deploy again when it is free.`,
    data: { lost: true },
  });
}

async function ensureUpFinding(ctx: StageContext, service: string, findings: Finding[]): Promise<void> {
  const note = await ensureUp(ctx.host, service).catch((e: unknown) => `checking the unit failed: ${msg(e)}`);
  if (note)
    findings.push(
      warn("deploy.restart", `${service} was down after the deploy: ${note}`, {
        fix: `Check it: systemctl status ${service}`,
      }),
    );
}

/** `container` null: the engine runs straight under the unit, whose current run stands for the container. */
async function deploySteps(
  ctx: StageContext,
  opts: DeployOptions,
  service: string,
  { container, cli, compose }: { container: string | null; cli: ContainerCli; compose: ComposeLaunch | null },
  script: ServeScript | null,
  findings: Finding[],
  done: (d?: Deployment | null) => DeployResult,
): Promise<DeployResult> {
  // Before anything changes on the host: a flag the image does not know would cost a boot.
  const flags = await checkImageFlags(ctx.host, script, (line) => ctx.progress(`${ctx.name}: ${line}`));
  findings.push(flags);
  if (flags.status === "fail") return done();
  let unitChanged = false;
  if ((ctx.endpoint.install ?? []).length === 0) {
    findings.push(
      warn(
        "deploy.install",
        `endpoint ${ctx.name} has no install: files; restarting ${service} with the files already on the host`,
        { fix: `Add install: entries to ${ctx.configFile} so the host runs the committed script.` },
      ),
    );
  } else {
    const inst = await install(ctx, opts.owner);
    unitChanged = inst.unitChanged;
    findings.push(
      pass(
        "deploy.install",
        `${inst.written.length} of ${inst.planned.length} file(s) written at ${ctx.ref} (${ctx.sha.slice(0, 10)})${inst.record.previous ? `; previous ${inst.record.previous.ref}` : ""}`,
        {
          evidence: inst.planned.map((f) => `${f.to} ${f.mode} ${f.change === "same" ? "unchanged" : f.change}`),
          data: { written: inst.written.map((f) => f.to), record: inst.record },
        },
      ),
    );
  }
  const rs = await restartUnit(ctx.host, service, unitChanged, (line) => ctx.progress(`${ctx.name}: ${line}`));
  // A hung stop is said first (a D state as such), before any other conclusion about the restart.
  const hang = rs.stopHang ? `${rs.stopHang}; then ` : "";
  const hangFix = rs.stopHang
    ? "A process in D state finishes its kernel wait on its own: wait and re-check ps before any GPU reset. "
    : "";
  findings.push(
    rs.ok
      ? (rs.stopHang ? warn : pass)(
          "deploy.restart",
          `${hang}${unitChanged ? "daemon-reload, " : ""}restarted ${service}; it is ${rs.unit?.activeState}`,
          {
            evidence: [...rs.commands, ...rs.evidence],
            ...(rs.stopHang ? { fix: `${hangFix}Raise TimeoutStopSec= if the engine needs longer to stop.` } : {}),
          },
        )
      : fail(
          "deploy.restart",
          `${hang}${service} is not up after the restart (${rs.unit?.activeState ?? "unknown"}, Result=${rs.unit?.result ?? "?"})`,
          {
            evidence: [...rs.commands, ...rs.evidence],
            fix: `${hangFix}Read systemctl status ${service} and journalctl -u ${service}; a unit in start-limit-hit needs systemctl reset-failed ${service}.`,
          },
        ),
  );
  const deployment: Deployment = {
    endpoint: ctx.name,
    ref: ctx.ref,
    sha: ctx.sha,
    startedAtHostMs: rs.mark.hostNowMs,
    journalCursor: rs.mark.cursor,
    containerId: null,
    containerCreatedAtHostMs: null,
    baselineRestarts: rs.baselineRestarts,
  };
  // Any NRestarts above what the restart left is an automatic restart of this deploy's engine.
  const w = rs.ok
    ? await waitReady(ctx, {
        service,
        container,
        startedAtHostMs: rs.mark.hostNowMs,
        cursor: rs.mark.cursor,
        baselineRestarts: rs.baselineRestarts,
        apiKey: apiKeyOf(ctx, opts.env),
        cli,
      })
    : null;
  const fresh = w?.decision.state.fresh ?? null;
  if (fresh) Object.assign(deployment, { containerId: fresh.id, containerCreatedAtHostMs: fresh.createdAtMs });
  if (w?.decision.kind === "ready") {
    const what =
      container === null
        ? `the unit's run ${short(fresh!.id)} (started after the deploy began)`
        : `container ${short(fresh!.id)} (created after the deploy began)`;
    findings.push(
      pass(
        "deploy.ready",
        `${ctx.name} is ready after ${formatElapsed((w.last?.hostNowMs ?? 0) - rs.mark.hostNowMs)}: ${what}, readiness marker seen (${JSON.stringify(w.decision.state.markerLine ?? "")})${ctx.endpoint.url ? `, ${ctx.endpoint.url}/v1/models lists ${ctx.endpoint.model ?? "a model"}` : ""}`,
        {
          data: { containerId: fresh!.id, polls: w.polls, marker: w.decision.state.markerLine },
        },
      ),
    );
    return done(deployment);
  }
  if (w)
    findings.push(readyFailure(ctx, w.decision, w.polls, cli, container === null, reuseFix(ctx, container, compose)));
  const journal = await diagnoseDeploy(ctx.host, {
    service,
    container,
    cursor: rs.mark.cursor,
    startedAtHostMs: rs.mark.hostNowMs,
    nRestarts: w?.last?.unit?.nRestarts ?? null,
    failure: w?.decision.kind === "fail" ? w.decision.failure : "unit-failed",
    install: ctx.endpoint.install,
    configFile: ctx.configFile,
    restartEvidence: rs.evidence,
  });
  const d =
    w?.decision.kind === "fail" && w.decision.failure === "auth-mismatch"
      ? authMismatchDiagnosis(journal, w.decision.reason)
      : journal;
  findings.push(diagnosisFinding(d));
  await ensureUpFinding(ctx, service, findings);
  return done(deployment);
}

/** What makes every start of the unit run a new container: compose down (or --force-recreate), else podman rm -f. */
function reuseFix(ctx: StageContext, container: string | null, compose: ComposeLaunch | null): string {
  const unit = ctx.endpoint.unit ?? ctx.endpoint.service ?? "the unit";
  if (compose?.up.tool === "podman-compose") {
    const file = compose.up.files[0] ? ` -f ${compose.up.files[0]}` : "";
    return `podman-compose up starts an existing container of the same name as it was, so the changed compose file never ran: add ExecStartPre=-/usr/bin/podman-compose${file} down to ${unit} (or run up --force-recreate), then deploy again.`;
  }
  if (compose)
    return `Make ${unit} recreate the service's container on every start (compose up --force-recreate), then deploy again.`;
  return `Make ${unit} remove the old container before it starts the engine (ExecStartPre=-/usr/bin/podman rm -f ${container ?? "NAME"}, or podman run --replace), then deploy again.`;
}

function readyFailure(
  ctx: StageContext,
  d: Decision,
  polls: number,
  cli: ContainerCli,
  direct: boolean,
  reused: string,
): Finding {
  const reason = d.kind === "fail" ? d.reason : "stopped waiting";
  const failure = d.kind === "fail" ? d.failure : null;
  return fail("deploy.ready", `${ctx.name} did not reach readiness: ${reason}`, {
    evidence: d.state.lastLine ? [`last engine line: ${d.state.lastLine}`] : [],
    fix:
      failure === "timeout"
        ? `The boot outlived boot.timeout (${formatElapsed(ctx.endpoint.boot.timeout)}): raise boot.timeout in ${ctx.configFile} if this boot is known to be slow, or read deploy.diagnosis for where it stalled.`
        : failure === "container-mismatch"
          ? `Make container: in ${ctx.configFile} the name the serve script gives ${cli} run --name (${d.state.otherContainers.join(", ")}), or the other way round.`
          : failure === "url-unreachable"
            ? `Check that url: in ${ctx.configFile} (${ctx.endpoint.url ?? "unset"}) reaches the port the engine listens on: ${direct ? "the engine's --host must not be 127.0.0.1 and its --port must be the url's" : `the host port of ${cli} run -p HOST:CONTAINER must map to the engine's --port`}, and the host's firewall must let the runner in.`
            : failure === "container-reused"
              ? reused
              : "Read deploy.diagnosis below for the cause.",
    data: { failure, phase: d.state.phase, containerId: d.state.fresh?.id ?? null, polls },
  });
}
