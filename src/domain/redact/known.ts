// Secrets the gate itself holds (the API key it sends, the SSH key's passphrase), masked by value wherever
// they appear: an error body that quotes the sent key has no name or shape the redactor could know.

/** Values shorter than this are not masked by value: "1" or "on" would blank out half a report. */
const MIN_LENGTH = 6;

/** Every string in value (deeply) with each known secret replaced by ***. */
export function maskKnown<T>(value: T, secrets: readonly string[]): T {
  const known = secrets.filter((s) => s.length >= MIN_LENGTH).sort((a, b) => b.length - a.length);
  if (!known.length) return value;
  const text = (s: string) => known.reduce((t, k) => t.split(k).join("***"), s);
  const deep = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map(deep);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]));
    return v;
  };
  return deep(value) as T;
}
