// deploy.restart: daemon-reload when a unit file changed, restart the real unit, confirm it is up.
// `Restart=always` does not fire after an explicit stop, so the gate starts the unit itself when it is down.
import type { Host, RunResult } from "../../ports/host/host.js";
import { shellJoin } from "../../lib/shell-quote.js";
import { MARK_SCRIPT, unitArgv } from "./poll-command.js";
import { parseMark, parseUnitShow, type UnitState } from "./poll-parse.js";
import { classifyStopHang, parsePs, parseTimespan, stopHangScript } from "./stop-hang.js";

const SHORT_MS = 30_000;
/** A restart waits for the old engine's stop (ExecStop + TimeoutStopSec) and the new start's ExecStartPre. */
export const RESTART_TIMEOUT_MS = 6 * 60_000;

export interface Mark {
  hostNowMs: number;
  cursor: string | null;
}

export async function hostMark(host: Host): Promise<Mark> {
  const r = await host.runShell(MARK_SCRIPT, { timeoutMs: SHORT_MS });
  const m = parseMark(r.stdout);
  if (m.hostNowMs === null)
    throw new Error(`reading the host clock failed (exit ${r.code}): ${r.stderr.trim() || "no output"}`);
  return { hostNowMs: m.hostNowMs, cursor: m.cursor };
}

export async function unitState(host: Host, service: string): Promise<UnitState | null> {
  const r = await host.run(unitArgv(service), { timeoutMs: SHORT_MS });
  return parseUnitShow(r.stdout.split("\n"));
}

export const isUp = (u: UnitState | null) =>
  u !== null && (u.activeState === "active" || u.activeState === "activating" || u.activeState === "reloading");

export interface RestartResult {
  ok: boolean;
  mark: Mark;
  unit: UnitState | null;
  /** NRestarts as the restart left it: a count above it is an automatic restart of this deploy's engine. */
  baselineRestarts: number;
  commands: string[];
  evidence: string[];
  /** the stop-hang diagnosis summary when the old engine outlived TimeoutStopSec */
  stopHang: string | null;
}

/**
 * reset-failed first: a restart of a unit waiting in auto-restart (a crash loop between two attempts) keeps its
 * NRestarts (systemd flushes the count only after a stop that is not one), so the old loop's count would read
 * as restarts of the new engine; reset-failed also gives the new engine a fresh start limit.
 */
export function restartCommands(service: string, daemonReload: boolean): string[][] {
  return [
    ...(daemonReload ? [["systemctl", "daemon-reload"]] : []),
    ["systemctl", "reset-failed", "--", service],
    ["systemctl", "restart", "--", service],
  ];
}

const NRESTARTS = "@@dg-nrestarts=";

/**
 * The restart, and NRestarts read in the same shell as soon as it returns: the loop can still take an attempt
 * between reset-failed and the restart, and its count is then kept. An automatic restart of the new engine
 * comes RestartSec after a death, later than this read.
 */
export function restartScript(restart: readonly string[], service: string): string {
  return `${shellJoin(restart)}; rc=$?; printf '%s' ${shellJoin([NRESTARTS])}; ${shellJoin(["systemctl", "show", "-p", "NRestarts", "--value", "--", service])}; exit $rc`;
}

export function parseRestartCount(stdout: string): number | null {
  const m = new RegExp(`${NRESTARTS}(\\d+)\\s*$`).exec(stdout);
  return m ? Number(m[1]) : null;
}

/** How often a blocking restart says it is still waiting. */
const RESTART_PROGRESS_MS = 10_000;

export async function restartUnit(
  host: Host,
  service: string,
  daemonReload: boolean,
  progress: (line: string) => void = () => {},
): Promise<RestartResult> {
  const evidence: string[] = [];
  const commands: string[] = [];
  /** A command that failed, as evidence: the command, its exit and what it said. */
  const noteFailure = (argv: readonly string[], r: RunResult) => {
    if (r.code !== 0)
      evidence.push(
        `${shellJoin(argv)}: exit ${r.code ?? r.signal}${r.timedOut ? " (timed out)" : ""} ${r.stderr.trim()}`.trim(),
      );
  };
  const run = async (argv: string[], timeoutMs: number) => {
    commands.push(shellJoin(argv));
    const r = await host.run(argv, { timeoutMs });
    noteFailure(argv, r);
    return r;
  };
  // A unit file edited on the host without a reload would restart the old definition: reload then too.
  const stale =
    !daemonReload &&
    (
      await host.run(["systemctl", "show", "-p", "NeedDaemonReload", "--value", "--", service], { timeoutMs: SHORT_MS })
    ).stdout.trim() === "yes";
  if (stale) evidence.push(`systemd had not loaded the unit file on disk (NeedDaemonReload=yes): reloading`);
  const cmds = restartCommands(service, daemonReload || stale);
  const restart = cmds.pop()!;
  for (const c of cmds) await run(c, SHORT_MS);
  // The window of this deploy starts here, on the host's clock: the journal cursor and "created after".
  const mark = await hostMark(host);
  let stopHang: string | null = null;
  const stopMs = parseTimespan(
    (await host.run(["systemctl", "show", "-p", "TimeoutStopUSec", "--value", "--", service], { timeoutMs: SHORT_MS }))
      .stdout,
  );
  commands.push(shellJoin(restart));
  const restarting = host.runShell(restartScript(restart, service), { timeoutMs: RESTART_TIMEOUT_MS }).then((r) => {
    noteFailure(restart, r);
    return parseRestartCount(r.stdout);
  });
  // A restart blocks through the old engine's stop and the new start's ExecStartPre=: say so while it does.
  const t0 = Date.now();
  const ticker = setInterval(
    () =>
      progress(
        `systemctl restart ${service}: still waiting after ${Math.round((Date.now() - t0) / 1000)}s (the old engine's stop, then ExecStartPre=)`,
      ),
    RESTART_PROGRESS_MS,
  );
  restarting.finally(() => clearInterval(ticker)).catch(() => undefined); // the await below reports a failure
  // Past TimeoutStopSec (plus a grace for SIGKILL) the old engine is hanging in its stop: say why.
  if (stopMs !== null && stopMs + 5000 < RESTART_TIMEOUT_MS) {
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      restarting.then(() => false),
      new Promise<boolean>((res) => {
        timer = setTimeout(() => res(true), stopMs + 5000);
      }),
    ]);
    clearTimeout(timer);
    if (late) {
      // The stop may be long over: a slow ExecStartPre= (an image pull, a download) also holds `systemctl restart`.
      const now = await unitState(host, service).catch(() => null);
      if (now?.activeState === "activating" && /^start/.test(now.subState)) {
        evidence.push(
          `systemctl restart was still waiting after ${Math.round((stopMs + 5000) / 1000)} s on the start (${now.subState}), not on the stop: a slow ExecStartPre= holds it`,
        );
      } else {
        const lines = await diagnoseStopHang(host, service, stopMs + 5000);
        stopHang = lines[0]!;
        evidence.push(...lines);
      }
    }
  }
  let baselineRestarts = (await restarting) ?? 0;
  let unit = await unitState(host, service);
  if (!isUp(unit)) {
    baselineRestarts = 0; // reset-failed again below
    evidence.push(
      `after the restart the unit is ${unit?.activeState ?? "unknown"} (${unit?.subState ?? "?"}, Result=${unit?.result ?? "?"}): starting it`,
    );
    await run(["systemctl", "reset-failed", "--", service], SHORT_MS);
    await run(["systemctl", "start", "--no-block", "--", service], SHORT_MS);
    unit = await unitState(host, service);
  }
  return { ok: isUp(unit), mark, unit, baselineRestarts, commands, evidence, stopHang };
}

/** The old engine's processes with their state; a D state first, as such (never a GPU-wedge verdict). */
export async function diagnoseStopHang(host: Host, service: string, waitedMs: number): Promise<string[]> {
  const r = await host
    .runShell(stopHangScript(service), { timeoutMs: SHORT_MS })
    .catch((e: Error) => ({ stdout: "", stderr: e.message }));
  const hang = classifyStopHang(parsePs(r.stdout), service, waitedMs);
  return [hang.summary, ...hang.evidence.map((l) => `  ${l}`)];
}

/** Every exit path of a deploy leaves the unit up: a stopped or failed unit is started again. */
export async function ensureUp(host: Host, service: string): Promise<string | null> {
  const unit = await unitState(host, service).catch(() => null);
  if (isUp(unit)) return null;
  await host.run(["systemctl", "reset-failed", "--", service], { timeoutMs: SHORT_MS }).catch(() => undefined);
  const r = await host.run(["systemctl", "start", "--no-block", "--", service], { timeoutMs: SHORT_MS });
  return `the unit was ${unit?.activeState ?? "unknown"} (${unit?.result ?? "?"}); started it again (${r.code === 0 ? "ok" : `exit ${r.code}: ${r.stderr.trim()}`})`;
}
