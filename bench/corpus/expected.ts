// The corpus's answer key (test/fixtures/corpora/launch-1/expected.json): its shape, and a loader that refuses a
// malformed key instead of scoring against it.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const CORPUS_DIR = join(import.meta.dirname, "..", "..", "test", "fixtures", "corpora", "launch-1");

export type Kind = "script" | "unit" | "quadlet" | "compose" | "kubernetes";

export interface ExpectedFinding {
  check: string;
  /** the trap rule id (preflight.traps); absent for checks without rules (preflight.bash-syntax) */
  rule?: string;
  line: number;
}

export interface ExpectedFile {
  serves: boolean;
  /** whether discovery must find it; defaults to serves (compose files serve but are out of scope) */
  discover?: boolean;
  kind: Kind;
  engine: "vllm" | "sglang" | "llama.cpp" | null;
  runtime: "podman" | "docker" | "quadlet" | "systemd" | "none" | null;
  image: string | null;
  flags: string[];
  expect: ExpectedFinding[];
  note: string;
}

export interface DropCase {
  file: string;
  /** the contract declared in the generated deploy-gate.yml */
  contract: string;
  /** exact text removed by the second commit */
  remove: string;
  /** what replaces it (a rename); empty when absent */
  replaceWith?: string;
  /** true: contracts must trace the drop to the second commit and dropped-flags must report it; false: both silent */
  expectDropped: boolean;
  form: string;
}

export interface Corpus {
  files: Record<string, ExpectedFile>;
  drops: DropCase[];
}

export const shouldDiscover = (e: ExpectedFile) => e.discover ?? e.serves;

export function loadCorpus(dir = CORPUS_DIR): Corpus {
  const path = join(dir, "expected.json");
  const raw = JSON.parse(readFileSync(path, "utf8")) as Corpus;
  const problems: string[] = [];
  for (const [name, e] of Object.entries(raw.files ?? {})) {
    if (typeof e.serves !== "boolean" || !Array.isArray(e.flags) || !Array.isArray(e.expect))
      problems.push(`${name}: needs serves, flags and expect`);
    for (const x of e.expect ?? [])
      if (!x.check || !Number.isInteger(x.line) || x.line < 1)
        problems.push(`${name}: expected finding needs check and a 1-based line`);
  }
  for (const d of raw.drops ?? []) {
    if (!raw.files?.[d.file]) problems.push(`drops: ${d.file} has no entry in files`);
    if (!d.remove || !d.contract) problems.push(`drops: ${d.file} needs contract and remove`);
  }
  if (problems.length)
    throw new Error(`${path} is malformed:\n  ${problems.join("\n  ")}\nfix the entries named above`);
  return raw;
}
