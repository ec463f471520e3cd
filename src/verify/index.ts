// The verify stage: prove from evidence on the host, and from a peer, that the live engine serves what
// the repo says. One SSH round trip gathers every host fact; the HTTP checks run concurrently with it;
// every check runs (each with its own timeout) even when another fails, so one report lists every problem.
import type { SshTarget } from "../config/schema.js";
import type { Host } from "../host/host.js";
import { SshHost } from "../host/ssh.js";
import type { HttpResult } from "../http/client.js";
import { fail, skip, warn, type Finding } from "../report/finding.js";
import { parseServeScript } from "../script/parse.js";
import type { ServeScript } from "../script/model.js";
import { HOST_STATE_DIR, type Deployment, type StageContext, type StateRecord } from "../stage.js";
import { checkArgv } from "./argv.js";
import { checkContainer } from "./container.js";
import { checkEnv } from "./env.js";
import { buildFactsScript, parseFacts, type HostFacts } from "./facts.js";
import { checkKvCapacity } from "./kv-capacity.js";
import { flagValue, liveFlags } from "./live-argv.js";
import { checkModels } from "./models.js";
import { checkPlan, readBootPlan } from "./plan.js";
import { checkRestarts } from "./restarts.js";
import { peerRoute, runnerRoute, tunnelRoute, type Route } from "./route.js";
import { checkSpecDecode } from "./spec-decode.js";
import { checkThinkingResult, thinkingRequest } from "./thinking.js";
import { checkToolsResult, toolsRequest } from "./tools.js";

export const VERIFY_CHECKS = ["verify.restarts", "verify.container", "verify.plan", "verify.kv-capacity", "verify.argv", "verify.env", "verify.models", "verify.thinking", "verify.tools", "verify.spec-decode"] as const;

export interface VerifyTimeouts { factsMs: number; modelsMs: number; chatMs: number; metricsMs: number }
export const DEFAULT_TIMEOUTS: VerifyTimeouts = { factsMs: 20_000, modelsMs: 10_000, chatMs: 90_000, metricsMs: 10_000 };

export interface VerifyOptions {
  /** null: `verify` alone — read the host's StateRecord */
  deployment: Deployment | null;
  timeouts?: Partial<VerifyTimeouts>;
  /** opens the SSH connection to `peer:` (default: SshHost.connect with the same key rules) */
  connectPeer?: (target: SshTarget) => Promise<Host>;
  /** DEPLOY_GATE_API_KEY is read from here (default process.env) */
  env?: NodeJS.ProcessEnv;
}

/** The facts command on the host: one round trip. */
export async function gatherFacts(host: Host, req: { endpoint: string; service: string | null; container: string }, timeoutMs: number): Promise<{ facts: HostFacts | null; error: string | null }> {
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
export async function readStateRecord(host: Host, endpoint: string, timeoutMs = DEFAULT_TIMEOUTS.factsMs): Promise<StateRecord | null> {
  const r = await host.run(["cat", `${HOST_STATE_DIR}/state/${endpoint}.json`], { timeoutMs });
  if (r.code !== 0) return null;
  try {
    const s = JSON.parse(r.stdout) as StateRecord;
    return typeof s?.sha === "string" ? s : null;
  } catch {
    return null;
  }
}

interface Routed { route: Route; models: HttpResult; notes: string[]; close: () => Promise<void> }

/** From the runner first; the configured peer when the runner gets no answer; an SSH tunnel last. */
async function chooseRoute(ctx: StageContext, url: string, headers: Record<string, string>, opts: VerifyOptions, t: VerifyTimeouts): Promise<Routed> {
  const notes: string[] = [];
  const runner = runnerRoute(url, headers);
  const direct = await runner.send("GET", "/v1/models", undefined, t.modelsMs);
  if (direct.status !== null) return { route: runner, models: direct, notes, close: async () => {} };
  notes.push(`from the runner: ${direct.error}`);
  const peerTarget = ctx.endpoint.peer;
  if (peerTarget) {
    try {
      const peer = await (opts.connectPeer ?? ((tg) => SshHost.connect(tg)))(peerTarget);
      const route = peerRoute(peer, url, headers);
      const r = await route.send("GET", "/v1/models", undefined, t.modelsMs);
      if (r.status !== null) return { route, models: r, notes, close: () => peer.close() };
      notes.push(`from ${route.via}: ${r.error}`);
      await peer.close();
    } catch (e) {
      notes.push(`peer ${peerTarget.address}: ${(e as Error).message}`);
    }
  }
  const host = ctx.host as Host & { forwardOut?: SshHost["forwardOut"] };
  if (typeof host.forwardOut === "function") {
    const route = tunnelRoute(host.name, (h, p) => host.forwardOut!(h, p), url, headers);
    const r = await route.send("GET", "/v1/models", undefined, t.modelsMs);
    if (r.status !== null) return { route, models: r, notes, close: async () => {} };
    notes.push(`through the tunnel: ${r.error}`);
  }
  return { route: runner, models: direct, notes, close: async () => {} };
}

function notFromPeer(f: Finding, routed: Routed): Finding {
  if (routed.route.fromPeer) return f;
  const evidence = [...(f.evidence ?? []), ...routed.notes, `not from a peer: asked ${routed.route.via}`];
  if (f.status !== "pass") return { ...f, evidence };
  return warn(f.check, `${f.summary} (not from a peer: ${routed.route.via})`, {
    evidence, data: f.data,
    fix: "the runner cannot reach the endpoint: set peer: in deploy-gate.yml to an SSH host on the endpoint's network so the clients' path is what gets tested",
  });
}

async function guard(check: string, fn: () => Promise<Finding> | Finding): Promise<Finding> {
  try {
    return await fn();
  } catch (e) {
    return fail(check, `${check} could not run: ${(e as Error).message}`, { fix: "see the message; rerun deploy-gate verify once it is fixed" });
  }
}

export async function runVerify(ctx: StageContext, opts: VerifyOptions): Promise<Finding[]> {
  const t: VerifyTimeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const ep = ctx.endpoint;
  const scriptPath = ctx.repoPath(ep.script);
  if (!ep.container) {
    return VERIFY_CHECKS.map((c) => (c === "verify.container"
      ? fail(c, "no `container` in the endpoint config: verify reads the running container", { fix: "add `container: NAME` (the podman --name) to the endpoint in deploy-gate.yml" })
      : skip(c, "needs the container name from the config")));
  }
  ctx.progress(`verify: reading ${ep.container} on ${ctx.host.name}`);
  const factsP = gatherFacts(ctx.host, { endpoint: ctx.name, service: ep.service ?? null, container: ep.container }, t.factsMs);
  const scriptP: Promise<ServeScript | null> = ctx.reader.show(ctx.sha, scriptPath).then((text) => (text === null ? null : parseServeScript(text)), () => null);
  const env = opts.env ?? process.env;
  const headers: Record<string, string> = env.DEPLOY_GATE_API_KEY ? { authorization: `Bearer ${env.DEPLOY_GATE_API_KEY}` } : {};
  const model = ep.model ?? null;

  const httpP = (async () => {
    if (!ep.url) return null;
    const url = ep.url.replace(/\/+$/, "");
    const routed = await chooseRoute(ctx, url, headers, opts, t);
    const ask = (body: Record<string, unknown>) => routed.route.send("POST", "/v1/chat/completions", body, t.chatMs);
    const [thinking, tools] = await Promise.all([
      ep.contracts.thinking && model ? ask(thinkingRequest(model)) : null,
      ep.contracts.tools && model ? ask(toolsRequest(model)) : null,
    ]);
    return { url, routed, thinking, tools };
  })();

  const { facts, error } = await factsP;
  const script = await scriptP;
  const live = facts?.argv ? liveFlags(facts.argv) : [];
  const spec = flagValue(live, "--speculative-config");
  // /metrics after the completions: their drafts are what proves engagement.
  const metricsP = httpP.then(async (h) => (h && spec !== null ? h.routed.route.send("GET", "/metrics", undefined, t.metricsMs) : null)).catch(() => null);

  const hostDown = (c: string): Finding => fail(c, `no host facts: ${error}`, { fix: `check SSH to ${ctx.host.name} and rerun deploy-gate verify` });
  const hostFindings = await Promise.all([
    guard("verify.restarts", () => (facts ? checkRestarts(facts, ep.service ?? null, ep.contracts.restarts) : hostDown("verify.restarts"))),
    guard("verify.container", () => {
      if (!facts) return hostDown("verify.container");
      const f = checkContainer(facts, ep.container!, opts.deployment);
      // Rollback-tag verification compares with another ref than the one recorded: say so.
      if (facts.state && facts.state.sha !== ctx.sha) f.evidence = [...(f.evidence ?? []), `verifying against ${ctx.ref} (${ctx.sha.slice(0, 12)}); the host's record says ${facts.state.ref} (${facts.state.sha.slice(0, 12)}) was deployed`];
      return f;
    }),
    guard("verify.plan", () => (facts ? checkPlan(facts.journal, ep.container!) : hostDown("verify.plan"))),
    guard("verify.kv-capacity", () => {
      if (!facts) return hostDown("verify.kv-capacity");
      const mml = flagValue(live, "--max-model-len");
      return checkKvCapacity(readBootPlan(facts.journal).plan, mml !== null && Number.isFinite(Number(mml)) ? Number(mml) : null, ep.contracts.kv);
    }),
    guard("verify.argv", () => (facts ? checkArgv({ argv: facts.argv, contracts: ep.contracts.flags, script, scriptPath, ref: ctx.ref, journal: facts.journal }) : hostDown("verify.argv"))),
    guard("verify.env", () => (facts ? checkEnv(facts.env, ep.contracts.env, script?.engine?.podmanRun ?? null, scriptPath) : hostDown("verify.env"))),
  ]);

  const h = await httpP.catch((e: Error) => e);
  const noUrl = (c: string) => skip(c, "no `url` in the endpoint config", { fix: "add url: http://HOST:PORT (the endpoint as a peer reaches it) to deploy-gate.yml" });
  const noModel = (c: string) => skip(c, "no `model` in the endpoint config", { fix: "add model: SERVED_NAME to the endpoint in deploy-gate.yml" });
  const routed = h instanceof Error || h === null ? null : h;
  const httpErr = h instanceof Error ? h.message : null;
  const viaFail = (c: string) => fail(c, `HTTP checks could not run: ${httpErr}`, { fix: "see the message; rerun deploy-gate verify" });
  const reasoningParser = flagValue(live, "--reasoning-parser");
  const templateFlags = live.filter((f) => /^--(enable|preserve)[-_]thinking$/.test(f.name)).map((f) => f.name);
  const httpFindings = await Promise.all([
    guard("verify.models", () => (!ep.url ? noUrl("verify.models") : !routed ? viaFail("verify.models") : !model ? noModel("verify.models")
      : notFromPeer(checkModels(routed.routed.models, model, routed.url, routed.routed.route.via), routed.routed))),
    guard("verify.thinking", () => (!ep.contracts.thinking ? skip("verify.thinking", "contracts.thinking is off") : !ep.url ? noUrl("verify.thinking") : !routed ? viaFail("verify.thinking")
      : !routed.thinking ? noModel("verify.thinking")
      : notFromPeer(checkThinkingResult(routed.thinking, routed.url, routed.routed.route.via, { reasoningParser, templateKwargsFlag: flagValue(live, "--default-chat-template-kwargs") !== null, engineTemplateFlags: templateFlags }), routed.routed))),
    guard("verify.tools", () => (!ep.contracts.tools ? skip("verify.tools", "contracts.tools is off") : !ep.url ? noUrl("verify.tools") : !routed ? viaFail("verify.tools")
      : !routed.tools ? noModel("verify.tools")
      : notFromPeer(checkToolsResult(routed.tools, routed.url, routed.routed.route.via, { autoToolChoice: live.some((f) => f.name === "--enable-auto-tool-choice"), toolCallParser: flagValue(live, "--tool-call-parser") }), routed.routed))),
    guard("verify.spec-decode", async () => (facts ? checkSpecDecode(spec, await metricsP, facts.journal) : hostDown("verify.spec-decode"))),
  ]);
  if (routed) await routed.routed.close().catch(() => {});
  return [...hostFindings, ...httpFindings];
}
