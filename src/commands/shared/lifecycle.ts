// The run's life: one abort signal for every wait, work that must finish before the process exits, and
// the one shutdown both entries call on SIGINT/SIGTERM.
import { activeLocks, releaseAllLocks } from "../../stages/deploy/deploy.js";

/** One abort signal for the whole run: a signal aborts it so every wait stops at once. */
export const runAbort = new AbortController();

/**
 * Work that must finish before the process exits on a signal (logs --follow: close the channel, print the diagnosis).
 */
export const beforeExit: Promise<unknown>[] = [];

/**
 * How long a shutdown waits for host locks to be released and beforeExit to settle. Past it the entry
 * exits anyway: a lock left behind stops its heartbeat and goes stale (2 minutes), so the next deploy
 * takes it over; a shutdown that never ends would hold a terminal or a cancelled job instead.
 */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/**
 * A signal's shutdown, the same for the CLI and the Action: say what happens, abort the run, release
 * every host lock this process holds and wait for beforeExit, within the deadline. Resolves to the exit
 * code the entry exits with (the entry owns the process).
 */
export async function shutdown(
  signal: string,
  exitCode: number,
  say: (line: string) => void,
  deadlineMs = SHUTDOWN_DEADLINE_MS,
): Promise<number> {
  say(`deploy-gate: ${signal}: ${activeLocks().length ? "releasing host locks, then exiting" : "stopping"}`);
  runAbort.abort();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), deadlineMs);
  });
  const done = await Promise.race([
    Promise.allSettled([releaseAllLocks(), ...beforeExit]).then(() => "done" as const),
    late,
  ]);
  clearTimeout(timer);
  if (done === "late" && activeLocks().length)
    say(
      `deploy-gate: host locks not released within ${deadlineMs / 1000} s: they go stale 2 minutes after their last heartbeat (deploy-gate lock status shows them)`,
    );
  return exitCode;
}
