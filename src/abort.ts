// One abort signal for the whole run: SIGINT/SIGTERM abort it so waits stop at once, then the
// entry point releases host locks before exiting.
export const runAbort = new AbortController();

/** Work that must finish before the process exits on a signal (logs --follow: close the channel, print the diagnosis). */
export const beforeExit: Promise<unknown>[] = [];
