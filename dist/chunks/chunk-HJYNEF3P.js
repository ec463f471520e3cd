#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  require_dist
} from "./chunk-SDA2ORHP.js";
import {
  __toESM,
  closest
} from "./chunk-ZMUO5JYW.js";

// src/domain/config/errors.ts
var import_yaml = __toESM(require_dist(), 1);
import { isAbsolute, relative } from "node:path";
var renderProblems = (file, problems) => problems.map((p) => `${file}${p.line ? `:${p.line}` : ""}: ${p.path ? `${p.path}: ` : ""}${p.message}`).join("\n");
var ConfigError = class extends Error {
  constructor(file, problems) {
    super(renderProblems(file, problems));
    this.file = file;
    this.problems = problems;
    this.name = "ConfigError";
  }
  file;
  problems;
  /** The problems with the file named from cwd (absolute when that would climb more than two levels). */
  render(cwd) {
    const rel = isAbsolute(this.file) ? relative(cwd, this.file) : this.file;
    return renderProblems(rel && !rel.startsWith("../../../") && !isAbsolute(rel) ? rel : this.file, this.problems);
  }
};
function lineOf(node, lc) {
  const start = node?.range?.[0];
  return start === void 0 ? null : lc.linePos(start).line;
}
function keyNode(doc, path, key) {
  const parent = path.length ? doc.getIn(path, true) : doc.contents;
  if (!(0, import_yaml.isMap)(parent)) return null;
  for (const item of parent.items) {
    if ((0, import_yaml.isPair)(item) && (0, import_yaml.isScalar)(item.key) && String(item.key.value) === key) return item.key;
  }
  return null;
}
function valueNode(doc, path) {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (node && typeof node === "object" && "range" in node) {
      if (n < path.length && n > 0) return keyNode(doc, path.slice(0, n - 1), String(path[n - 1])) ?? node;
      return node;
    }
  }
  return null;
}
var fmtPath = (path) => path.map(String).join(".");
function foundText(input) {
  if (input === null) return "an empty value";
  if (Array.isArray(input)) return "a list";
  if (typeof input === "object") return "a mapping";
  if (typeof input === "string")
    return `${JSON.stringify(input.length > 60 ? `${input.slice(0, 57)}...` : input)} (text)`;
  return `${String(input)} (a ${typeof input === "number" ? "number" : typeof input})`;
}
var ARTICLE = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a mapping",
  array: "a list",
  nan: "a number"
};
function typeMessage(issue) {
  const expected = ARTICLE[issue.expected] ?? issue.expected;
  return `expected ${expected}, found ${foundText(issue.input)}`;
}
function plainMessage(issue) {
  const msg = issue.message.replace(/^Invalid input: /, "").replace(/^Invalid option: /, "");
  return "input" in issue && issue.input !== void 0 ? `${msg}; found ${foundText(issue.input)}` : msg;
}
function describeIssues(issues, doc, lc, known) {
  const out = [];
  const missingAt = /* @__PURE__ */ new Map();
  const guesses = [];
  const unknownKey = (path, key) => {
    const allowed = known(path);
    const guess = closest(key, allowed);
    const problem = {
      line: lineOf(keyNode(doc, path, key), lc),
      path: fmtPath([...path, key]),
      message: `unknown key "${key}"${guess ? `: did you mean "${guess}"?` : ""} Allowed here: ${allowed.join(", ")}.`
    };
    out.push(problem);
    if (guess) guesses.push({ path: fmtPath([...path, guess]), guess, problem });
  };
  for (const issue of issues) {
    const path = issue.path;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) unknownKey(path, key);
      continue;
    }
    if (issue.code === "invalid_key" && path.length && known(path.slice(0, -1)).length > 0) {
      unknownKey(path.slice(0, -1), String(path[path.length - 1]));
      continue;
    }
    if (issue.code === "invalid_key") {
      const why = issue.issues?.[0]?.message ?? "not a valid key";
      out.push({
        line: lineOf(keyNode(doc, path.slice(0, -1), String(path[path.length - 1])), lc),
        path: fmtPath(path),
        message: `${why}; found "${String(path[path.length - 1])}": rename it`
      });
      continue;
    }
    const missing = issue.code === "invalid_type" && issue.input === void 0;
    const problem = {
      line: lineOf(valueNode(doc, path), lc),
      path: fmtPath(path),
      message: missing ? `required key is missing (expected ${ARTICLE[issue.expected] ?? "a value"})` : issue.code === "invalid_type" ? typeMessage(issue) : plainMessage(issue)
    };
    out.push(problem);
    if (missing) missingAt.set(problem.path, problem);
  }
  for (const g of guesses) {
    const displaced = missingAt.get(g.path);
    if (!displaced) continue;
    out.splice(out.indexOf(displaced), 1);
    g.problem.message = g.problem.message.replace(`did you mean "${g.guess}"?`, `$& (it is required, and missing)`);
  }
  return out.map((p, i) => ({ p, i })).sort((a, b) => (a.p.line ?? Infinity) - (b.p.line ?? Infinity) || a.i - b.i).map(({ p }) => p);
}

export {
  ConfigError,
  foundText,
  describeIssues
};
