// One abort signal for the whole run: SIGINT/SIGTERM abort it so waits stop at once, then the
// entry point releases host locks before exiting.
export const runAbort = new AbortController();

/** Work that must finish before the process exits on a signal (logs --follow: close the channel, print the diagnosis). */
export const beforeExit: Promise<unknown>[] = [];

/** Sleeps ms, or less when signal aborts; the abort listener goes with the timer (a long boot polls hundreds of times). */
export const sleepUnlessAborted = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  if (ms <= 0 || signal?.aborted) return resolve();
  const wake = () => { clearTimeout(t); signal?.removeEventListener("abort", wake); resolve(); };
  const t = setTimeout(wake, ms);
  signal?.addEventListener("abort", wake, { once: true });
});
