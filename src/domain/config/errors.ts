// Turns zod issues into "file:line: key: what is expected" lines by finding each issue's node in
// the YAML document. Pure: takes the parsed document, returns strings.
import { isMap, isPair, isScalar, type Document, type LineCounter, type Node } from "yaml";
import type * as z from "zod";
import { isAbsolute, relative } from "node:path";
import { closest } from "../../lib/did-you-mean.js";

export interface ConfigProblem {
  line: number | null;
  path: string;
  message: string;
}

const renderProblems = (file: string, problems: readonly ConfigProblem[]) =>
  problems.map((p) => `${file}${p.line ? `:${p.line}` : ""}: ${p.path ? `${p.path}: ` : ""}${p.message}`).join("\n");

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(renderProblems(file, problems));
    this.name = "ConfigError";
  }

  /** The problems with the file named from cwd (absolute when that would climb more than two levels). */
  render(cwd: string): string {
    const rel = isAbsolute(this.file) ? relative(cwd, this.file) : this.file;
    return renderProblems(rel && !rel.startsWith("../../../") && !isAbsolute(rel) ? rel : this.file, this.problems);
  }
}

function lineOf(node: Node | null | undefined, lc: LineCounter): number | null {
  const start = node?.range?.[0];
  return start === undefined ? null : lc.linePos(start).line;
}

/** The key node of `key` inside the map at `path`, for pointing at a mistyped key itself. */
function keyNode(doc: Document, path: PropertyKey[], key: string): Node | null {
  const parent = path.length ? doc.getIn(path as unknown[], true) : doc.contents;
  if (!isMap(parent)) return null;
  for (const item of parent.items) {
    if (isPair(item) && isScalar(item.key) && String(item.key.value) === key) return item.key;
  }
  return null;
}

function valueNode(doc: Document, path: PropertyKey[]): Node | null {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
    if (node && typeof node === "object" && "range" in node) {
      // For a missing key, point at the key of its parent pair when possible.
      if (n < path.length && n > 0) return keyNode(doc, path.slice(0, n - 1), String(path[n - 1])) ?? (node as Node);
      return node as Node;
    }
  }
  return null;
}

const fmtPath = (path: PropertyKey[]) => path.map(String).join(".");

/** How a found value reads in a message: the value itself for a scalar, its kind otherwise. */
export function foundText(input: unknown): string {
  if (input === null) return "an empty value";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  if (typeof input === "string")
    return `${JSON.stringify(input.length > 60 ? `${input.slice(0, 57)}...` : input)} (text)`;
  return `${String(input)} (a ${typeof input === "number" ? "number" : typeof input})`;
}

const ARTICLE: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  nan: "a number",
};

function typeMessage(issue: z.core.$ZodIssueInvalidType): string {
  const expected = ARTICLE[issue.expected] ?? issue.expected;
  return `expected ${expected}, found ${foundText(issue.input)}`;
}

/** zod's message without its "Invalid input: " prefix, with the value found where it helps. */
function plainMessage(issue: z.core.$ZodIssue): string {
  const msg = issue.message.replace(/^Invalid input: /, "").replace(/^Invalid option: /, "");
  return "input" in issue && issue.input !== undefined ? `${msg}; found ${foundText(issue.input)}` : msg;
}

export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  doc: Document,
  lc: LineCounter,
  known: (path: PropertyKey[]) => string[],
): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  /** the paths of required keys found missing, and the unknown keys' guesses, to pair a typo with its key */
  const missingAt = new Map<string, ConfigProblem>();
  const guesses: { path: string; guess: string; problem: ConfigProblem }[] = [];
  const unknownKey = (path: PropertyKey[], key: string) => {
    const allowed = known(path);
    const guess = closest(key, allowed);
    const problem = {
      line: lineOf(keyNode(doc, path, key), lc),
      path: fmtPath([...path, key]),
      message: `unknown key "${key}"${guess ? `: did you mean "${guess}"?` : ""} Allowed here: ${allowed.join(", ")}.`,
    };
    out.push(problem);
    if (guess) guesses.push({ path: fmtPath([...path, guess]), guess, problem });
  };
  for (const issue of issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) unknownKey(path, key);
      continue;
    }
    // A key a record does not allow (a trap rule id): the same "did you mean" as a strict object's. A record
    // that only constrains the key's form (an endpoint name) has nothing to list: its own message says it.
    if (issue.code === "invalid_key" && path.length && known(path.slice(0, -1)).length > 0) {
      unknownKey(path.slice(0, -1), String(path[path.length - 1]));
      continue;
    }
    if (issue.code === "invalid_key") {
      const why = (issue as { issues?: { message?: string }[] }).issues?.[0]?.message ?? "not a valid key";
      out.push({
        line: lineOf(keyNode(doc, path.slice(0, -1), String(path[path.length - 1])), lc),
        path: fmtPath(path),
        message: `${why}; found "${String(path[path.length - 1])}": rename it`,
      });
      continue;
    }
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    const problem: ConfigProblem = {
      line: lineOf(valueNode(doc, path), lc),
      path: fmtPath(path),
      message: missing
        ? `required key is missing (expected ${ARTICLE[(issue as z.core.$ZodIssueInvalidType).expected] ?? "a value"})`
        : issue.code === "invalid_type"
          ? typeMessage(issue)
          : plainMessage(issue),
    };
    out.push(problem);
    if (missing) missingAt.set(problem.path, problem);
  }
  // A misspelt required key is one mistake: the typo, said where it is, not also the key it displaced.
  for (const g of guesses) {
    const displaced = missingAt.get(g.path);
    if (!displaced) continue;
    out.splice(out.indexOf(displaced), 1);
    g.problem.message = g.problem.message.replace(`did you mean "${g.guess}"?`, `$& (it is required, and missing)`);
  }
  // In the order a reader meets them in the file; problems without a line last.
  return out
    .map((p, i) => ({ p, i }))
    .sort((a, b) => (a.p.line ?? Infinity) - (b.p.line ?? Infinity) || a.i - b.i)
    .map(({ p }) => p);
}
