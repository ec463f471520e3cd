// deploy.ready's loop: one SSH round trip per poll (poll-command.ts), a /v1/models probe once the
// readiness marker is seen, the decision from readiness.ts, and one progress line per poll.
import { isReadyMarker } from "../../domain/engine/vllm/phase.js";
import { httpGet } from "../../ports/http/client.js";
import type { StageContext } from "../context.js";
import type { ContainerCli } from "../../domain/launch/container-cli.js";
import { pollScript } from "./poll-command.js";
import { parsePoll } from "./poll-parse.js";
import {
  decide,
  initialState,
  progressLine,
  type Decision,
  type ModelsProbe,
  type Observation,
  type WaitState,
} from "./readiness.js";
import { sleepUnlessAborted } from "../../lib/sleep.js";
import { formatElapsed } from "../../lib/elapsed.js";

export interface WaitInput {
  service: string;
  /** null: the engine runs straight under the unit, whose current run stands for the container */
  container: string | null;
  startedAtHostMs: number;
  cursor: string | null;
  baselineRestarts: number;
  /** the endpoint's API key (DEPLOY_GATE_API_KEY), sent as a bearer header, never logged */
  apiKey?: string;
  /** the CLI that started the container */
  cli?: ContainerCli;
}

export interface WaitOutcome {
  decision: Decision;
  last: Observation | null;
  polls: number;
}

export function modelsListed(body: string, model: string | undefined): boolean {
  try {
    const v = JSON.parse(body) as { data?: { id?: unknown }[] };
    return Array.isArray(v.data) && (model === undefined ? v.data.length > 0 : v.data.some((m) => m.id === model));
  } catch {
    return false;
  }
}

async function probeModels(url: string, model: string | undefined, apiKey: string | undefined): Promise<ModelsProbe> {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  const r = await httpGet(`${url.replace(/\/+$/, "")}/v1/models`, {
    timeoutMs: 10_000,
    maxBodyBytes: 1 << 20,
    headers,
  });
  return {
    status: r.status,
    listsModel: r.status === 200 && modelsListed(r.body, model),
    error: r.error,
    sentKey: Boolean(apiKey),
  };
}

const sleep = sleepUnlessAborted;

/** A lost deploy lock aborts with its own reason; a signal aborts with none. */
const stopReason = (signal: AbortSignal) =>
  signal.reason instanceof Error && signal.reason.name !== "AbortError"
    ? `stopped waiting: ${signal.reason.message}`
    : "interrupted (SIGINT/SIGTERM) while waiting";

export async function waitReady(ctx: StageContext, input: WaitInput): Promise<WaitOutcome> {
  const pollMs = ctx.endpoint.boot.poll;
  const timeoutMs = ctx.endpoint.boot.timeout;
  let state: WaitState = initialState(input.startedAtHostMs, timeoutMs, input.baselineRestarts);
  let cursor = input.cursor;
  const runnerStart = ctx.now();
  let last: Observation | null = null;
  let polls = 0;
  let noReading = 0;
  for (;;) {
    const t0 = ctx.now();
    if (ctx.signal?.aborted)
      return { decision: { kind: "fail", state, failure: "timeout", reason: stopReason(ctx.signal) }, last, polls };
    const r = await ctx.host
      .runShell(
        pollScript({
          service: input.service,
          container: input.container,
          cursor,
          sinceHostS: Math.floor(input.startedAtHostMs / 1000),
          cli: input.cli,
        }),
        { timeoutMs: Math.max(15_000, 3 * pollMs), maxOutputBytes: 32 << 20 },
      )
      .catch((e: Error) => ({ code: null, stdout: "", stderr: e.message, timedOut: false, truncated: false }));
    polls++;
    const out = parsePoll(r.stdout, r);
    const why = out.incomplete ?? (out.unit === null ? out.errors.join("; ") || "no unit state" : null);
    if (why !== null || out.hostNowMs === null) {
      // No reading: a half answer (sshd killed, the link down, a session cut) says nothing about the engine.
      // The host port reconnects with its backoff on the next poll; only the boot timeout ends this.
      noReading++;
      const detail = [why ?? "no host clock", r.stderr.trim().split("\n").pop()].filter(Boolean).join(": ");
      if (ctx.now() - runnerStart > timeoutMs) {
        return {
          decision: {
            kind: "fail",
            state,
            failure: "timeout",
            reason: `not ready within boot.timeout (${formatElapsed(timeoutMs)}): the last ${noReading} poll(s) got no complete answer from ${ctx.host.name} (${detail})`,
          },
          last,
          polls,
        };
      }
      ctx.progress(
        `[poll] ${ctx.name}: no reading from this poll (${detail}); reconnecting and polling again (${noReading} in a row)`,
      );
      await sleep(pollMs - (ctx.now() - t0), ctx.signal);
      continue;
    }
    noReading = 0;
    cursor = out.journal.cursor ?? cursor;
    const markerNow = state.marker || out.journal.messages.some(isReadyMarker);
    const url = ctx.endpoint.url;
    const models = url && markerNow ? await probeModels(url, ctx.endpoint.model, input.apiKey) : null;
    last = {
      hostNowMs: out.hostNowMs,
      unit: out.unit,
      container: out.container,
      messages: out.journal.messages,
      containerNames: out.journal.containers,
      models,
    };
    // models stays null without a url (the marker alone decides) and before the marker (never ready then).
    const d = decide(state, last, input.container ?? undefined);
    state = d.state;
    ctx.progress(progressLine(ctx.name, state, last));
    if (d.kind !== "wait") return { decision: d, last, polls };
    await sleep(pollMs - (ctx.now() - t0), ctx.signal);
  }
}
