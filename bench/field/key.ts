// The field answer key (test/fixtures/corpora/field-<set>/expected.json, written blind by another session) and
// the cache's FETCHED.tsv / REPOS.tsv: their shapes and loaders. A malformed key is refused, never scored.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface FieldFlag {
  flag: string;
  line: number;
  /** for a chart or overlay: the file (relative to the entry's directory) the flag is written in */
  file?: string;
}

export interface FieldTarget {
  engine: string;
  flags: FieldFlag[];
  image: string | null;
  name: string | null;
  runtime: string;
  file?: string;
}

export interface FieldFinding {
  check: string;
  rule?: string;
  line: number;
  file?: string;
}

export interface FieldFile {
  repo: string;
  path: string;
  commit: string;
  kind: string;
  serves: boolean;
  targets?: FieldTarget[];
  expect: FieldFinding[];
  /** a tolerated rule with no line is tolerated on any line of the file */
  tolerate?: { rule: string; line?: number }[];
}

export interface FieldDrop {
  repo: string;
  commit: string;
  parent: string;
  path: string;
  flag: string;
  parentLine: number;
  renamedTo: string | null;
}

export interface FieldKey {
  files: Record<string, FieldFile>;
  drops: FieldDrop[];
}

/** A cached file: its name in the cache (an entry, or entry/relative for a chart), and where it lives upstream. */
export interface Fetched {
  name: string;
  repo: string;
  path: string;
  commit: string;
}

export const keyPath = (set: string) =>
  join(import.meta.dirname, "..", "..", "test", "fixtures", "corpora", `field-${set}`, "expected.json");

export function loadKey(path: string): FieldKey {
  const raw = JSON.parse(readFileSync(path, "utf8")) as FieldKey;
  const problems: string[] = [];
  for (const [name, f] of Object.entries(raw.files ?? {})) {
    if (typeof f.serves !== "boolean" || !Array.isArray(f.expect)) problems.push(`${name}: needs serves and expect`);
    for (const e of f.expect ?? [])
      if (typeof e.check !== "string" || !e.line) problems.push(`${name}: every expected finding needs check and line`);
    for (const t of f.targets ?? [])
      if (!Array.isArray(t.flags)) problems.push(`${name}: every target needs a flags list`);
  }
  for (const d of raw.drops ?? [])
    if (!d.repo || !d.commit || !d.parent || !d.path || !d.flag)
      problems.push(`drops: ${JSON.stringify(d)} is incomplete`);
  if (problems.length) throw new Error(`${path} is malformed:\n  ${problems.join("\n  ")}`);
  return { files: raw.files, drops: raw.drops ?? [] };
}

function tsv(path: string): string[][] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => l.split("\t"));
}

export function loadFetched(cacheDir: string): Fetched[] {
  return tsv(join(cacheDir, "FETCHED.tsv"))
    .filter((r) => r[0] !== "name")
    .map(([name, repo, path, commit]) => ({ name: name!, repo: repo!, path: path!, commit: commit! }));
}

/** repo -> its fetched git directory (REPOS.tsv), for the drop cases. */
export function loadRepos(cacheDir: string): Map<string, string> {
  const p = join(cacheDir, "REPOS.tsv");
  if (!existsSync(p)) return new Map();
  return new Map(
    tsv(p)
      .filter((r) => r[0] !== "repo")
      .map((r) => [r[0]!, r[1]!]),
  );
}
