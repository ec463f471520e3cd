// The HTTP half of verify: choose the route (runner, peer, tunnel), send the probes concurrently, each
// with its own timeout, then judge them against what the live argv says the server runs.
import { dirname } from "node:path";
import type { Endpoint } from "../../domain/config/schema.js";
import type { Host } from "../../ports/host/host.js";
import { SshHost } from "../../ports/host/ssh.js";
import { effectiveTarget, sshOptions } from "../../ports/host/target.js";
import type { HttpResult } from "../../ports/http/client.js";
import { fail, skip, warn, type Finding } from "../../domain/report/finding.js";
import type { Flag } from "../../domain/launch/model.js";
import type { StageContext } from "../context.js";
import { flagValue } from "./live-argv.js";
import { checkModels, engineOf } from "./models.js";
import type { VerifyOptions, VerifyTimeouts } from "./timeouts.js";
import { peerRoute, runnerRoute, tunnelRoute, type Route } from "../../ports/http/route.js";
import { askThinkingCases, checkThinkingMatrix } from "./thinking.js";
import type { ThinkingAnswers } from "./thinking-cases.js";
import { askToolCases, checkToolMatrix } from "./tools.js";
import { blockedBy, checkLiveness, probeLiveness, type LivenessAnswers } from "./liveness.js";
import { askStructured, checkStructured, DEFAULT_SCHEMA } from "./structured.js";
import { checkMetricNames, type DeclaredFile } from "./metric-names.js";
import type { ToolAnswers } from "./tool-cases.js";

interface Routed {
  route: Route;
  models: HttpResult;
  notes: string[];
  close: () => Promise<void>;
}

/** The configured peer first (it exists because the runner cannot reach the host), then the runner
 *  itself, then an SSH tunnel through the serving host as the last resort. */
async function chooseRoute(
  ctx: StageContext,
  url: string,
  headers: Record<string, string>,
  opts: VerifyOptions,
  t: VerifyTimeouts,
): Promise<Routed> {
  const notes: string[] = [];
  const none = async () => {};
  // identityFile is relative to the config file, like every path in it.
  const peerTarget = ctx.endpoint.peer ? effectiveTarget(ctx.endpoint.peer, null, dirname(ctx.configFile)) : undefined;
  if (peerTarget) {
    try {
      const peer = await (opts.connectPeer ?? ((tg) => SshHost.connect(tg, sshOptions(tg, { timeoutMs: 20_000 }))))(
        peerTarget,
      );
      const route = peerRoute(peer, url, headers);
      const r = await route.send("GET", "/v1/models", undefined, t.modelsMs);
      if (r.status !== null) return { route, models: r, notes, close: () => peer.close() };
      notes.push(`from ${route.via}: ${r.error}`);
      await peer.close();
    } catch (e) {
      notes.push(`peer ${peerTarget.address}: ${(e as Error).message}`);
    }
  }
  const runner = runnerRoute(url, headers);
  const direct = await runner.send("GET", "/v1/models", undefined, t.modelsMs);
  if (direct.status !== null) return { route: runner, models: direct, notes, close: none };
  notes.push(`from the runner: ${direct.error}`);
  const host = ctx.host as Host & { forwardOut?: SshHost["forwardOut"] };
  if (typeof host.forwardOut === "function") {
    const route = tunnelRoute(host.name, (h, p, ms) => host.forwardOut!(h, p, ms), url, headers);
    const r = await route.send("GET", "/v1/models", undefined, t.modelsMs);
    if (r.status !== null) return { route, models: r, notes, close: none };
    notes.push(`through the tunnel: ${r.error}`);
  }
  return { route: runner, models: direct, notes, close: none };
}

/** Every HTTP finding says which way it went; a tunnel is "not from a peer", a pass becomes a warning. */
function withRoute(f: Finding, routed: Routed): Finding {
  const evidence = [...(f.evidence ?? []), ...routed.notes];
  if (routed.route.fromPeer) return routed.notes.length ? { ...f, evidence } : f;
  evidence.push(`not from a peer: asked ${routed.route.via}`);
  if (f.status !== "pass") return { ...f, evidence };
  return warn(f.check, `${f.summary} (not from a peer: ${routed.route.via})`, {
    evidence,
    data: f.data,
    fix: "the runner cannot reach the endpoint: set peer: in deploy-gate.yml to an SSH host on the endpoint's network so the clients' path is what gets tested",
  });
}

export interface HttpProbes {
  url: string;
  routed: Routed;
  /** the not-streamed thinking case (spec-decode counts it as traffic) */
  thinking: HttpResult | null;
  thinkingCases: ThinkingAnswers | null;
  /** the auto case of the tool matrix (spec-decode counts it as traffic) */
  tools: HttpResult | null;
  toolCases: ToolAnswers | null;
  liveness: LivenessAnswers | null;
  structured: HttpResult | null;
  metricNames: { files: DeclaredFile[]; metrics: HttpResult } | null;
  /** why the other completions were not sent (a wedged or dead engine), or null */
  blocked: string | null;
}

/** Starts at once (concurrently with the host facts); null when the config has no url. */
export async function startHttp(
  ctx: StageContext,
  opts: VerifyOptions,
  t: VerifyTimeouts,
  headers: Record<string, string>,
): Promise<HttpProbes | null> {
  const ep = ctx.endpoint;
  if (!ep.url) return null;
  const url = ep.url.replace(/\/+$/, "");
  const routed = await chooseRoute(ctx, url, headers, opts, t);
  const metricNames = ep.contracts.metrics.length ? readMetricNames(ctx, routed.route, t.metricsMs) : null;
  return { url, routed, ...(await askProbes(routed.route, ep, t, metricNames)) };
}

/** The client-contract probes on a chosen route: one token first (an engine that cannot finish it would
 *  hold every other probe to its own timeout), then the declared cases concurrently. */
export async function askProbes(
  route: Route,
  ep: Endpoint,
  t: Pick<VerifyTimeouts, "livenessMs" | "chatMs">,
  metricNames: Promise<HttpProbes["metricNames"]> | null,
): Promise<Omit<HttpProbes, "url" | "routed">> {
  const liveness = ep.model ? await probeLiveness(route, ep.model, t.livenessMs) : null;
  const blocked = liveness ? blockedBy(liveness) : null;
  const send = Boolean(ep.model) && !blocked;
  const [thinkingCases, toolCases, structured, names] = await Promise.all([
    ep.contracts.thinking && send ? askThinkingCases(route, ep.model!, t.chatMs) : null,
    ep.contracts.tools && send ? askToolCases(route, ep.model!, t.chatMs) : null,
    ep.contracts.structured && send
      ? askStructured(route, ep.model!, schemaOf(ep.contracts.structured), t.chatMs)
      : null,
    metricNames,
  ]);
  return {
    liveness,
    blocked,
    structured,
    metricNames: names,
    thinking: thinkingCases?.plain ?? null,
    thinkingCases,
    tools: toolCases?.auto ?? null,
    toolCases,
  };
}

/** The declared dashboards and rules at the ref, and the live /metrics. */
async function readMetricNames(ctx: StageContext, route: Route, timeoutMs: number) {
  const files = await Promise.all(
    ctx.endpoint.contracts.metrics.map(async (path) => ({
      path,
      text: await ctx.reader.show(ctx.sha, ctx.repoPath(path)).catch(() => null),
    })),
  );
  return { files, metrics: await route.send("GET", "/metrics", undefined, timeoutMs) };
}

type Pending = [check: string, judge: () => Finding];
const UNBLOCKED = new Set(["verify.models", "verify.liveness", "verify.metrics"]);

const schemaOf = (c: Endpoint["contracts"]["structured"]) => (typeof c === "object" ? c.schema : DEFAULT_SCHEMA);

/** verify.models, verify.liveness, verify.thinking, verify.tools, judged with the live argv (for the likely cause). */
export function httpFindingsOf(
  ep: Endpoint,
  h: HttpProbes | null | Error,
  live: readonly Flag[],
  sentKey = false,
): Pending[] {
  const gate = (
    check: string,
    on: boolean,
    off: string,
    probe: (p: HttpProbes) => HttpResult | null,
    judge: (r: HttpResult, p: HttpProbes) => Finding,
  ): Pending => [
    check,
    () => {
      if (!on) return skip(check, off);
      if (!ep.url)
        return skip(check, "no `url` in the endpoint config", {
          fix: "add url: http://HOST:PORT (the endpoint as a peer reaches it) to deploy-gate.yml",
        });
      if (h instanceof Error || h === null)
        return fail(check, `HTTP checks could not run: ${h instanceof Error ? h.message : "no route"}`, {
          fix: "see the message; rerun deploy-gate verify",
        });
      if (h.blocked && ep.model && !UNBLOCKED.has(check))
        return fail(check, `not checked: ${h.blocked}`, {
          fix: "see verify.liveness: once the engine answers a completion, rerun deploy-gate verify",
        });
      const r = probe(h);
      if (!ep.model || !r)
        return skip(check, "no `model` in the endpoint config", {
          fix: "add model: SERVED_NAME to the endpoint in deploy-gate.yml",
        });
      return withRoute(judge(r, h), h.routed);
    },
  ];
  const templateFlags = live.filter((f) => /^--(enable|preserve)[-_]thinking$/.test(f.name)).map((f) => f.name);
  return [
    gate(
      "verify.models",
      true,
      "",
      (p) => p.routed.models,
      (r, p) => checkModels(r, ep.model!, p.url, p.routed.route.via, sentKey),
    ),
    gate(
      "verify.liveness",
      true,
      "",
      (p) => p.liveness?.completion ?? null,
      (_r, p) => checkLiveness(p.liveness!, p.url, p.routed.route.via, { model: ep.model!, sentKey }),
    ),
    gate(
      "verify.thinking",
      ep.contracts.thinking,
      "contracts.thinking is off",
      (p) => p.thinking,
      (_r, p) =>
        checkThinkingMatrix(p.thinkingCases!, p.url, p.routed.route.via, {
          reasoningParser: flagValue(live, "--reasoning-parser"),
          engineTemplateFlags: templateFlags,
          model: ep.model!,
          sentKey,
        }),
    ),
    gate(
      "verify.tools",
      ep.contracts.tools,
      "contracts.tools is off",
      (p) => p.tools,
      (_r, p) =>
        checkToolMatrix(p.toolCases!, p.url, p.routed.route.via, {
          autoToolChoice: live.some((f) => f.name === "--enable-auto-tool-choice"),
          engine: engineOf(p.routed.models),
          toolCallParser: flagValue(live, "--tool-call-parser"),
          model: ep.model!,
          sentKey,
        }),
    ),
    gate(
      "verify.structured",
      ep.contracts.structured !== false,
      "contracts.structured is off",
      (p) => p.structured,
      (r, p) =>
        checkStructured(r, schemaOf(ep.contracts.structured), p.url, p.routed.route.via, {
          model: ep.model!,
          sentKey,
        }),
    ),
    gate(
      "verify.metrics",
      ep.contracts.metrics.length > 0,
      "contracts.metrics names no dashboard or rule file",
      (p) => p.metricNames?.metrics ?? null,
      (_r, p) => checkMetricNames(p.metricNames!.files, p.metricNames!.metrics, p.routed.route.via),
    ),
  ];
}
