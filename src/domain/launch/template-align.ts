// A rendered chart document mapped back, line by line, to the template that produced it. Helm's output keeps a
// template's literal lines and fills its `{{ }}` actions, and drops the branches not taken, so a rendered line is
// matched to a template line with the same text, or with the same text around its actions; the matches form one
// alignment in order (a longest common subsequence that prefers runs of adjacent lines, so of two copies of a block
// in if/else branches the one rendered whole wins), and a line a `range` writes again may match its template line
// again. Pure.

/** A template action: `{{ .Values.port }}`, `{{- include "x" . }}`. */
const ACTION = /\{\{-?[\s\S]*?-?\}\}/g;
/** Beyond this many cells the alignment is greedy (a rendered document times its template, in lines). */
const MAX_CELLS = 4_000_000;

/**
 * A template line with actions as a pattern for the lines it renders: its literal text in order, any text where an
 * action was. Null when the line has no action, or too little literal text of its own to say which line it is
 * (`- {{ .Values.model }}`, `{{ . | quote }} \`).
 */
export function templatePattern(source: string): RegExp | null {
  const t = source.trim();
  if (!t.includes("{{")) return null;
  const literal = t.split(ACTION);
  if (
    literal
      .join("")
      .replace(/^-\s/, "")
      .replace(/["'\s\\]/g, "").length < 2
  )
    return null;
  const body = literal.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*")).join(".*?");
  return new RegExp(`^${body}$`);
}

/** Only actions (`{{- if .Values.x }}`, `{{- end }}`, `{{- toYaml .Values.y | nindent 8 }}`): no literal line. */
const controlOnly = (source: string) => {
  const t = source.trim();
  return t.startsWith("{{") && t.replace(ACTION, "").trim() === "";
};

export interface TemplateAlignment {
  /** the template line a rendered line came from (an unmatched line: the last matched before it, else 1) */
  line(rendered: number): number;
  /** the rendered line matched a template line (false: filled in by an action, or written in another file) */
  matched(rendered: number): boolean;
}

/** One template line's matcher: its trimmed text, and its pattern when it has actions. */
export interface LineMatcher {
  text: string;
  pattern: RegExp | null;
  /** how much literal text the pattern holds: of two patterns that match, the longer says more */
  literal: number;
  /** the text as its value reads (plainLine) */
  plain: string;
}

export const lineMatcher = (source: string): LineMatcher => {
  // (`- --metrics # exposes /metrics`: YAML drops the comment, and so does what kubectl kustomize writes)
  const text = uncommented(source.trim());
  return { text, pattern: templatePattern(source), literal: text.replace(ACTION, "").length, plain: plainLine(text) };
};

/**
 * The line of `lines` (0-based, from `from` on) a rendered line came from: one with its very text first, else the
 * pattern with the most literal text; -1 for none.
 */
export function bestLine(renderedLine: string, lines: readonly string[], from = 0): number {
  const rendered = uncommented(renderedLine.trim());
  let best = -1;
  let score = 0;
  for (let j = from; j < lines.length; j++) {
    const m = lineMatcher(lines[j]!);
    if (!matchesLine(rendered, m)) continue;
    if (m.text === rendered) return j;
    if (m.literal > score) [best, score] = [j, m.literal];
  }
  return best;
}

/**
 * A YAML line as its value reads, whatever the quoting: `- '--port=8080'` and `- --port=8080` (kubectl kustomize
 * writes a scalar quoted only where YAML needs it), `key: "v"` and `key: v`.
 */
export function plainLine(line: string): string {
  const t = line.trim();
  const dash = /^-\s+/.exec(t)?.[0] ?? "";
  const rest = t.slice(dash.length);
  const kv = /^([\w./-]+:\s+)(["'])(.*)\2$/.exec(rest);
  const q = kv ? null : /^(["'])(.*)\1$/.exec(rest);
  return (dash ? "- " : "") + (kv ? kv[1]! + kv[3]! : q ? q[2]! : rest);
}

/** A YAML line without its trailing comment (a ` #` outside quotes); a line that is only a comment stays. */
export function uncommented(t: string): string {
  let quote = "";
  for (let i = 1; i < t.length; i++) {
    const c = t[i]!;
    if (quote) quote = c === quote ? "" : quote;
    else if (c === '"' || c === "'") quote = /[\s:\-[,{]/.test(t[i - 1]!) ? c : "";
    else if (c === "#" && /\s/.test(t[i - 1]!)) return t.slice(0, i).trimEnd();
  }
  return t;
}

/** A rendered line (trimmed) is this template line's. */
export function matchesLine(rendered: string, m: LineMatcher): boolean {
  if (rendered === "" || rendered === "-") return false;
  return rendered === m.text || (m.pattern?.test(rendered) ?? plainLine(rendered) === m.plain);
}

/** Aligns a rendered document's lines with a template's (1-based line numbers on both sides). */
export function alignTemplate(rendered: readonly string[], source: readonly string[]): TemplateAlignment {
  // (helm keeps a template's comments, kubectl kustomize drops them: compared without, on both sides)
  const r = rendered.map((l) => uncommented(l.trim()));
  // the template lines that write text of their own, with their 0-based index
  const cols = source.flatMap((l, j) => (controlOnly(l) ? [] : [{ j, m: lineMatcher(l), tpl: l.includes("{{") }]));
  const to = new Int32Array(r.length).fill(-1);
  if (r.length * cols.length <= MAX_CELLS) dynamic(r, cols, to);
  else greedy(r, cols, to);
  outOfOrder(r, cols, to);
  const line: number[] = [];
  let last = 1;
  for (let i = 0; i < r.length; i++) {
    if (to[i]! >= 0) last = to[i]! + 1;
    line[i + 1] = last;
  }
  return { line: (n) => line[n] ?? last, matched: (n) => (to[n - 1] ?? -1) >= 0 };
}

type Col = { j: number; m: LineMatcher; tpl: boolean };

/**
 * N[i][k]: the best score with rendered[0, i) and cols[0, k) used; M[i][k]: the same with rendered i-1 matched to
 * col k-1. A match scores 2, and 1 more right after the match of the line before on both sides; a templated line may
 * be matched again (a range) without giving up what came after it.
 */
function dynamic(r: readonly string[], cols: readonly Col[], to: Int32Array): void {
  const n = r.length;
  const m = cols.length;
  const w = m + 1;
  const NEG = -1 << 29;
  const N = new Int32Array((n + 1) * w);
  const M = new Int32Array((n + 1) * w).fill(NEG);
  for (let i = 1; i <= n; i++) {
    for (let k = 1; k <= m; k++) {
      const at = i * w + k;
      if (matchesLine(r[i - 1]!, cols[k - 1]!.m)) {
        let best = Math.max(M[at - w - 1]! + 3, N[at - w - 1]! + 2);
        if (cols[k - 1]!.tpl) best = Math.max(best, N[at - w]! + 2);
        M[at] = best;
      }
      N[at] = Math.max(N[at - w]!, N[at - 1]!, M[at]!);
    }
  }
  // back from the end: of equal scores, the earlier template line (a range's first copy, not an else branch's)
  let i = n;
  let k = m;
  let inMatch = false;
  while (i > 0 && k > 0) {
    const at = i * w + k;
    if (!inMatch) {
      if (N[at] === N[at - 1]) k--;
      else if (N[at] === N[at - w]) i--;
      else inMatch = true;
      continue;
    }
    to[i - 1] = cols[k - 1]!.j;
    const v = M[at]!;
    if (v === M[at - w - 1]! + 3) {
      i--;
      k--;
    } else if (v === N[at - w - 1]! + 2) {
      i--;
      k--;
      inMatch = false;
    } else {
      i--; // the same template line again
      inMatch = false;
    }
  }
}

/**
 * kubectl kustomize writes a resource's keys sorted (`livenessProbe:` before `ports:`): a key line the in-order
 * alignment left unmatched goes to the literal line of the source with its text (of several, the first after the line
 * its parent came from), along with the lines under it that match the lines under that one.
 */
function outOfOrder(r: readonly string[], cols: readonly Col[], to: Int32Array): void {
  const used = new Set(to);
  for (let i = 0; i < r.length; i++) {
    if (to[i]! >= 0 || !/^[\w.-]+:$/.test(r[i]!)) continue;
    const hits = cols.filter((c) => !c.tpl && c.m.text === r[i] && !used.has(c.j));
    // of several (`args:` of an init container and of the model), the first after the line its parent came from
    let before = -1;
    for (let x = i - 1; x >= 0 && before < 0; x--) before = to[x]!;
    const hit = hits.length === 1 ? hits[0] : hits.find((c) => c.j > before);
    if (!hit) continue;
    to[i] = hit.j;
    used.add(hit.j);
    // its block: each following unmatched line to the next source line after it with the same text
    let k = cols.indexOf(hit) + 1;
    for (let x = i + 1; x < r.length && to[x]! < 0 && k < cols.length; x++) {
      const c = cols.slice(k, k + 8).findIndex((col) => !col.tpl && matchesLine(r[x]!, col.m));
      if (c < 0) break;
      to[x] = cols[k + c]!.j;
      used.add(to[x]!);
      k += c + 1;
    }
  }
}

/** A very long document: each rendered line to the next template line that matches it, in order. */
function greedy(r: readonly string[], cols: readonly Col[], to: Int32Array): void {
  let k = 0;
  for (let i = 0; i < r.length; i++) {
    for (let c = k; c < cols.length; c++) {
      if (matchesLine(r[i]!, cols[c]!.m)) {
        to[i] = cols[c]!.j;
        k = c + 1;
        break;
      }
    }
  }
}
