// What systemctl, podman/docker, sha256sum and stat print on the host, read the same way by deploy and
// verify. Pure.

export interface HostCopy {
  sha256: string | null;
  mode: string | null;
}

/** "755", "0755" -> "0755"; "04755", "4755" -> "4755": the same number, one spelling. */
export const normMode = (mode: string) => parseInt(mode, 8).toString(8).padStart(4, "0");
/** `sha256sum` lines (`<hex>  <path>`) and `stat -c '%a %n'` lines → host copies by path. */
export function parseHostCopies(sumOut: string, statOut: string): Map<string, HostCopy> {
  const out = new Map<string, HostCopy>();
  for (const l of sumOut.split("\n")) {
    const m = /^\\?([0-9a-f]{64}) [ *](.+)$/.exec(l);
    if (m) out.set(m[2]!, { sha256: m[1]!, mode: null });
  }
  for (const l of statOut.split("\n")) {
    const m = /^([0-7]{3,4}) (.+)$/.exec(l);
    if (m) out.set(m[2]!, { sha256: out.get(m[2]!)?.sha256 ?? null, mode: normMode(m[1]!) });
  }
  return out;
}

/**
 * podman's `2026-11-29 21:23:48.375834661 +0000 UTC` or docker's `2026-11-29T21:23:48.375834661Z` (RFC 3339)
 * → epoch ms (the offset is honoured, the zone name ignored).
 */
export function parsePodmanTime(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))? ?(?:Z|([+-])(\d{2}):?(\d{2}))/.exec(text.trim());
  if (!m) return null;
  const base = Date.parse(`${m[1]}T${m[2]}Z`);
  if (Number.isNaN(base)) return null;
  const frac = m[3] ? Number(`0.${m[3]}`) * 1000 : 0;
  const offset = m[4] ? (Number(m[5]) * 60 + Number(m[6])) * 60_000 * (m[4] === "-" ? -1 : 1) : 0;
  return base + frac - offset;
}

/**
 * systemd's ExecMainStartTimestamp in UTC (`Tue 2026-12-01 11:37:00.123456 UTC`) -> epoch ms. Before systemd
 * 248 it has whole seconds: read as the end of that second (a run started in the deploy's own second is
 * still this deploy's). null when unreadable (another zone, never started).
 */
export function unitStartMs(value: string): number | null {
  const t = /^(?:\w+ )?(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(\.\d+)? UTC$/.exec(value.trim());
  const at = t ? parsePodmanTime(`${t[1]}${t[2] ?? ""} +0000`) : null;
  return at === null ? null : t![2] ? at : at + 999;
}
