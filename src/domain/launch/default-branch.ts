// Which of a script's alternative launches (the branches of one if or case) its defaults take: that one is the
// engine, not the one with the most flags. Read from the test or the case word and the value the script gives
// the variable when nobody passes it (`mode=${1:-cpu}`, `MODE=${MODE:-gpu}`). Pure.
import type { Engine } from "./model.js";

type Env = ReadonlyMap<string, string | null>;

/** `ranked` with the launch the defaults take moved first; unchanged when that cannot be worked out. */
export function defaultBranchFirst(ranked: Engine[], lines: readonly string[], firstLine: number, env: Env): Engine[] {
  if (ranked.length < 2) return ranked;
  const taken =
    caseTaken(ranked, lines, firstLine, env) ??
    ifTaken(ranked, lines, firstLine, env) ??
    exitTaken(ranked, lines, firstLine, env);
  return taken ? [taken, ...ranked.filter((e) => e !== taken)] : ranked;
}

const VAR = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/**
 * A test's word: a variable's default value, or a literal; undefined when the value is not known. `unsetEmpty`: a
 * variable the script never sets counts as empty (`[ -z "$API_KEY" ]` asks just that); elsewhere it stays unknown.
 */
function wordValue(word: string, env: Env, unsetEmpty = false): string | undefined {
  const bare = /^"(.*)"$|^'(.*)'$/.exec(word);
  const text = bare ? (bare[1] ?? bare[2]!) : word;
  // `${NAME:-default}` (a literal default, `${LLAMA_PARALLEL:-}` too): the writer says what unset means
  const d = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)-([^$`{}]*)\}$/.exec(text);
  if (d) {
    if (!env.has(d[1]!)) return d[3]!;
    const set = env.get(d[1]!);
    return set === null || set === undefined ? undefined : set === "" && d[2] ? d[3]! : set;
  }
  const v = VAR.exec(text);
  if (!v) return /[$`]/.test(text) ? undefined : text;
  if (unsetEmpty && !env.has(v[1]!)) return "";
  return env.get(v[1]!) ?? undefined;
}

/**
 * `[ A = B ]`, `[[ A == B ]]`, `[ A != B ]`, `[ -z A ]`, `[ -n A ]`, `test ...`: true/false, or null when unknown.
 * `unsetEmpty`: `-z`/`-n` on a variable the script never sets reads it as empty (else unknown).
 */
export function evalTest(cond: string, env: Env, unsetEmpty = true): boolean | null {
  // `[[ "$M" == *AWQ* ]] || [[ "$M" == *awq* ]]`: tests joined by || and && (left to right, as bash does)
  const body = cond.trim().replace(/\s*;?\s*then\s*$/, "");
  const parts = body.split(/\s+(\|\||&&)\s+(?=\[|test\s)/);
  if (parts.length > 1) {
    let acc = evalTest(parts[0]!, env, unsetEmpty);
    for (let i = 1; i + 1 < parts.length; i += 2) {
      const v = evalTest(parts[i + 1]!, env, unsetEmpty);
      acc = parts[i] === "||" ? (acc || v ? true : acc === false && v === false ? false : null) : and(acc, v);
    }
    return acc;
  }
  const m = /^(?:\[\[\s*(.*?)\s*\]\]|\[\s*(.*?)\s*\]|test\s+(.*?))\s*;?\s*(?:then)?\s*$/.exec(cond.trim());
  if (!m) return null;
  const words = (m[1] ?? m[2] ?? m[3]!).match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  if (words.length === 2 && (words[0] === "-z" || words[0] === "-n")) {
    const v = wordValue(words[1]!, env, unsetEmpty);
    return v === undefined ? null : (v === "") === (words[0] === "-z");
  }
  // the marker file a container engine writes into its containers (docker's /.dockerenv, podman's
  // /run/.containerenv): a script run from the repository runs on a host, where neither exists
  if (
    words.length === 2 &&
    /^-[ef]$/.test(words[0]!) &&
    /^["']?\/(\.dockerenv|run\/\.containerenv)["']?$/.test(words[1]!)
  )
    return false;
  if (words.length !== 3) return null;
  const [a, b] = [wordValue(words[0]!, env), wordValue(words[2]!, env)];
  if (a === undefined || b === undefined) return null;
  const numeric = NUMERIC[words[1]!];
  if (numeric) return /^-?\d+$/.test(a) && /^-?\d+$/.test(b) ? numeric(Number(a), Number(b)) : null;
  if (!["=", "==", "!="].includes(words[1]!)) return null;
  // inside [[ ]] the right side is a pattern: `[[ $extra == *"tool-call-parser"* ]]` (quoted parts literal)
  const glob = m[1] !== undefined && /^(?:[^"'*?]|"[^"]*"|'[^']*')*[*?]/.test(words[2]!) && !/[$[]/.test(words[2]!);
  const same = glob ? globRegex(words[2]!).test(a) : a === b;
  return same === (words[1] !== "!=");
}

// (a part that cannot be judged leaves an && chain unjudged: `[[ -n "$T" ]] && [[ -d "$T" ]]` keeps its branch's words
// as optional flags, as a single unjudged test does)
const and = (a: boolean | null, b: boolean | null) => (a === null || b === null ? null : a && b);

const NUMERIC: Record<string, (a: number, b: number) => boolean> = {
  "-eq": (a, b) => a === b,
  "-ne": (a, b) => a !== b,
  "-gt": (a, b) => a > b,
  "-lt": (a, b) => a < b,
  "-ge": (a, b) => a >= b,
  "-le": (a, b) => a <= b,
};

/** The truth of the `if TEST` whose branch holds a line, by the script's defaults, or null. */
function enclosingTest(index: number, lines: readonly string[], env: Env): boolean | null {
  const own = ownIf(index, lines);
  // an elif's test alone does not say whether its branch runs: the earlier branches' tests decide too
  return own === null || own.elif ? null : evalTest(own.test, env);
}

/** The `if`/`elif` whose branch holds line `index`: past the if-blocks opened and closed above it in that branch. */
function ownIf(index: number, lines: readonly string[]): { test: string; elif: boolean } | null {
  let depth = 0;
  for (let i = index - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (ONE_LINE_IF.test(l)) continue;
    if (/^\s*fi\b/.test(l)) depth++;
    const m = /^\s*(el)?if\s+(.*)$/.exec(l);
    if (!m) continue;
    if (depth === 0) return { test: m[2]!, elif: m[1] !== undefined };
    if (!m[1]) depth--;
  }
  return null;
}

/**
 * `if [[ "$mode" -eq 1 ]]; then ... launch A; exit 0; fi` then launch B: A runs when the test holds by default, B
 * when it does not.
 */
function exitTaken(ranked: Engine[], lines: readonly string[], firstLine: number, env: Env): Engine | null {
  const [a, b] = [...ranked.slice(0, 2)].sort((x, y) => x.command.line - y.command.line) as [Engine, Engine];
  const between = lines.slice(a.command.endLine - firstLine + 1, b.command.line - firstLine);
  const fi = between.findIndex((l) => /^\s*fi\b/.test(l));
  if (fi < 0 || !between.slice(0, fi).some((l) => /^\s*exit\b/.test(l))) return null;
  if (between.slice(0, fi).some((l) => /^\s*(else|elif)\b/.test(l))) return null;
  const holds = enclosingTest(a.command.line - firstLine, lines, env);
  return holds === null ? null : holds ? a : b;
}

/** Two launches in the if and else branches of one `if TEST; then ... else ... fi`. */
function ifTaken(ranked: Engine[], lines: readonly string[], firstLine: number, env: Env): Engine | null {
  const [a, b] = [...ranked.slice(0, 2)].sort((x, y) => x.command.line - y.command.line) as [Engine, Engine];
  const between = lines.slice(a.command.endLine - firstLine + 1, b.command.line - firstLine);
  // the `else` of a's own if: one at depth 0 (a nested if-block between them, `if curl ...; then ... fi`, is skipped)
  let open = 0;
  let otherwise = false;
  for (const l of between) {
    if (ONE_LINE_IF.test(l)) continue;
    if (/^\s*if\b/.test(l)) open++;
    else if (/^\s*fi\b/.test(l)) open--;
    else if (open === 0 && /^\s*else\s*$/.test(l)) otherwise = true;
    if (open < 0) return null;
  }
  if (!otherwise) return null;
  const holds = enclosingTest(a.command.line - firstLine, lines, env);
  return holds === null ? null : holds ? a : b;
}

const ONE_LINE_IF = /^\s*if\b.*;\s*fi\s*$/;

const PATTERN = `(?:"[^"]*"|'[^']*'|[^\\s()|"';$]+)`;
const LABEL = new RegExp(`^\\s*\\(?\\s*(${PATTERN}(?:\\s*\\|\\s*${PATTERN})*)\\s*\\)`);
const CASE = /^\s*case\s+("?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"?)\s+in\b/;

/** The case branch a launch is in: the case's line, its word's value, the branch's patterns. */
function branchOf(e: Engine, lines: readonly string[], firstLine: number, env: Env) {
  let patterns: string[] | null = null;
  let label = -1;
  for (let i = e.command.line - firstLine; i >= 0; i--) {
    const l = lines[i]!;
    // a case closed (or a branch ended) above the launch before its own label: not this launch's case
    if (patterns === null && i < e.command.line - firstLine && (/^\s*esac\b/.test(l) || /;;\s*$/.test(l))) return null;
    const c = CASE.exec(l);
    if (c) return patterns ? { caseLine: i, value: wordValue(c[1]!, env), patterns, label } : null;
    if (patterns !== null) {
      if (/^\s*esac\b/.test(l)) return null;
      continue;
    }
    const m = LABEL.exec(l);
    if (m) {
      patterns = m[1]!.split("|").map((p) => p.trim());
      label = i;
    }
  }
  return null;
}

/** A case pattern as a regular expression: quoted parts literal, *, ? and [...] as the shell reads them. */
export function globRegex(pattern: string): RegExp {
  const parts = pattern.match(/"[^"]*"|'[^']*'|[^"']+/g) ?? [];
  const body = parts.map((p) => (/^["']/.test(p) ? escapeRegex(p.slice(1, -1)) : globPart(p))).join("");
  return new RegExp(`^${body}$`);
}

const escapeRegex = (t: string) => t.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** An unquoted piece of a pattern; a `[` with no closing `]` is a literal bracket (bash matches it so). */
function globPart(p: string): string {
  let out = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "\\" && i + 1 < p.length) out += escapeRegex(p[++i]!);
    else if (c === "[") {
      // (a `]` right after `[` or `[!` is a member, not the end)
      let j = i + 1 + (p[i + 1] === "!" || p[i + 1] === "^" ? 1 : 0);
      if (p[j] === "]") j++;
      const end = p.indexOf("]", j);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      const negate = p[i + 1] === "!" || p[i + 1] === "^";
      const members = p.slice(i + 1 + (negate ? 1 : 0), end).replace(/[\\\]^[]/g, "\\$&");
      out += `[${negate ? "^" : ""}${members}]`;
      i = end;
    } else out += escapeRegex(c);
  }
  return out;
}

/** Launches in the branches of one `case "$X" in`: the first branch whose pattern X's default matches. */
function caseTaken(ranked: Engine[], lines: readonly string[], firstLine: number, env: Env): Engine | null {
  const branches = ranked.flatMap((e) => {
    const b = branchOf(e, lines, firstLine, env);
    return b ? [{ e, ...b }] : [];
  });
  const first = branches[0];
  if (!first || first.value === undefined) return null;
  const same = branches.filter((b) => b.caseLine === first.caseLine).sort((x, y) => x.label - y.label);
  if (same.length < 2) return null;
  const matches = (patterns: string[]) => patterns.some((p) => globRegex(p).test(first.value!));
  const matching = same.find((b) => matches(b.patterns));
  if (!matching) return null;
  // an earlier branch that starts no engine (a usage line, an error) takes the value first: no launch is taken
  for (let i = first.caseLine + 1; i < matching.label; i++) {
    const m = LABEL.exec(lines[i]!);
    if (m && !same.some((b) => b.label === i) && matches(m[1]!.split("|").map((p) => p.trim()))) return null;
  }
  return matching.e;
}
