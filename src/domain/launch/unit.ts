// parseUnit: a systemd unit file as systemd reads it: sections, Key=Value entries with their lines
// (repeated keys kept in order), `\` continuations joined, comments dropped. Plus the time-span
// reading systemd applies to TimeoutStartSec= / TimeoutStopSec=.

export interface UnitEntry {
  section: string;
  key: string;
  value: string;
  /** 1-based line of the key; endLine is the last line of a `\`-continued value */
  line: number;
  endLine: number;
}

export interface UnitFile {
  sections: { name: string; line: number }[];
  entries: UnitEntry[];
}

/** systemd's default for TimeoutStartSec= and TimeoutStopSec= (DefaultTimeout*Sec=90s). */
export const DEFAULT_TIMEOUT_SEC = 90;

export function parseUnit(text: string): UnitFile {
  const lines = text.split("\n");
  const unit: UnitFile = { sections: [], entries: [] };
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (!raw || raw.startsWith("#") || raw.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]$/.exec(raw);
    if (header) {
      section = header[1]!;
      unit.sections.push({ name: section, line: i + 1 });
      continue;
    }
    const start = i;
    let value = raw;
    // A trailing backslash joins the next line with a space; comment lines inside are skipped.
    while (value.endsWith("\\") && i + 1 < lines.length) {
      value = value.slice(0, -1);
      i++;
      const next = lines[i]!.trim();
      if (next.startsWith("#") || next.startsWith(";")) {
        value += "\\";
        continue;
      }
      value += ` ${next}`;
    }
    const eq = value.indexOf("=");
    if (eq <= 0) continue;
    unit.entries.push({
      section,
      key: value.slice(0, eq).trim(),
      value: value
        .slice(eq + 1)
        .trim()
        .replace(/\s+/g, " "),
      line: start + 1,
      endLine: i + 1,
    });
  }
  return unit;
}

export function unitEntries(unit: UnitFile, section: string, key: string): UnitEntry[] {
  return unit.entries.filter((e) => e.section === section && e.key === key);
}

/** The value systemd uses for a single-valued key: the last assignment wins. */
export function unitValue(unit: UnitFile, section: string, key: string): UnitEntry | null {
  return unitEntries(unit, section, key).at(-1) ?? null;
}

/** Exec*= lines in effect: an empty assignment resets the list; the `-@:+!` prefixes are dropped. */
export function execCommands(unit: UnitFile, key: string, section = "Service"): UnitEntry[] {
  let out: UnitEntry[] = [];
  for (const e of unitEntries(unit, section, key)) {
    if (e.value === "") out = [];
    else out.push({ ...e, value: e.value.replace(/^[-@:+!]+/, "") });
  }
  return out;
}

const SPAN_UNITS: [RegExp, number][] = [
  [/^(usec|us|µs)$/, 1e-6],
  [/^(msec|ms)$/, 1e-3],
  [/^(seconds?|sec|s)$/, 1],
  [/^(minutes?|min|m)$/, 60],
  [/^(hours?|hr|h)$/, 3600],
  [/^(days?|d)$/, 86400],
  [/^(weeks?|w)$/, 604800],
  [/^(months?|M)$/, 2629800],
  [/^(years?|y)$/, 31557600],
];

/**
 * A systemd time span in seconds: `90`, `90s`, `5min`, `2min 30s`, `1h30m`; Infinity for `infinity`; null when
 * unreadable.
 */
export function parseTimeSpan(value: string): number | null {
  const s = value.trim();
  if (s === "infinity") return Infinity;
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  const re = /\s*(\d+(?:\.\d+)?)\s*([A-Za-zµ]+)/gy;
  let total = 0;
  let end = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const unit = SPAN_UNITS.find(([r]) => r.test(m![2]!));
    if (!unit) return null;
    total += Number(m[1]) * unit[1];
    end = re.lastIndex;
  }
  return end === s.length && end > 0 ? total : null;
}

/** The timeout systemd applies, in seconds, with the entry that set it (null = the 90 s default). */
function timeout(
  unit: UnitFile,
  key: "TimeoutStartSec" | "TimeoutStopSec",
): { seconds: number; entry: UnitEntry | null } {
  // TimeoutSec= sets both; whichever comes later in the file wins.
  const entries = unit.entries.filter((e) => e.section === "Service" && (e.key === key || e.key === "TimeoutSec"));
  const entry = entries.at(-1) ?? null;
  if (!entry || entry.value === "") return { seconds: DEFAULT_TIMEOUT_SEC, entry: null };
  const seconds = parseTimeSpan(entry.value);
  // systemd treats 0 as "no timeout"
  return { seconds: seconds === 0 ? Infinity : (seconds ?? DEFAULT_TIMEOUT_SEC), entry };
}

export function timeoutStopSec(unit: UnitFile): { seconds: number; entry: UnitEntry | null } {
  return timeout(unit, "TimeoutStopSec");
}

export function timeoutStartSec(unit: UnitFile): { seconds: number; entry: UnitEntry | null } {
  return timeout(unit, "TimeoutStartSec");
}
