// Diagnosis for a stop that hangs: when the old engine does not stop within the unit's TimeoutStopSec,
// list its processes with their state. A process in D state is in an uninterruptible kernel wait (often
// a driver finishing DMA or a teardown): it is reported first, as such, before any other conclusion,
// because killing harder does nothing and calling the GPU wedged is premature (seed 000 §4). Pure, but
// for the command text.
import { shellQuote } from "../../lib/shell-quote.js";

export interface PsRow {
  pid: number;
  stat: string;
  etime: string;
  comm: string;
}

/** `ps -o pid,stat,etime,comm` output (header optional) -> rows. */
export function parsePs(text: string): PsRow[] {
  const rows: PsRow[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\s+(\S+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
    if (m) rows.push({ pid: Number(m[1]), stat: m[2]!, etime: m[3]!, comm: m[4]! });
  }
  return rows;
}

/** systemd's TimeoutStopUSec ("1min 30s", "5s", "500ms", "infinity") -> ms; null for infinity or unreadable. */
export function parseTimespan(text: string): number | null {
  const t = text.trim();
  if (t === "" || t === "infinity") return null;
  const units: Record<string, number> = { us: 0.001, ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 };
  let total = 0;
  for (const part of t.split(/\s+/)) {
    const m = /^(\d+(?:\.\d+)?)(us|ms|s|min|h|d)$/.exec(part);
    if (!m) return null;
    total += Number(m[1]) * units[m[2]!]!;
  }
  return total;
}

export interface StopHang {
  kind: "uninterruptible" | "running" | "gone";
  summary: string;
  evidence: string[];
}

export function classifyStopHang(rows: readonly PsRow[], service: string, waitedMs: number): StopHang {
  const line = (r: PsRow) => `${r.pid} ${r.stat} ${r.etime} ${r.comm}`;
  const d = rows.filter((r) => r.stat.startsWith("D"));
  const rest = rows.filter((r) => !r.stat.startsWith("D"));
  const evidence = [...d, ...rest].map(line);
  const waited = `${Math.round(waitedMs / 1000)} s`;
  if (d.length > 0) {
    return {
      kind: "uninterruptible",
      evidence,
      summary: `${service} did not stop within ${waited}: ${d.length} process(es) in D state (${d.map((r) => `${r.comm} ${r.pid}`).join(", ")}), uninterruptible: wait, do not declare a GPU wedge`,
    };
  }
  if (rest.length > 0) {
    const z = rest.filter((r) => r.stat.startsWith("Z"));
    return {
      kind: "running",
      evidence,
      summary: `${service} did not stop within ${waited}: ${rest.length} process(es) still there${z.length ? ` (${z.length} zombie, waiting for its parent)` : ""}, none in D state: the stop signal is ignored or still being handled`,
    };
  }
  return {
    kind: "gone",
    evidence,
    summary: `${service} did not stop within ${waited} but none of its processes is left: systemd is finishing ExecStopPost/cleanup`,
  };
}

/** On the host: the unit's processes (its whole cgroup tree), as ps rows. */
export function stopHangScript(service: string): string {
  const s = shellQuote(service);
  return [
    `cg=$(systemctl show -p ControlGroup --value -- ${s})`,
    `pids=$( [ -n "$cg" ] && find "/sys/fs/cgroup$cg" -name cgroup.procs -exec cat {} + 2>/dev/null | tr '\\n' ',' | sed 's/,$//')`,
    `[ -n "$pids" ] && ps -o pid,stat,etime,comm -p "$pids"`,
    `true`,
  ].join("\n");
}
