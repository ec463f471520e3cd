// Scoring preflight on real files against the field key: discovery, flags per target, findings by kind, drops.
// Pure: the runner gathers what preflight did; this file only compares.
import { normalizeFlagName } from "../../src/domain/launch/contract.js";
import type { FieldDrop, FieldFile, FieldFinding } from "./key.js";
import type { Finding } from "../../src/domain/report/finding.js";

/** What preflight did with one key entry. */
export interface EntryRun {
  name: string;
  file: FieldFile;
  discovered: boolean;
  /**
   * preflight's only word on the entry is that its chart or overlay did not render (no target read): the key's
   * renderFailure convention (serves false, no target) says the same, so it is neither found nor wrongly found
   */
  unrendered?: boolean;
  /** fail/warn findings with a rule (preflight.traps) or bash -n failures, file relative to the entry */
  emitted: { check: string; rule?: string; line?: number; file?: string; summary: string }[];
  /** the engine launches the launch model read, each with its flags (file relative to the entry for charts) */
  /** `file`: the target's file within the entry (a chart's template, an overlay's manifest), when it has one */
  targets: { name: string | null; file?: string; flags: { flag: string; line: number; file?: string }[] }[];
}

export interface DropRun {
  drop: FieldDrop;
  /** the dropped-flags finding about the flag, with the base line it names; null when none */
  reported: { baseLine: number | null; status: string } | null;
  error?: string;
}

export interface Ratio {
  hit: number;
  of: number;
}
export const pct = (r: Ratio) =>
  r.of === 0 ? "n/a (0/0)" : `${((100 * r.hit) / r.of).toFixed(1)}% (${r.hit}/${r.of})`;

export interface KindFigures {
  files: number;
  precision: Ratio;
  recall: Ratio;
  flagsFound: Ratio;
  flagsAtLine: Ratio;
  targets: Ratio;
}

export interface FieldFigures {
  discovery: Ratio;
  undiscovered: string[];
  wronglyDiscovered: string[];
  /** entries preflight reported as a chart or overlay that did not render, or a file it could not read: no target */
  unrendered: string[];
  byKind: Record<string, KindFigures>;
  total: KindFigures;
  falsePositives: { entry: string; finding: string }[];
  misses: { entry: string; finding: string }[];
  flagMisses: { entry: string; target: string; flags: string[] }[];
  drops: Ratio;
  dropFailures: { drop: FieldDrop; why: string }[];
}

const fkey = (check: string, rule: string | undefined, line: number | undefined, file: string | undefined) =>
  `${check}|${rule ?? ""}|${line ?? "?"}|${file ?? ""}`;
const show = (f: { check: string; rule?: string; line?: number; file?: string }) =>
  `${f.rule ?? f.check.replace("preflight.", "")}@${f.file ? `${f.file}:` : ""}${f.line ?? "?"}`;

/** One-to-one matching of emitted findings against the expected ones; tolerated findings count neither way. */
export function matchEntry(run: EntryRun): { tp: number; fp: EntryRun["emitted"]; misses: FieldFinding[] } {
  const open = new Map<string, number>();
  const add = (k: string) => open.set(k, (open.get(k) ?? 0) + 1);
  for (const e of run.file.expect) add(fkey(e.check, e.rule, e.line, e.file));
  // a tolerated rule without a line is tolerated wherever the file reports it
  const tolerated = new Set((run.file.tolerate ?? []).map((t) => `${t.rule}|${t.line ?? "*"}`));
  let tp = 0;
  const fp: EntryRun["emitted"] = [];
  for (const f of run.emitted) {
    const k = fkey(f.check, f.rule, f.line, f.file);
    const loose = fkey(f.check, f.rule, f.line, undefined);
    const hit = (open.get(k) ?? 0) > 0 ? k : (open.get(loose) ?? 0) > 0 ? loose : null;
    if (hit) {
      open.set(hit, open.get(hit)! - 1);
      tp++;
    } else if (!tolerated.has(`${f.rule}|${f.line}`) && !tolerated.has(`${f.rule}|*`)) fp.push(f);
  }
  const misses = run.file.expect.filter((e) => {
    const k = fkey(e.check, e.rule, e.line, e.file);
    const n = open.get(k) ?? 0;
    if (n === 0) return false;
    open.set(k, n - 1);
    return true;
  });
  return { tp, fp, misses };
}

/** Expected targets matched to the read ones: by name (a Kubernetes part's last segment), else in order. */
export function matchTargets(
  run: EntryRun,
): { expected: NonNullable<FieldFile["targets"]>[number]; got: EntryRun["targets"][number] | null }[] {
  const left = [...run.targets];
  const short = (n: string | null) => (n === null ? null : n.split("/").at(-1)!);
  const expected = run.file.targets ?? [];
  const byName = expected.map((e) => {
    // of two containers of one name in an entry (a chart's two copies of a manifest), the one in the key's file
    const inFile = e.file ? left.findIndex((g) => short(g.name) === e.name && g.file === e.file) : -1;
    const i = e.name === null ? -1 : inFile >= 0 ? inFile : left.findIndex((g) => short(g.name) === e.name);
    return i < 0 ? null : left.splice(i, 1)[0]!;
  });
  return expected.map((e, i) => ({ expected: e, got: byName[i] ?? left.shift() ?? null }));
}

const norm = (f: string) => normalizeFlagName(f.replace(/=.*$/, ""));

function emptyKind(): KindFigures {
  const z = () => ({ hit: 0, of: 0 });
  return { files: 0, precision: z(), recall: z(), flagsFound: z(), flagsAtLine: z(), targets: z() };
}

function addKind(into: KindFigures, from: KindFigures) {
  into.files += from.files;
  for (const k of ["precision", "recall", "flagsFound", "flagsAtLine", "targets"] as const) {
    into[k].hit += from[k].hit;
    into[k].of += from[k].of;
  }
}

/**
 * The dropped-flags report of a drop: a file with several parts (compose services) reports the flag once per part
 * that dropped it, so the one at the drop's parent line is taken, else the first (judged at its wrong line).
 */
export function dropHit(findings: readonly Finding[], drop: FieldDrop): Finding | undefined {
  const want = normalizeFlagName(drop.flag);
  const hits = findings.filter(
    (f) =>
      f.check === "preflight.dropped-flags" &&
      (f.status === "fail" || f.status === "warn") &&
      (f.file === drop.path || f.data?.flagFile === drop.path) &&
      typeof f.data?.flag === "string" &&
      normalizeFlagName(f.data.flag) === want,
  );
  return hits.find((f) => f.data?.baseLine === drop.parentLine) ?? hits[0];
}

/** A drop is right when the flag is reported at its parent line; a respelling is right when nothing is reported. */
export function dropVerdict(r: DropRun): string | null {
  if (r.error) return r.error;
  if (r.drop.renamedTo !== null)
    return r.reported ? `respelt as ${r.drop.renamedTo}: no drop, yet dropped-flags reported it` : null;
  if (!r.reported) return "not reported by dropped-flags";
  if (r.reported.baseLine !== r.drop.parentLine)
    return `reported at base line ${r.reported.baseLine ?? "?"}, the flag is on line ${r.drop.parentLine}`;
  return null;
}

export function scoreField(runs: readonly EntryRun[], drops: readonly DropRun[]): FieldFigures {
  const byKind: Record<string, KindFigures> = {};
  const falsePositives: FieldFigures["falsePositives"] = [];
  const misses: FieldFigures["misses"] = [];
  const flagMisses: FieldFigures["flagMisses"] = [];
  for (const run of runs) {
    const k = (byKind[run.file.kind] ??= emptyKind());
    k.files++;
    const m = matchEntry(run);
    k.precision.hit += m.tp;
    k.precision.of += m.tp + m.fp.length;
    k.recall.hit += m.tp;
    k.recall.of += run.file.expect.length;
    for (const f of m.fp) falsePositives.push({ entry: run.name, finding: `${show(f)} ${f.summary.slice(0, 100)}` });
    for (const f of m.misses) misses.push({ entry: run.name, finding: show(f) });
    for (const { expected, got } of matchTargets(run)) {
      k.targets.of++;
      if (got) k.targets.hit++;
      const lost: string[] = [];
      for (const f of expected.flags) {
        k.flagsFound.of++;
        k.flagsAtLine.of++;
        const same = (got?.flags ?? []).filter((g) => norm(g.flag) === norm(f.flag));
        if (same.length) k.flagsFound.hit++;
        if (same.some((g) => g.line === f.line && (!f.file || !g.file || g.file === f.file))) k.flagsAtLine.hit++;
        else lost.push(same.length ? `${f.flag}@${f.line} (read at ${same.map((g) => g.line).join(",")})` : f.flag);
      }
      if (lost.length) flagMisses.push({ entry: run.name, target: expected.name ?? "-", flags: lost });
    }
  }
  const total = emptyKind();
  for (const k of Object.values(byKind)) addKind(total, k);
  const serving = runs.filter((r) => r.file.serves);
  const dropFailures = drops.flatMap((d) => {
    const why = dropVerdict(d);
    return why ? [{ drop: d.drop, why }] : [];
  });
  return {
    discovery: { hit: serving.filter((r) => r.discovered).length, of: serving.length },
    undiscovered: serving.filter((r) => !r.discovered).map((r) => r.name),
    wronglyDiscovered: runs.filter((r) => r.discovered && !r.file.serves).map((r) => r.name),
    unrendered: runs.filter((r) => r.unrendered && !r.discovered).map((r) => r.name),
    byKind,
    total,
    falsePositives,
    misses,
    flagMisses,
    drops: { hit: drops.length - dropFailures.length, of: drops.length },
    dropFailures,
  };
}

export function renderField(f: FieldFigures): string {
  const out = [
    "| kind | files | findings precision | findings recall | targets read | flags found | flags at their line |",
    "|---|---|---|---|---|---|---|",
  ];
  const row = (name: string, k: KindFigures) =>
    `| ${name} | ${k.files} | ${pct(k.precision)} | ${pct(k.recall)} | ${pct(k.targets)} | ${pct(k.flagsFound)} | ${pct(k.flagsAtLine)} |`;
  for (const [name, k] of Object.entries(f.byKind).sort()) out.push(row(name, k));
  out.push(row("**all**", f.total));
  out.push(
    "",
    `discovery: ${pct(f.discovery)} of serving files; wrongly discovered: ${f.wronglyDiscovered.length}`,
    `drops traced to their commit and line: ${pct(f.drops)}`,
  );
  if (f.undiscovered.length) out.push(`not discovered: ${f.undiscovered.join(", ")}`);
  if (f.wronglyDiscovered.length) out.push(`wrongly discovered: ${f.wronglyDiscovered.join(", ")}`);
  if (f.unrendered.length)
    out.push(`reported as unreadable or not rendering, no target read: ${f.unrendered.join(", ")}`);
  if (f.falsePositives.length)
    out.push("", "false positives:", ...f.falsePositives.map((x) => `- ${x.entry}: ${x.finding}`));
  if (f.misses.length) out.push("", "misses:", ...f.misses.map((x) => `- ${x.entry}: ${x.finding}`));
  if (f.flagMisses.length)
    out.push(
      "",
      "flags not read (or not at their line):",
      ...f.flagMisses.map((x) => `- ${x.entry} [${x.target}]: ${x.flags.join(" ")}`),
    );
  if (f.dropFailures.length)
    out.push(
      "",
      "drops:",
      ...f.dropFailures.map(
        (d) => `- ${d.drop.repo} ${d.drop.commit.slice(0, 10)} ${d.drop.path} ${d.drop.flag}: ${d.why}`,
      ),
    );
  return out.join("\n");
}

/** The issue's targets: precision >= 90% in every kind, no miss, exact discovery, every drop right. */
export function fieldTargetsMet(f: FieldFigures): boolean {
  const precise = Object.values(f.byKind).every((k) => k.precision.of === 0 || k.precision.hit / k.precision.of >= 0.9);
  return (
    precise &&
    f.misses.length === 0 &&
    f.undiscovered.length === 0 &&
    f.wronglyDiscovered.length === 0 &&
    f.dropFailures.length === 0
  );
}
