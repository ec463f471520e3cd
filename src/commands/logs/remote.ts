// The journalctl command `logs` runs on the host, built from validated values only. Pure.
import { parseDuration } from "../../lib/duration.js";

/** Without --since: the newest entries of the endpoint, enough for several boots, never the whole journal. */
export const DEFAULT_LINES = 50_000;

/**
 * --since as journalctl takes it, or null when it is not one of the forms we pass on: a duration (`30m`,
 * `2h`, `90s`: that long ago), `YYYY-MM-DD[ HH:MM[:SS]]`, `@EPOCH`, `today`, `yesterday`.
 */
export function sinceArg(text: string): string | null {
  const t = text.trim();
  const ms = parseDuration(t);
  if (ms !== null && /^\d/.test(t)) return `-${Math.max(1, Math.round(ms / 1000))}s`;
  if (/^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.test(t)) return realDate(t) ? t.replace("T", " ") : null;
  if (/^@\d{1,12}$/.test(t) || t === "today" || t === "yesterday") return t;
  return null;
}

/** 2026-13-45 or 25:00 is no time: refused here, where journalctl's exit 1 would read as "no lines". */
function realDate(t: string): boolean {
  const [date, time = "00:00:00"] = t.split(/[ T]/);
  const [y, mo, d] = date!.split("-").map(Number);
  const [h, mi, s = 0] = time.split(":").map(Number);
  const at = new Date(Date.UTC(y!, mo! - 1, d, h, mi, s));
  return (
    at.getUTCFullYear() === y &&
    at.getUTCMonth() === mo! - 1 &&
    at.getUTCDate() === d &&
    at.getUTCHours() === h &&
    at.getUTCMinutes() === mi &&
    at.getUTCSeconds() === s
  );
}

export interface LogsTarget {
  service: string;
  container: string | null;
  since: string | null;
  follow: boolean;
}

/** The container's lines, the unit's stdout copies and systemd's lines about the unit, as JSON. */
export function logsArgv(t: LogsTarget): string[] {
  const window = t.since !== null ? [`--since=${t.since}`] : [`--lines=${DEFAULT_LINES}`];
  return [
    "journalctl",
    "-o",
    "json",
    "--no-pager",
    ...(t.follow ? ["--follow"] : []),
    ...window,
    ...(t.container === null ? [] : [`CONTAINER_NAME=${t.container}`, "+"]),
    `_SYSTEMD_UNIT=${t.service}`,
    "+",
    `UNIT=${t.service}`,
  ];
}
