// Scoring the corpus run: matching emitted findings to the answer key, and the figures. Pure.
import type { DropCase, ExpectedFile, ExpectedFinding } from "./expected.js";
import { shouldDiscover } from "./expected.js";

/** The checks precision and recall are measured on (shellcheck is advisory and excluded). */
export const SCORED_CHECKS = new Set(["preflight.traps", "preflight.bash-syntax"]);

export interface Emitted {
  check: string;
  status: string;
  rule?: string;
  line?: number;
  summary: string;
}

export interface FileRun {
  file: string;
  expected: ExpectedFile;
  /** scored findings (fail/warn of SCORED_CHECKS) attached to this file */
  emitted: Emitted[];
  discovered: boolean;
  /** engine flag names the parser found; null when the parser cannot be reached for this kind */
  parsedFlags: string[] | null;
}

export interface DropRun {
  drop: DropCase;
  /** the sha of the commit that removed the text */
  dropSha: string;
  /** droppedIn of the contract finding for the flag, null when none traced */
  tracedTo: string | null;
  /** whether the contract check failed for the flag at all */
  contractBroken: boolean;
  /** whether preflight.dropped-flags reported the flag (fail or warn) */
  droppedReported: boolean;
}

export interface Match {
  truePositives: Emitted[];
  falsePositives: Emitted[];
  misses: ExpectedFinding[];
}

const key = (check: string, rule: string | undefined, line: number | undefined) =>
  `${check}|${rule ?? ""}|${line ?? "?"}`;

/** One-to-one: each expected finding absorbs at most one emitted finding with the same check, rule and line. */
export function matchFindings(expected: readonly ExpectedFinding[], emitted: readonly Emitted[]): Match {
  const open = new Map<string, number>();
  for (const e of expected) open.set(key(e.check, e.rule, e.line), (open.get(key(e.check, e.rule, e.line)) ?? 0) + 1);
  const truePositives: Emitted[] = [];
  const falsePositives: Emitted[] = [];
  for (const f of emitted) {
    const k = key(f.check, f.rule, f.line);
    const n = open.get(k) ?? 0;
    if (n > 0) {
      open.set(k, n - 1);
      truePositives.push(f);
    } else falsePositives.push(f);
  }
  const misses = expected.filter((e) => {
    const k = key(e.check, e.rule, e.line);
    const n = open.get(k) ?? 0;
    if (n === 0) return false;
    open.set(k, n - 1);
    return true;
  });
  return { truePositives, falsePositives, misses };
}

/** vLLM's argparse reads --max_model_len and --max-model-len as one flag. */
export const normalizeName = (name: string) =>
  name.replace(/^(--?)(.*)$/, (_, dashes: string, rest: string) => dashes + rest.replace(/_/g, "-"));

/** The expected flags the parsed argv lacks (all of them when the parser is not reachable). */
export function missingFlags(expected: readonly string[], parsed: readonly string[] | null): string[] {
  if (parsed === null) return [...expected];
  const got = new Set(parsed.map(normalizeName));
  return expected.filter((f) => !got.has(normalizeName(f)));
}

export const flagsFound = (expected: readonly string[], parsed: readonly string[] | null) =>
  parsed !== null && missingFlags(expected, parsed).length === 0;

export function dropCorrect(r: DropRun): boolean {
  if (r.drop.expectDropped) return r.tracedTo === r.dropSha && r.droppedReported;
  return !r.contractBroken && !r.droppedReported;
}

export interface Ratio {
  hit: number;
  of: number;
}
export const ratio = (r: Ratio) => (r.of === 0 ? 1 : r.hit / r.of);

export interface Figures {
  precision: Ratio;
  recall: Ratio;
  discovery: Ratio;
  wronglyDiscovered: string[];
  undiscovered: string[];
  flagParse: Ratio;
  flagParseUnreachable: string[];
  /** reachable fixtures whose parsed argv lacks expected flags, with the flags it lacks */
  flagParseMisses: { file: string; missing: string[] }[];
  drops: Ratio;
  perFile: { file: string; falsePositives: Emitted[]; misses: ExpectedFinding[] }[];
  dropFailures: DropRun[];
}

export function scoreCorpus(files: readonly FileRun[], drops: readonly DropRun[]): Figures {
  let tp = 0;
  let emitted = 0;
  let expectedCount = 0;
  const perFile: Figures["perFile"] = [];
  for (const f of files) {
    const m = matchFindings(f.expected.expect, f.emitted);
    tp += m.truePositives.length;
    emitted += f.emitted.length;
    expectedCount += f.expected.expect.length;
    if (m.falsePositives.length || m.misses.length)
      perFile.push({ file: f.file, falsePositives: m.falsePositives, misses: m.misses });
  }
  const serving = files.filter((f) => shouldDiscover(f.expected));
  const withFlags = files.filter((f) => f.expected.serves && f.expected.flags.length > 0);
  return {
    precision: { hit: tp, of: emitted },
    recall: { hit: tp, of: expectedCount },
    discovery: { hit: serving.filter((f) => f.discovered).length, of: serving.length },
    wronglyDiscovered: files.filter((f) => f.discovered && !shouldDiscover(f.expected)).map((f) => f.file),
    undiscovered: serving.filter((f) => !f.discovered).map((f) => f.file),
    flagParse: {
      hit: withFlags.filter((f) => flagsFound(f.expected.flags, f.parsedFlags)).length,
      of: withFlags.length,
    },
    flagParseUnreachable: withFlags.filter((f) => f.parsedFlags === null).map((f) => f.file),
    flagParseMisses: withFlags
      .filter((f) => f.parsedFlags !== null && !flagsFound(f.expected.flags, f.parsedFlags))
      .map((f) => ({ file: f.file, missing: missingFlags(f.expected.flags, f.parsedFlags) })),
    drops: { hit: drops.filter(dropCorrect).length, of: drops.length },
    perFile,
    dropFailures: drops.filter((d) => !dropCorrect(d)),
  };
}

/** The issue's targets: precision >= 0.9, every expected finding, exact discovery, every drop traced. */
export function targetsMet(f: Figures): boolean {
  return (
    ratio(f.precision) >= 0.9 &&
    f.recall.hit === f.recall.of &&
    f.discovery.hit === f.discovery.of &&
    f.wronglyDiscovered.length === 0 &&
    f.drops.hit === f.drops.of
  );
}

const pct = (r: Ratio) => `${(ratio(r) * 100).toFixed(1)}% (${r.hit}/${r.of})`;
const show = (e: { check: string; rule?: string; line?: number }) =>
  `${e.check.replace("preflight.", "")}${e.rule ? `:${e.rule}` : ""}@${e.line ?? "?"}`;

export function renderFigures(f: Figures, fileCount: number): string {
  const out = [
    `| measure | value | target |`,
    `|---|---|---|`,
    `| precision (traps + bash-syntax, fail/warn) | ${pct(f.precision)} | >= 90% |`,
    `| recall (expected findings raised) | ${pct(f.recall)} | 100% |`,
    `| discovery (serving files found) | ${pct(f.discovery)} | 100% |`,
    `| non-serving files discovered | ${f.wronglyDiscovered.length} | 0 |`,
    `| flag parse (all expected engine flags found) | ${pct(f.flagParse)} | 100% |`,
    `| drop trace (drops traced to their commit, renames silent) | ${pct(f.drops)} | 100% |`,
    `fixtures: ${fileCount}`,
  ];
  if (f.undiscovered.length) out.push(`not discovered: ${f.undiscovered.join(", ")}`);
  if (f.wronglyDiscovered.length) out.push(`wrongly discovered: ${f.wronglyDiscovered.join(", ")}`);
  if (f.flagParseUnreachable.length)
    out.push(`flag parse not reachable (TODO i10: engine model for these kinds): ${f.flagParseUnreachable.join(", ")}`);
  if (f.flagParseMisses.length)
    out.push(`flag parse misses: ${f.flagParseMisses.map((m) => `${m.file} (${m.missing.join(" ")})`).join(", ")}`);
  if (f.perFile.length) {
    out.push("", "| fixture | false positives | misses |", "|---|---|---|");
    for (const p of f.perFile)
      out.push(
        `| ${p.file} | ${p.falsePositives.map(show).join(", ") || "-"} | ${p.misses.map(show).join(", ") || "-"} |`,
      );
  }
  if (f.dropFailures.length) {
    out.push(
      "",
      "| drop case | form | expected | contract traced to | dropped-flags reported |",
      "|---|---|---|---|---|",
    );
    for (const d of f.dropFailures) {
      out.push(
        `| ${d.drop.file} ${d.drop.contract} | ${d.drop.form} | ${d.drop.expectDropped ? `dropped in ${d.dropSha.slice(0, 10)}` : "nothing (rename)"} | ${d.tracedTo?.slice(0, 10) ?? (d.contractBroken ? "broken, untraced" : "-")} | ${d.droppedReported ? "yes" : "no"} |`,
      );
    }
  }
  return out.join("\n");
}
