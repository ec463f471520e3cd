// systemd's own lines about a unit (seed 000 §2–4): starts, exits, restarts and the start limit. The
// process signatures (clean exit, crash loop, outside removal) are read from their order.

export type UnitEventKind =
  | "started"
  | "stopping"
  | "stopped"
  | "deactivated"
  | "main-exited"
  | "failed"
  | "restart-scheduled"
  | "start-limit-hit";

export interface UnitEvent {
  kind: UnitEventKind;
  unit: string | null;
  /** µs, 0 when unknown. */
  ts: number;
  /** main-exited: the exit status; failed: null. */
  status?: number | null;
  /** failed: systemd's result (`exit-code`, `timeout`, `start-limit-hit`, …). */
  result?: string;
  /** restart-scheduled: systemd's restart counter. */
  counter?: number;
  text: string;
}

const UNIT = String.raw`(?<unit>[\w@.:\\-]+\.service)`;
const PATTERNS: ReadonlyArray<readonly [RegExp, UnitEventKind]> = [
  [new RegExp(`^${UNIT}: Deactivated successfully`), "deactivated"],
  // (systemd before ~230 writes `main process exited`)
  [new RegExp(`^${UNIT}: [Mm]ain process exited, code=\\w+, status=(?<status>\\d+)`), "main-exited"],
  // a failed ExecStartPre=/ExecStartPost=, or a one-shot's ExecStart= where systemd tracks it as the control process
  // (service.c logs the line at notice level only for a failure; older ones without the comma)
  [new RegExp(`^${UNIT}: Control process exited, code=\\w+,? status=(?<status>[1-9]\\d*)`), "main-exited"],
  [new RegExp(`^${UNIT}: Failed with result '(?<result>[\\w-]+)'`), "failed"],
  [new RegExp(`^${UNIT}: Scheduled restart job, restart counter is at (?<counter>\\d+)`), "restart-scheduled"],
  // service.c's hold-off line: no counter (systemd 236+ prints `Scheduled restart job, …` after it, older ones not)
  [new RegExp(`^${UNIT}: Service hold-off time over, scheduling restart`), "restart-scheduled"],
  [new RegExp(`^${UNIT}: Start request repeated too quickly`), "start-limit-hit"],
  [/^Started (?<unit>[\w@.:\\-]+\.service)?/, "started"],
  [/^Stopping (?<unit>[\w@.:\\-]+\.service)?/, "stopping"],
  [/^Stopped (?<unit>[\w@.:\\-]+\.service)?/, "stopped"],
];

/**
 * A unit event from a line systemd wrote. `fromSystemd` says the record's identifier is systemd; without
 * it only lines naming a `.service` count, so uvicorn's `Started server process` is never taken for one.
 */
export function unitEventOf(
  text: string,
  opts: { fromSystemd: boolean; unit?: string | null; ts?: number },
): UnitEvent | null {
  // a line not from systemd counts only when it names a .service (below): most lines are neither
  if (!opts.fromSystemd && !text.includes(".service")) return null;
  for (const [re, kind] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const g = m.groups ?? {};
    const unit = g.unit ?? opts.unit ?? null;
    if (!opts.fromSystemd && !g.unit) return null;
    // podman's per-container scopes start and stop with every run: not the service.
    if (unit && !unit.endsWith(".service")) return null;
    if (/libpod|conmon/.test(text) && !g.unit) return null;
    const ev: UnitEvent = { kind, unit, ts: opts.ts ?? 0, text };
    if (g.status !== undefined) ev.status = Number(g.status);
    if (g.result !== undefined) ev.result = g.result;
    if (g.counter !== undefined) ev.counter = Number(g.counter);
    if (kind === "failed" && g.result === "start-limit-hit") ev.kind = "start-limit-hit";
    return ev;
  }
  return null;
}

/**
 * `systemctl status`'s header (systemctl-show.c): the unit's state and exits, for when the journal tail below it does
 * not show systemd's own lines.
 * - `Main PID: 1234 (code=exited, status=2)` (systemd's exit-status words after a `/` when it knows one,
 *   `status=1/FAILURE`): the main process's exit.
 * - `Process: 1234 ExecStart=/x … (code=exited, status=255)`: an exited command of the unit's last run. A failed
 *   `ExecStart=` is the exit (systemctl then leaves `Main PID:` out or cut); a clean one is a forking daemon's parent,
 *   and a pre/post command is not the main process, so only a failed `ExecStart=` counts.
 * - `Active: activating (auto-restart) (Result: exit-code)`: systemd has scheduled a restart after a failure.
 * - `Active: failed (Result: start-limit-hit)`: the unit's failed state and systemd's result for it.
 * A signal reads `(code=killed, signal=TERM)`, also after `systemctl stop`: no failure by itself.
 */
const MAIN_PID_EXIT = /^\s*Main PID: \d+ \(code=exited, status=(?<status>\d+)/;
const EXEC_START_FAILED = /^\s*Process: \d+ ExecStart=.*\(code=exited, status=(?<status>[1-9]\d*)(?:\/\w+)?\)\s*$/;
const ACTIVE = /^\s*Active: (?<state>activating \(auto-restart\)|failed) \(Result: (?<result>[\w-]+)\)/;

export function statusHeaderEventOf(text: string, ts = 0): UnitEvent | null {
  const m = MAIN_PID_EXIT.exec(text) ?? EXEC_START_FAILED.exec(text);
  if (m) return { kind: "main-exited", unit: null, ts, status: Number(m.groups!.status), text: text.trim() };
  const a = ACTIVE.exec(text)?.groups;
  if (!a) return null;
  if (a.state !== "failed") return { kind: "restart-scheduled", unit: null, ts, text: text.trim() };
  const kind = a.result === "start-limit-hit" ? "start-limit-hit" : "failed";
  return { kind, unit: null, ts, result: a.result!, text: text.trim() };
}

export interface Attempt {
  startedAt: number;
  endedAt: number | null;
  durationS: number | null;
  exitStatus: number | null;
  /** Ended by `systemctl stop` (Stopping … first), not by itself. */
  stopped: boolean;
}

/** Started → (exit) pairs, in order. */
export function attemptsOf(events: readonly UnitEvent[]): Attempt[] {
  const out: Attempt[] = [];
  let cur: Attempt | null = null;
  const end = (ts: number) => {
    if (!cur || cur.endedAt !== null) return;
    cur.endedAt = ts;
    cur.durationS = cur.startedAt && ts ? Math.round((ts - cur.startedAt) / 1e5) / 10 : null;
  };
  for (const ev of events) {
    if (ev.kind === "started") {
      cur = { startedAt: ev.ts, endedAt: null, durationS: null, exitStatus: null, stopped: false };
      out.push(cur);
    } else if (!cur) continue;
    else if (ev.kind === "stopping") cur.stopped = true;
    else if (ev.kind === "main-exited") {
      cur.exitStatus = ev.status ?? null;
      end(ev.ts);
    } else if (ev.kind === "deactivated" || ev.kind === "failed" || ev.kind === "stopped") {
      if (ev.kind === "deactivated" && cur.exitStatus === null) cur.exitStatus = 0;
      end(ev.ts);
    }
  }
  return out;
}

/** The unit most events talk about: a broad dump may hold several services. */
export function mainUnit(events: readonly UnitEvent[]): string | null {
  const counts = new Map<string, number>();
  for (const ev of events) if (ev.unit) counts.set(ev.unit, (counts.get(ev.unit) ?? 0) + 1);
  let best: string | null = null;
  for (const [u, n] of counts) if (best === null || n > counts.get(best)!) best = u;
  return best;
}
