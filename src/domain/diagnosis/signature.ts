// The process signature a unit's events show (seed 000 §2-4): a crash loop, a start systemd refused, a clean exit,
// read from the order of systemd's lines (and `systemctl status`'s header). The diagnoser decides between it and a
// failure line. Pure.
import { attemptsOf, type Attempt, type UnitEvent } from "./unit-events.js";

export type SeqEvent = UnitEvent & { seq: number };

/**
 * systemd's results that say the process ran and died (src/core/service.c's service_result_to_string): the others
 * (`resources`, `protocol`, `timeout`, `start-limit-hit`...) say the start itself failed, a unit error, not a crash.
 */
const CRASH_RESULTS: ReadonlySet<string> = new Set(["exit-code", "signal", "core-dump", "watchdog", "oom-kill"]);

export interface Signature {
  attempts: Attempt[];
  startLimit: SeqEvent | undefined;
  /** the start limit refused a start with none of the unit's own exits or restarts before it in the window */
  refusedStart: boolean;
  /** the window shows the unit run and end more than once (or systemd restart it after a failure) */
  repeated: boolean;
  /** repeated, or its newest run ended in a failed exit nobody asked for */
  loop: boolean;
  /** the line a crash loop is shown by: the start limit, else the newest exit */
  loopLine: string | null;
  /** systemd's failed exits, or its `Failed with result` lines when no exit is shown */
  failedExits: number;
  /** the newest run's clean exit at or after seq (none when that run was stopped) */
  exitAfter(seq: number): SeqEvent | undefined;
  /** an operator's stop (`Stopping …`) at or after seq */
  stoppedAfter(seq: number): boolean;
}

export function signatureOf(events: readonly SeqEvent[], opts: { ready: boolean; nRestarts: number }): Signature {
  const { ready } = opts;
  const attempts = attemptsOf(events);
  const startLimit = events.find((e) => e.kind === "start-limit-hit");
  const ended = attempts.filter((a) => a.endedAt !== null && !a.stopped);
  // a restart without a counter (`Service hold-off time over`, alone before systemd 236; `Active: activating
  // (auto-restart)`): each one counts, and a counter printed after it (236+) is no second restart
  const uncounted = events.filter((e) => e.kind === "restart-scheduled" && e.counter === undefined).length;
  const counter = Math.max(uncounted, ...events.map((e) => e.counter ?? 0));
  // one failed exit that systemd restarts is a loop already when nothing else is known (no failure line, not ready);
  // so is a restart whose exit is not in the paste (systemd restarts only a process that ended)
  const failedExit = events.some((e) => (e.kind === "main-exited" && e.status !== 0) || e.kind === "failed");
  const exitSeen = events.some((e) => e.kind === "main-exited" || e.kind === "failed" || e.kind === "deactivated");
  // Only the newest attempt's exit counts: a deploy's own stop of the previous engine is not a failure.
  const lastStartAt = events.map((e) => e.kind).lastIndexOf("started");
  const current = events.slice(Math.max(0, lastStartAt));
  // a unit whose newest run ended in a failed exit that nobody asked for (no `Stopping`) and was not started
  // again: the process signature of a crash, whether or not Restart= repeats it (one-shot services, a paste cut
  // before the restart)
  const lastEnd = [...current]
    .reverse()
    .find((e) => e.kind === "main-exited" || e.kind === "failed" || e.kind === "deactivated");
  const failedOnce =
    !ready &&
    lastEnd !== undefined &&
    ((lastEnd.kind === "failed" && CRASH_RESULTS.has(lastEnd.result ?? "")) ||
      (lastEnd.kind === "main-exited" && lastEnd.status !== 0)) &&
    !current.some((e) => e.kind === "stopping" && e.seq <= lastEnd.seq);
  const repeated =
    Boolean(startLimit) ||
    ended.length >= 2 ||
    counter >= 2 ||
    (!ready && counter >= 1 && (failedExit || !exitSeen)) ||
    (!ready && opts.nRestarts >= 2);
  const stopped = attempts.at(-1)?.stopped === true;
  return {
    attempts,
    startLimit,
    refusedStart: startLimit !== undefined && attempts.length === 0 && !loopedBefore(events, startLimit),
    repeated,
    loop: repeated || failedOnce,
    loopLine: startLimit?.text ?? exitLine(events),
    failedExits: failedExitCount(events),
    exitAfter: (seq) => (stopped ? undefined : current.find((e) => e.seq >= seq && isCleanExit(e))),
    stoppedAfter: (seq) => events.some((e) => e.seq >= seq && e.kind === "stopping"),
  };
}

/**
 * The newest exit: its status says more than systemd's `Failed with result 'exit-code'` after it; the same exit in
 * `systemctl status`'s header names the command that failed (`Process: N ExecStart=…`).
 */
function exitLine(events: readonly SeqEvent[]): string | null {
  const newest = [...events].reverse();
  const lastExit =
    newest.find((e) => e.kind === "main-exited") ?? newest.find((e) => isCleanExit(e) || e.kind === "failed");
  const named = newest.find(
    (e) => e.kind === "main-exited" && e.status === lastExit?.status && /^Process: \d+ ExecStart=/.test(e.text),
  );
  return named?.text ?? lastExit?.text ?? null;
}

/**
 * systemd's start limit counts starts, its own restarts among them (StartLimitBurst= within
 * StartLimitIntervalSec=): after a failed exit or a scheduled restart it is the end of the unit's own loop, not a start
 * refused before the window.
 */
function loopedBefore(events: readonly SeqEvent[], limit: SeqEvent): boolean {
  const before = events.slice(0, events.indexOf(limit));
  return before.some(
    (e) => e.kind === "restart-scheduled" || e.kind === "failed" || (e.kind === "main-exited" && e.status !== 0),
  );
}

/** systemd's `Main process exited` with a failure status; its `Failed with result` lines when those are not shown. */
function failedExitCount(events: readonly UnitEvent[]): number {
  const exits = events.filter((e) => e.kind === "main-exited" && e.status !== 0).length;
  return exits > 0 ? exits : events.filter((e) => e.kind === "failed").length;
}

function isCleanExit(e: UnitEvent): boolean {
  return e.kind === "deactivated" || (e.kind === "main-exited" && e.status === 0);
}
