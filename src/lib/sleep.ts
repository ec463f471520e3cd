// Waits that a Ctrl-C or a cancelled job cuts short: every poll loop sleeps through here.
/**
 * Sleeps ms, or less when signal aborts; the abort listener goes with the timer (a long boot polls hundreds of times).
 */
export const sleepUnlessAborted = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const wake = () => {
      clearTimeout(t);
      signal?.removeEventListener("abort", wake);
      resolve();
    };
    const t = setTimeout(wake, ms);
    signal?.addEventListener("abort", wake, { once: true });
  });
