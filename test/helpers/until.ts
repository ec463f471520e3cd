// Waiting on a condition in a test: polled, with a generous deadline (a loaded 2-core runner is slow),
// never a fixed sleep. Resolves true when it held, false when the deadline passed first.
export async function until(cond: () => boolean, deadlineMs = 30_000): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  while (!cond()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
