// A pod template whose script picks the launch by the pod's role (a LeaderWorkerSet's leader or worker by
// LWS_WORKER_INDEX, a rank, a prefill/decode role): every branch runs, each in its own pods, so each is a launch
// of its own; an if/case on anything else (a mode, a GPU kind) is an alternative the defaults pick one of. Pure.
import type { Engine } from "./model.js";

/** Variables and words that say which member of a group a pod is. */
const ROLE =
  /\b(LWS_WORKER_INDEX|LWS_LEADER_ADDRESS|JOB_COMPLETION_INDEX|POD_INDEX|NODE_RANK|NODE_INDEX|GROUP_RANK|RANK|ROLE|role|HOSTNAME|hostname|leader|worker|LEADER|WORKER|prefill|decode)\b/;

/** A line that starts another branch of an if or case: `else`, `elif`, a `pattern)` label, or one ending a `;;`. */
export const branchLine = (l: string): boolean => /^\s*(else\b|elif\b|;;|[^\s()]+\)\s*$)/.test(l) || /;;\s*$/.test(l);

/** The if/elif/case line that governs a launch: the nearest one above it. */
function governing(lines: readonly string[], at: number): string | null {
  for (let i = at; i >= 0; i--) {
    const l = lines[i] ?? "";
    if (/^\s*(if|elif|case)\b/.test(l)) return l;
  }
  return null;
}

/**
 * The launches of `found` that sit in different branches of one role switch, in source order; [] when the file has
 * none (one launch, or branches on something else).
 */
export function roleLaunches(found: readonly Engine[], lines: readonly string[], firstLine: number): Engine[] {
  if (found.length < 2) return [];
  const sorted = [...found].sort((a, b) => a.command.line - b.command.line);
  const out: Engine[] = [sorted[0]!];
  for (const e of sorted.slice(1)) {
    const prev = out.at(-1)!;
    const between = lines.slice(prev.command.endLine - firstLine + 1, e.command.line - firstLine);
    const branch = between.findIndex(branchLine);
    if (branch < 0) return [];
    const cond = governing(lines, prev.command.line - firstLine);
    // an elif names the role itself; else the if or case above the first launch does
    const elif = /^\s*elif\b/.test(between[branch]!) ? between[branch]! : null;
    if (!ROLE.test(elif ?? cond ?? "")) return [];
    if (!out.some((o) => o.command === e.command)) out.push(e);
  }
  return out;
}
