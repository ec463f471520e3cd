// Where a flag left a script: one pass over the script's history (newest first, with patches)
// finds the commit that removed the last occurrence and the commit before it. Pure.
import type { Commit, HistoryEntry } from "../../ports/git/git.js";

export type { HistoryEntry };

export interface Trace {
  /** the commit whose change removed the last occurrence */
  droppedIn: Commit;
  /** the last removed line(s) that carried the token, as they read before the drop */
  removedLines: string[];
  /** the commit that first added the token */
  introducedIn: Commit | null;
}

const isComment = (line: string) => line.trimStart().startsWith("#");

/**
 * A flag token as a pattern: vLLM and SGLang read `--max_model_len` as `--max-model-len`, so either spelling matches.
 */
function tokenPattern(token: string): RegExp {
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = /^(--?)([^\s=]+)(.*)$/s.exec(token);
  const body = m ? esc(m[1]!) + m[2]!.split(/[-_]/).map(esc).join("[-_]") + esc(m[3]!) : esc(token);
  return new RegExp(`(?<![\\w-])${body}(?![\\w-])`, "g");
}

/** Occurrences of a flag token as a whole word (`--tool-call-parser` must not match `--tool-call-parser-plugin`). */
export function countToken(line: string, token: string): number {
  if (isComment(line)) return 0;
  return line.match(tokenPattern(token))?.length ?? 0;
}

/**
 * Walks the history oldest to newest, keeping a running count of the token in the file.
 * The drop is the last transition from present to absent; null when the token never appeared
 * or is still present at the newest commit.
 */
export function traceDrop(historyNewestFirst: readonly HistoryEntry[], token: string): Trace | null {
  let count = 0;
  let drop: Trace | null = null;
  let introducedIn: Commit | null = null;
  for (let i = historyNewestFirst.length - 1; i >= 0; i--) {
    const h = historyNewestFirst[i]!;
    const plus = h.added.reduce((s, l) => s + countToken(l, token), 0);
    const minus = h.removed.reduce((s, l) => s + countToken(l, token), 0);
    const before = count;
    count = Math.max(0, count + plus - minus);
    if (before === 0 && count > 0 && !introducedIn) introducedIn = h.commit;
    if (before > 0 && count === 0)
      drop = { droppedIn: h.commit, removedLines: h.removed.filter((l) => countToken(l, token) > 0), introducedIn };
    if (count > 0) drop = null;
  }
  return drop;
}

/** Lines of `text` around the first line carrying the token, numbered, with `context` lines each side. */
export function contextAround(text: string, token: string, context = 3): { line: number; excerpt: string[] } | null {
  const lines = text.split("\n");
  const idx = lines.findIndex((l) => countToken(l, token) > 0);
  if (idx < 0) return null;
  const from = Math.max(0, idx - context);
  const to = Math.min(lines.length - 1, idx + context);
  const excerpt: string[] = [];
  for (let i = from; i <= to; i++) excerpt.push(`${i === idx ? ">" : " "}${String(i + 1).padStart(4)} | ${lines[i]}`);
  return { line: idx + 1, excerpt };
}
