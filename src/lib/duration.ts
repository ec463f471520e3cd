// "20m", "5s", "1h30m", "750ms" or a bare number of seconds -> milliseconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string | number): number | null {
  if (typeof text === "number") return Number.isFinite(text) && text >= 0 ? text * 1000 : null;
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    matched = re.lastIndex;
  }
  return matched === s.length && s.length > 0 ? total : null;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, "0")}s`;
}
