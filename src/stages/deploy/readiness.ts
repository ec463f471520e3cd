// The readiness decision: a pure function of what the polls observed. The wait loop (wait.ts) only gathers.
import { bootPhase, isReadyMarker, type BootPhase } from "../../domain/engine/vllm/phase.js";
import type { ContainerState, UnitState } from "./poll-parse.js";
import { formatElapsed } from "../../lib/elapsed.js";

export interface ModelsProbe {
  /** null: no HTTP answer */
  status: number | null;
  listsModel: boolean;
  error: string | null;
  /** whether the probe carried DEPLOY_GATE_API_KEY */
  sentKey?: boolean;
}

export interface Observation {
  hostNowMs: number;
  unit: UnitState | null;
  container: ContainerState | null;
  /** journal lines new since the previous poll */
  messages: readonly string[];
  /** CONTAINER_NAME values of those lines' records (the containers the unit runs); absent: not read */
  containerNames?: readonly string[];
  /** null: not probed this time (no url configured) */
  models: ModelsProbe | null;
}

export type FailureKind =
  | "unit-failed"
  | "unit-stopped"
  | "restarting"
  | "container-gone"
  | "container-exited"
  | "auth-mismatch"
  | "container-mismatch"
  | "container-reused"
  | "url-unreachable"
  | "timeout";

/** What the loop carries from poll to poll. */
export interface WaitState {
  startedAtHostMs: number;
  timeoutMs: number;
  /** NRestarts as the restart left it (0 after reset-failed, or the count of an attempt taken just before) */
  baselineRestarts: number;
  /** the container created after the deploy began, once seen */
  fresh: ContainerState | null;
  marker: boolean;
  /** the line that counted as the readiness marker (the report quotes it) */
  markerLine: string | null;
  /** host time of the poll that first saw the readiness marker */
  markerAtMs: number | null;
  /** polls since the marker in which /v1/models gave no HTTP answer, back to back */
  unanswered: number;
  /** containers other than the config's that the unit's records named */
  otherContainers: string[];
  phase: BootPhase | null;
  lastLine: string | null;
}

export type Decision =
  | { kind: "ready"; state: WaitState }
  | { kind: "wait"; state: WaitState }
  | { kind: "fail"; state: WaitState; failure: FailureKind; reason: string };

export function initialState(startedAtHostMs: number, timeoutMs: number, baselineRestarts = 0): WaitState {
  return {
    startedAtHostMs,
    timeoutMs,
    baselineRestarts,
    fresh: null,
    marker: false,
    markerLine: null,
    markerAtMs: null,
    unanswered: 0,
    otherContainers: [],
    phase: null,
    lastLine: null,
  };
}

const LIVE_CONTAINER = new Set(["created", "configured", "initialized", "running"]);

/** Only a container created after the deploy began counts: an old one answering is never "ready". */
export function isFresh(c: ContainerState, startedAtHostMs: number): boolean {
  return c.createdAtMs >= startedAtHostMs;
}

/**
 * After the engine said it is up: polls and time to let pass before a missing container or a silent URL is
 * a verdict (the container's inspect and the HTTP probe lag the log line by up to a poll).
 */
const AFTER_MARKER_POLLS = 3;
const AFTER_MARKER_MS = 15_000;

export function decide(prev: WaitState, obs: Observation, configContainer?: string): Decision {
  const state: WaitState = { ...prev };
  for (const name of obs.containerNames ?? []) {
    if (name !== configContainer && !state.otherContainers.includes(name))
      state.otherContainers = [...state.otherContainers, name];
  }
  for (const line of obs.messages) {
    if (isReadyMarker(line)) {
      state.marker = true;
      state.markerLine ??= line.trim();
      state.markerAtMs ??= obs.hostNowMs;
    }
    const p = bootPhase(line);
    if (p) state.phase = p;
    if (line.trim()) state.lastLine = line;
  }
  const c = obs.container && isFresh(obs.container, state.startedAtHostMs) ? obs.container : null;
  const fail = (failure: FailureKind, reason: string): Decision => ({ kind: "fail", state, failure, reason });
  const u = obs.unit;

  if (u) {
    if (u.activeState === "failed")
      return fail(
        "unit-failed",
        `the unit failed (Result=${u.result || "?"}, ExecMainStatus=${u.execMainStatus ?? "?"})`,
      );
    if (u.subState === "auto-restart")
      return fail(
        "restarting",
        `the unit is restarting after its main process exited (ExecMainStatus=${u.execMainStatus ?? "?"})`,
      );
    if (u.nRestarts !== null && u.nRestarts > state.baselineRestarts)
      return fail(
        "restarting",
        `NRestarts rose from ${state.baselineRestarts} to ${u.nRestarts}: the engine exited and systemd restarted it`,
      );
    if (u.activeState === "inactive")
      return fail("unit-stopped", `the unit is inactive (${u.subState}): nothing will start the engine again`);
    // Going down: its main process ended (an outside removal, a crash) or someone stops it.
    if (u.activeState === "deactivating")
      return fail("unit-stopped", `the unit is deactivating (${u.subState}): its engine is going down`);
  }
  if (state.fresh) {
    if (!obs.container)
      return fail("container-gone", `container ${short(state.fresh.id)} is gone (removed, or exited under --rm)`);
    if (obs.container.id !== state.fresh.id) {
      return isFresh(obs.container, state.startedAtHostMs)
        ? fail(
            "restarting",
            `container ${short(state.fresh.id)} was replaced by ${short(obs.container.id)}: the engine was restarted`,
          )
        : fail("container-gone", `container ${short(state.fresh.id)} is gone`);
    }
  }
  if (c) {
    if (!LIVE_CONTAINER.has(c.state))
      return fail("container-exited", `container ${short(c.id)} is ${c.state} (exit code ${c.exitCode ?? "?"})`);
    state.fresh = c;
  }
  // The engine is up but refuses the gate's key: waiting cannot change that.
  const st = obs.models?.status;
  if (state.fresh && (st === 401 || st === 403))
    return fail(
      "auth-mismatch",
      `/v1/models answered ${st}: the server requires an API key the gate ${obs.models?.sentKey ? "sent but it was refused" : "did not send (DEPLOY_GATE_API_KEY is unset)"}`,
    );
  if (state.fresh && state.marker && (obs.models === null || (obs.models.status === 200 && obs.models.listsModel)))
    return { kind: "ready", state };
  // The engine says it is up, but the gate cannot see it: waiting out boot.timeout would not change that.
  if (state.marker && obs.models) state.unanswered = obs.models.status === null ? state.unanswered + 1 : 0;
  const settled = state.markerAtMs !== null && obs.hostNowMs - state.markerAtMs >= AFTER_MARKER_MS;
  if (settled && !state.fresh && state.otherContainers.length > 0) {
    return fail(
      "container-mismatch",
      `the engine reached readiness in container ${state.otherContainers.join(", ")}, but container: says ${configContainer ?? "another name"}, and no container of that name was created`,
    );
  }
  // The engine booted again in the container that was there before the deploy: the restart started it instead of
  // a new one (podman-compose 1.0.3's up with no down first), so a changed launch file never took effect.
  const old = obs.container && !isFresh(obs.container, state.startedAtHostMs) ? obs.container : null;
  if (settled && !state.fresh && old && LIVE_CONTAINER.has(old.state)) {
    return fail(
      "container-reused",
      `the engine reached readiness in container ${short(old.id)}, created ${formatElapsed(state.startedAtHostMs - old.createdAtMs)} before this deploy began: the restart started the old container again instead of a new one`,
    );
  }
  if (settled && state.fresh && state.unanswered >= AFTER_MARKER_POLLS) {
    return fail(
      "url-unreachable",
      `the engine logged its startup complete ${formatElapsed(obs.hostNowMs - state.markerAtMs!)} ago, but /v1/models has not answered since (${obs.models?.error ?? "no answer"})`,
    );
  }
  if (obs.hostNowMs - state.startedAtHostMs > state.timeoutMs) {
    return fail(
      "timeout",
      `not ready within boot.timeout (${formatElapsed(state.timeoutMs)})${state.phase ? `; last phase: ${phaseLabel(state.phase)}` : ""}`,
    );
  }
  return { kind: "wait", state };
}

export const short = (id: string) => id.slice(0, 12);

const LABELS: Record<BootPhase, string> = {
  "loading-weights": "loading weights",
  "profiling-kv": "profiling memory / KV cache",
  compiling: "compiling (torch.compile)",
  "capturing-graphs": "capturing CUDA graphs",
  "starting-api": "starting the API server",
  ready: "API up (waiting for /v1/models)",
};

export const phaseLabel = (p: BootPhase) => LABELS[p];

/** `[ 1m35s] archon: compiling (torch.compile) · container 3f2a1b created 1m33s ago` */
export function progressLine(name: string, s: WaitState, obs: Observation): string {
  const elapsed = formatElapsed(obs.hostNowMs - s.startedAtHostMs).padStart(6, " ");
  const phase = s.phase ? phaseLabel(s.phase) : "waiting for the engine's first boot line";
  let box: string;
  // with no container, the unit's run (its InvocationID) is what is new or old
  // a run (or container) of this deploy that already ended before it was taken as fresh (a start that died at
  // once) is still this deploy's, never "from before this deploy"
  const seen = s.fresh ?? (obs.container && isFresh(obs.container, s.startedAtHostMs) ? obs.container : null);
  const ended = seen && !s.fresh ? ` (${seen.state})` : "";
  if (seen)
    box =
      (seen.process
        ? `unit run ${seen.id.slice(0, 6)} started ${formatElapsed(obs.hostNowMs - seen.createdAtMs)} ago`
        : `container ${seen.id.slice(0, 6)} created ${formatElapsed(obs.hostNowMs - seen.createdAtMs)} ago`) + ended;
  else if (obs.container)
    box = obs.container.process
      ? `the unit's run ${obs.container.id.slice(0, 6)} from before this deploy`
      : `old container ${obs.container.id.slice(0, 6)} still present (created before this deploy)`;
  else box = "no new container yet";
  const http =
    obs.models && s.marker && obs.models.status !== 200
      ? ` · /v1/models: ${obs.models.status ?? obs.models.error}`
      : "";
  return `[${elapsed}] ${name}: ${phase} · ${box}${http}`;
}
