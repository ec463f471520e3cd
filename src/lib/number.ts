// A number as a log prints it.

/** `42,656` -> 42656; `nan` and garbage -> null. */
export function parseNumber(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text.replace(/,/g, ""));
  return Number.isFinite(n) ? n : null;
}
