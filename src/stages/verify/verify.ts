// The verify stage: prove from evidence on the host, and from a peer, that the live engine serves what
// the repo says. One SSH round trip gathers every host fact; the HTTP checks run concurrently with it;
// every check runs (each with its own timeout) even when another fails, so one report lists every problem.
import type { Host } from "../../ports/host/host.js";
import { fail, skip, type Finding } from "../../domain/report/finding.js";
import { readEndpointLaunch } from "../launch-script.js";
import { runsDirect } from "../../domain/launch/container-cli.js";
import { apiKeyOf, type StageContext } from "../context.js";
import { checkArgv } from "./argv.js";
import { checkContainer } from "./container.js";
import { checkEnv } from "./env.js";
import { buildFactsScript, type FactsRequest } from "./facts-script.js";
import { checkKvCapacity } from "./kv-capacity.js";
import { flagValue, liveFlags } from "./live-argv.js";
import { checkPlan, readBootPlan } from "./plan.js";
import { checkRestarts } from "./restarts.js";
import { checkSpecDecode, specProbeRequest, trafficOf } from "./spec-decode.js";
import { cacheMountSource, checkCompileCache } from "./compile-cache.js";
import { measureDecode } from "./decode-probe.js";
import { measureSlo } from "./slo.js";
import { checkGraphs } from "./graphs.js";
import { checkPlanLines } from "./plan-lines.js";
import { checkVram } from "./vram.js";
import { httpFindingsOf, startHttp } from "./http-checks.js";
import { DEFAULT_TIMEOUTS, type VerifyOptions, type VerifyTimeouts } from "./timeouts.js";

export const VERIFY_CHECKS = [
  "verify.restarts",
  "verify.container",
  "verify.plan",
  "verify.kv-capacity",
  "verify.argv",
  "verify.env",
  "verify.plan-lines",
  "verify.graphs",
  "verify.compile-cache",
  "verify.vram",
  "verify.models",
  "verify.liveness",
  "verify.thinking",
  "verify.tools",
  "verify.structured",
  "verify.metrics",
  "verify.spec-decode",
  "verify.decode",
  "verify.slo",
] as const;

export { DEFAULT_TIMEOUTS, type VerifyOptions, type VerifyTimeouts } from "./timeouts.js";
import { parseStateRecord, statePath, type StateRecord } from "../../domain/host-state.js";
import { parseFacts, type HostFacts } from "./facts-parse.js";

/** The facts command on the host: one round trip. */
export async function gatherFacts(
  host: Host,
  req: FactsRequest,
  timeoutMs: number,
): Promise<{ facts: HostFacts | null; error: string | null }> {
  const { script, marker } = buildFactsScript(req);
  try {
    const r = await host.runShell(script, { timeoutMs });
    if (r.timedOut) return { facts: null, error: `the host did not answer within ${timeoutMs} ms` };
    return { facts: parseFacts(r.stdout, marker), error: null };
  } catch (e) {
    return { facts: null, error: (e as Error).message };
  }
}

/** The state record deploy keeps on the host, or null (for `verify` without --ref: the ref recorded there). */
export async function readStateRecord(
  host: Host,
  endpoint: string,
  timeoutMs = DEFAULT_TIMEOUTS.factsMs,
): Promise<StateRecord | null> {
  const r = await host.run(["cat", statePath(endpoint)], { timeoutMs });
  return r.code === 0 ? parseStateRecord(r.stdout) : null;
}

async function guard(check: string, fn: () => Promise<Finding> | Finding): Promise<Finding> {
  try {
    return await fn();
  } catch (e) {
    return fail(check, `${check} could not run: ${(e as Error).message}`, {
      fix: "see the message; rerun deploy-gate verify once it is fixed",
    });
  }
}

/** Installed files whose bytes are no longer what the last deploy wrote (its state record's sha256). */
function editedOnHost(facts: HostFacts): string[] {
  return (facts.state?.files ?? [])
    .filter((f) => facts.installed.has(f.to) && facts.installed.get(f.to) !== f.sha256)
    .map((f) => f.to);
}

export async function runVerify(ctx: StageContext, opts: VerifyOptions): Promise<Finding[]> {
  const t: VerifyTimeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const ep = ctx.endpoint;
  // the launch file first (local git): docker run in it means docker inspects the container; a unit that runs
  // compose up means the service's container; an engine the unit runs itself (no container) is read as the
  // unit's current run and its engine process
  const launch = await readEndpointLaunch(ctx);
  const { script, cli } = launch;
  const scriptPath = ctx.repoPath(launch.path);
  const direct = !ep.container && !launch.compose && runsDirect(script) && Boolean(ep.service);
  const name = ep.container ?? launch.compose?.container ?? (direct ? ep.service! : null);
  if (!name) {
    const gap = launch.compose?.gap;
    return VERIFY_CHECKS.map((c) =>
      c === "verify.container"
        ? fail(c, "no `container` in the endpoint config: verify reads the running container", {
            fix: gap
              ? `the unit runs compose up, but the engine's container name cannot be told from it: ${gap}; or add \`container: NAME\` to the endpoint in deploy-gate.yml`
              : "add `container: NAME` (the podman --name) to the endpoint in deploy-gate.yml (an engine the unit runs without a container needs `service:` instead)",
          })
        : skip(c, "needs the container name from the config"),
    );
  }
  ctx.progress(`verify: reading ${name} on ${ctx.host.name}`);
  const factsP = gatherFacts(
    ctx.host,
    {
      endpoint: ctx.name,
      service: ep.service ?? null,
      container: direct ? null : name,
      planPatterns: ep.contracts.plan.map((p) => p.pattern),
      installed: (ep.install ?? []).map((f) => f.to),
      cli,
      cacheDir: cacheMountSource(script?.engine?.podmanRun ?? null),
    },
    t.factsMs,
  );
  const apiKey = apiKeyOf(ctx, opts.env);
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};

  const httpP = startHttp(ctx, opts, t, headers);

  const { facts, error } = await factsP;
  const live = facts?.argv ? liveFlags(facts.argv) : [];
  const spec = flagValue(live, "--speculative-config");
  // /metrics after the completions: their drafts are what proves engagement (with none sent, one of its own).
  const metricsP = httpP
    .then(async (h) => {
      if (!h || spec === null || h.blocked) return null;
      const sent = [h.thinking, h.tools];
      if (!sent.some((r) => r !== null) && ep.model)
        sent.push(await h.routed.route.send("POST", "/v1/chat/completions", specProbeRequest(ep.model), t.chatMs));
      return {
        metrics: await h.routed.route.send("GET", "/metrics", undefined, t.metricsMs),
        traffic: trafficOf(sent),
      };
    })
    .catch(() => null);

  const hostDown = (c: string): Finding =>
    fail(c, `no host facts: ${error}`, { fix: `check SSH to ${ctx.host.name} and rerun deploy-gate verify` });
  const hostFindings = await Promise.all([
    guard("verify.restarts", () =>
      facts
        ? checkRestarts(facts, ep.service ?? null, ep.contracts.restarts, opts.deployment?.baselineRestarts ?? 0)
        : hostDown("verify.restarts"),
    ),
    guard("verify.container", () => {
      if (!facts) return hostDown("verify.container");
      const f = checkContainer(facts, name, opts.deployment, ep.service ?? null, direct ? "unit" : cli);
      // Rollback-tag verification compares with another ref than the one recorded: say so.
      if (facts.state && facts.state.sha !== ctx.sha)
        f.evidence = [
          ...(f.evidence ?? []),
          `verifying against ${ctx.ref} (${ctx.sha.slice(0, 12)}); the host's record says ${facts.state.ref} (${facts.state.sha.slice(0, 12)}) was deployed`,
        ];
      return f;
    }),
    guard("verify.plan", () => (facts ? checkPlan(facts.journal, name, direct) : hostDown("verify.plan"))),
    guard("verify.kv-capacity", () => {
      if (!facts) return hostDown("verify.kv-capacity");
      const mml = flagValue(live, "--max-model-len");
      return checkKvCapacity(
        readBootPlan(facts.journal).plan,
        mml !== null && Number.isFinite(Number(mml)) ? Number(mml) : null,
        ep.contracts.kv,
        script?.engine?.kind,
      );
    }),
    guard("verify.argv", () =>
      facts
        ? checkArgv({
            argv: facts.argv,
            contracts: ep.contracts.flags,
            script,
            scriptPath,
            ref: ctx.ref,
            journal: facts.journal,
            edited: editedOnHost(facts),
            direct,
            target: `--endpoint ${ctx.name}${ctx.fleetHost ? ` --hosts ${ctx.fleetHost}` : ""}`,
          })
        : hostDown("verify.argv"),
    ),
    guard("verify.env", () =>
      facts
        ? checkEnv(facts.env, ep.contracts.env, script?.engine?.podmanRun ?? null, scriptPath, direct)
        : hostDown("verify.env"),
    ),
    guard("verify.plan-lines", () =>
      facts ? checkPlanLines(facts.planLines, ep.contracts.plan, name, direct) : hostDown("verify.plan-lines"),
    ),
    guard("verify.graphs", () => (facts ? checkGraphs(readBootPlan(facts.journal).plan) : hostDown("verify.graphs"))),
    guard("verify.compile-cache", () => {
      if (!facts) return hostDown("verify.compile-cache");
      const { plan, cache } = readBootPlan(facts.journal);
      return checkCompileCache({
        cache,
        plan,
        earlierBoots: facts.earlierCompileBoots,
        script,
        scriptPath,
        env: facts.env,
        cacheOldestMs: facts.cacheOldestMs,
        createdMs: facts.container?.createdMs ?? null,
        direct,
      });
    }),
    guard("verify.vram", () =>
      facts
        ? checkVram(
            facts.gpu.tool,
            facts.gpu.output,
            facts.env,
            script?.engine?.podmanRun?.devices.map((d) => d.path) ?? [],
          )
        : hostDown("verify.vram"),
    ),
  ]);

  const h = await httpP.catch((e: Error) => e);
  const httpFindings = await Promise.all(
    httpFindingsOf(ep, h, live, Boolean(headers.authorization)).map(([check, fn]) => guard(check, fn)),
  );
  const specFinding = await guard("verify.spec-decode", async () =>
    facts
      ? checkSpecDecode(spec, (await metricsP)?.metrics ?? null, facts.journal, (await metricsP)?.traffic ?? null)
      : hostDown("verify.spec-decode"),
  );
  // Last and alone: a concurrent probe would share the engine's batch and slow the measured decode.
  // the context it serves: vLLM's or SGLang's flag in the live argv, else the boot's own plan line
  const ctxFlag = Number(flagValue(live, "--max-model-len") ?? flagValue(live, "--context-length") ?? NaN);
  const maxModelLen =
    Number.isFinite(ctxFlag) && ctxFlag > 0 ? ctxFlag : facts ? readBootPlan(facts.journal).plan.maxModelLen : null;
  const decodeFinding = await guard("verify.decode", () => measureDecode(ep, h, t.decodeMs, ctx.progress, maxModelLen));
  // After decode, alone too: the load would share the engine's batch with any other probe.
  const sloFinding = await guard("verify.slo", () => measureSlo(ctx, h, t.decodeMs));
  if (!(h instanceof Error) && h) await h.routed.close().catch(() => {});
  return [...hostFindings, ...httpFindings, specFinding, decodeFinding, sloFinding];
}
