// `run`, `rollback` and `verify` on a fleet endpoint (hosts:): canary first, then batches in parallel;
// the first failing step halts the rollout, and with rollback.auto every host this run changed is rolled
// back (in parallel) and verified. Then verify.replicas compares the hosts.
import { getMaxListeners, setMaxListeners } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { runAbort } from "../shared/lifecycle.js";
import { ConfigError } from "../../domain/config/errors.js";
import { requireFor } from "../../domain/config/load.js";
import type { Host } from "../../ports/host/host.js";
import { UsageError, type Options } from "../options.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import { autoRollback, type StageRun } from "../shared/deploy-verify.js";
import { readStateRecord } from "../../stages/verify/verify.js";
import { checkReplicas } from "../../stages/verify/replicas.js";
import {
  deployHost,
  hostProgress,
  open,
  replicaFacts,
  tag,
  verifyHost,
  type FleetRun,
  type StepOutcome,
} from "./host-step.js";
import {
  endpointFor,
  haltFix,
  hostName,
  hostRows,
  hostsToFinish,
  planSteps,
  rollbackTargets,
  stepPassed,
  type FleetHost,
} from "../../domain/rollout.js";
import type { HostRow } from "../../domain/report/finding.js";
import { hostsOf } from "../shared/endpoints.js";
import { deployRef, resolveRef } from "../shared/refs.js";
import type { Workspace } from "../shared/workspace.js";
import { formatElapsed } from "../../lib/elapsed.js";

export interface FleetStageRun extends StageRun {
  fleet: HostRow[];
}

/**
 * Every host of a step (and of a rollback) waits on the run's one abort signal at once, each with a few
 * listeners: raise Node's leak warning threshold to what that fan-out legitimately needs.
 */
function allowParallelWaits(hosts: number): void {
  setMaxListeners(Math.max(getMaxListeners(runAbort.signal), 10 * (hosts + 1)), runAbort.signal);
}

export const isFleet = (ws: Workspace, name: string): boolean => Boolean(ws.config?.endpoints[name]?.hosts);

function chosenHosts(ws: Workspace, name: string, opts: Options): FleetHost[] {
  const all = ws.config!.endpoints[name]!.hosts!;
  const chosen = hostsOf(name, ws.config!.endpoints[name]!, opts);
  const noUrl = all.filter((h) => !h.url && !ws.config!.endpoints[name]!.url).map(hostName);
  if (noUrl.length)
    throw new ConfigError(ws.configFile!, [
      {
        line: null,
        path: `endpoints.${name}.url`,
        message: `required by ${opts.command}: set url: on the endpoint, or url: on host(s) ${noUrl.join(", ")}`,
      },
    ]);
  if (opts.hostOverride?.hostKey)
    throw new UsageError(
      `a single host-key pins one machine; endpoint ${name} is a fleet: put hostKey: in each hosts: entry of ${ws.configFile}, or pass known-hosts with a line per host`,
    );
  return chosen;
}

async function closeAll(conns: Map<string, Host>): Promise<void> {
  await Promise.all([...conns.values()].map((c) => c.close().catch(() => undefined)));
}

/** verify.replicas over the hosts that are connected (every host of the run). */
async function replicas(run: FleetRun, hosts: readonly string[], expectedSha: string | null): Promise<Finding> {
  const rows = await Promise.all(hosts.map((h) => replicaFacts(run, h)));
  return checkReplicas(rows, {
    expectedSha,
    kvTolerance: run.ep.replicas.kvTolerance,
    endpoint: run.name,
    redeploy: run.opts.command === "rollback" ? "rollback" : "run",
  });
}

/**
 * verify.replicas after a green rollout compares the whole fleet, the hosts outside --hosts included
 * (read only): a redeployed replica or a finished rollout is only done when it matches the others.
 */
async function replicasOfFleet(run: FleetRun): Promise<Finding> {
  const all = run.ep.hosts!;
  await Promise.all(
    all
      .filter((h) => !run.conns.has(hostName(h)))
      .map((h) => open(run, h, hostName(h), "unreachable for verify.replicas")),
  );
  return replicas(run, all.map(hostName), run.sha);
}

export async function deployFleet(
  ws: Workspace,
  name: string,
  opts: Options,
  progress: (s: string) => void,
): Promise<FleetStageRun> {
  const ep = ws.config!.endpoints[name]!;
  requireFor(name, ep, opts.command, ["service", "install", "model"], ws.configFile!);
  const hosts = chosenHosts(ws, name, opts);
  const { ref, sha } = await deployRef(ws, name, opts);
  const byName = new Map(hosts.map((h) => [hostName(h), h]));
  const steps = planSteps([...byName.keys()], ep.rollout);
  const run: FleetRun = { ws, name, ep, opts, ref, sha, progress, conns: new Map() };
  allowParallelWaits(byName.size);
  progress(
    `${name}: rolling ${ref} (${sha.slice(0, 10)}) out to ${byName.size} host(s) in ${steps.length} step(s): ${steps.map((s) => s.join("+")).join(" -> ")}`,
  );
  const outcomes: StepOutcome[] = [];
  const findings: Finding[] = [];
  let halted: { step: number; why: string } | null = null;
  try {
    for (const [k, step] of steps.entries()) {
      if (runAbort.signal.aborted) {
        halted = { step: k, why: "the run was interrupted" };
        break;
      }
      if (k > 0 && ep.rollout.pause > 0) {
        progress(`${name}: pausing ${formatElapsed(ep.rollout.pause)} before step ${k + 1}`);
        await sleep(ep.rollout.pause, undefined, { signal: runAbort.signal }).catch(() => undefined);
        if (runAbort.signal.aborted) {
          halted = { step: k, why: "the run was interrupted" };
          break;
        }
      }
      progress(
        `${name}: step ${k + 1}/${steps.length}${k === 0 && ep.rollout.canary > 0 ? " (canary)" : ""}: ${step.join(", ")}`,
      );
      const got = await Promise.all(step.map((h) => deployHost(run, byName.get(h)!, h, k)));
      outcomes.push(...got);
      findings.push(...got.flatMap((o) => o.findings));
      if (!stepPassed(got)) {
        halted = {
          step: k,
          why: `${got
            .filter((o) => o.findings.some((f) => f.status === "fail"))
            .map((o) => o.host)
            .join(", ")} failed`,
        };
        break;
      }
    }
    const untouched = [...byName.keys()].filter((h) => !outcomes.some((o) => o.host === h));
    if (halted) {
      findings.push(
        ...untouched.map((h) => ({
          ...skip("fleet.rollout", `not touched: the rollout halted at step ${halted!.step + 1} (${halted!.why})`),
          host: h,
        })),
      );
      const rb = await rollBack(run, outcomes, byName);
      findings.push(...rb);
      const rolled = (status: string) =>
        rb.filter((f) => f.check === "deploy.rollback" && f.host && f.status === status).map((f) => f.host!);
      const rest = hostsToFinish([...byName.keys()], outcomes, new Set([...rolled("pass"), ...rolled("fail")]));
      const said = [
        rolled("pass").length ? `rolled back and verified: ${rolled("pass").join(", ")}` : "",
        rolled("fail").length ? `rollback FAILED on ${rolled("fail").join(", ")}` : "",
        `${untouched.length} host(s) not touched${untouched.length ? ` (${untouched.join(", ")})` : ""}`,
      ]
        .filter(Boolean)
        .join("; ");
      findings.push(
        fail("fleet.rollout", `rollout halted at step ${halted.step + 1} of ${steps.length}: ${halted.why}; ${said}`, {
          fix: haltFix(`deploy-gate ${opts.command} --endpoint ${name}`, rest, byName.size, rolled("pass").length > 0),
          data: { steps, haltedAt: halted.step, untouched },
        }),
      );
    } else {
      if (!opts.dryRun) findings.push(await replicasOfFleet(run));
      findings.push(
        pass(
          "fleet.rollout",
          `${opts.dryRun ? "dry run on" : "rolled out to"} ${byName.size} host(s) in ${steps.length} step(s): ${steps.map((s) => s.join("+")).join(" -> ")}`,
          { data: { steps } },
        ),
      );
    }
  } finally {
    await closeAll(run.conns);
  }
  const stepOf = new Map(steps.flatMap((s, k) => s.map((h) => [h, k + 1] as const)));
  const fleet = hostRows(
    [...byName.keys()].map((h) => ({
      host: h,
      step: stepOf.get(h) ?? null,
      readyMs: outcomes.find((o) => o.host === h)?.readyMs ?? null,
    })),
    findings,
  );
  return { findings, ref, sha, fleet };
}

/** After a halt: with rollback.auto, every host this run changed is rolled back in parallel and verified. */
async function rollBack(
  run: FleetRun,
  outcomes: readonly StepOutcome[],
  byName: Map<string, FleetHost>,
): Promise<Finding[]> {
  const { ep, name, opts } = run;
  const targets = rollbackTargets(outcomes);
  if (opts.command !== "run" || opts.dryRun || targets.length === 0) return [];
  if (!ep.rollback?.auto) {
    return [
      skip("deploy.rollback", `no auto-rollback configured: ${targets.join(", ")} run the failed change`, {
        fix: `roll back by hand: deploy-gate rollback --endpoint ${name} --hosts ${targets.join(",")} (needs rollback.ref)`,
      }),
    ];
  }
  run.progress(`${name}: rolling back ${targets.join(", ")} to ${ep.rollback.ref}`);
  const done = await Promise.all(
    targets.map(async (h) => {
      const { conn, findings } = await open(run, byName.get(h)!, h, "unreachable for the rollback");
      if (!conn) return findings;
      return tag(
        h,
        await autoRollback(
          run.ws,
          name,
          endpointFor(ep, byName.get(h)!),
          conn,
          hostProgress(run, h),
          "the rollout halted",
          run.sha,
          h,
        ),
      );
    }),
  );
  return done.flat();
}

/**
 * verify on a fleet: every chosen host in parallel (against --ref, or each host's recorded ref), then verify.replicas.
 */
export async function verifyFleet(
  ws: Workspace,
  name: string,
  opts: Options,
  progress: (s: string) => void,
): Promise<FleetStageRun> {
  const ep = ws.config!.endpoints[name]!;
  requireFor(name, ep, "verify", ["service", "model"], ws.configFile!);
  const hosts = chosenHosts(ws, name, opts);
  const want = opts.ref ? await resolveRef(ws, opts.ref) : null;
  allowParallelWaits(hosts.length);
  const conns = new Map<string, Host>();
  const findings: Finding[] = [];
  let shown: { ref: string; sha: string | null } = { ref: opts.ref ?? "?", sha: want };
  try {
    const per = await Promise.all(
      hosts.map(async (h) => {
        const n = hostName(h);
        const base: FleetRun = { ws, name, ep, opts, ref: opts.ref ?? "?", sha: want ?? "", progress, conns };
        const { conn, findings: down } = await open(base, h, n, "unreachable for verify");
        if (!conn) return down;
        if (want) return verifyHost(base, h, n);
        const state = await readStateRecord(conn, name);
        const sha = state ? await ws.git.resolve(state.sha) : null;
        if (!state || !sha)
          return tag(n, [
            fail(
              "verify.container",
              `no deploy record for ${name} on ${n}${state ? ` (its ref ${state.ref} ${state.sha.slice(0, 10)} is not in this repository)` : ""}`,
              {
                fix: "pass --ref REF to verify against a ref, or deploy with deploy-gate run first (git fetch if the ref is missing)",
              },
            ),
          ]);
        if (shown.sha === null) shown = { ref: state.ref, sha };
        return verifyHost({ ...base, ref: state.ref, sha }, h, n);
      }),
    );
    findings.push(...per.flat());
    const run: FleetRun = { ws, name, ep, opts, ref: shown.ref, sha: shown.sha ?? "", progress, conns };
    findings.push(await replicas(run, hosts.map(hostName), want));
  } finally {
    await closeAll(conns);
  }
  const fleet = hostRows(
    hosts.map((h) => ({ host: hostName(h), step: null, readyMs: null })),
    findings,
  );
  return { findings, ref: shown.ref, sha: shown.sha, fleet };
}
