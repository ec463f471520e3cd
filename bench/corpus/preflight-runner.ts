// Runs the real preflight on each fixture in its own temporary git repository: discovery mode (no
// config) for discovery and traps, a generated deploy-gate.yml for the drop cases.
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { parseCli } from "../../src/cli/args.js";
import { configSchema } from "../../src/domain/config/schema.js";
import { runCommand } from "../../src/commands/index.js";
import type { Finding } from "../../src/domain/report/finding.js";
import { parseFlagSpec } from "../../src/domain/launch/contract.js";
import { tempRepo, type TempRepo } from "../../test/helpers/repo.js";
import { parsedEngineFlags } from "./engine-argv.js";
import { CORPUS_DIR, type Corpus, type DropCase, type ExpectedFile, type Kind } from "./expected.js";
import { normalizeName, SCORED_CHECKS, type DropRun, type Emitted, type FileRun } from "./score.js";

async function preflight(dir: string, config: string | null): Promise<Finding[]> {
  const opts = parseCli(["preflight", "--json", ...(config ? ["--config", config] : [])], dir);
  if (typeof opts === "string" || "help" in opts)
    throw new Error(`preflight options did not parse (${JSON.stringify(opts)})`);
  return (await runCommand(opts)).findings;
}

function addFixture(repo: TempRepo, file: string, kind: Kind, text: string) {
  repo.write(file, text);
  // serve scripts are executable in real repositories; units, quadlets and compose files are not
  if (kind === "script") chmodSync(join(repo.dir, file), 0o755);
}

const ruleOf = (f: Finding) => (typeof f.data?.rule === "string" ? f.data.rule : undefined);

export async function runFixture(file: string, expected: ExpectedFile, dir = CORPUS_DIR): Promise<FileRun> {
  const text = readFileSync(join(dir, file), "utf8");
  const repo = tempRepo("dg-corpus-");
  try {
    addFixture(repo, file, expected.kind, text);
    repo.commit(`add ${file}`);
    const findings = await preflight(repo.dir, null);
    const mine = findings.filter((f) => f.file === file);
    const emitted: Emitted[] = mine
      .filter((f) => SCORED_CHECKS.has(f.check) && (f.status === "fail" || f.status === "warn"))
      .map((f) => ({
        check: f.check,
        status: f.status,
        summary: f.summary,
        ...(ruleOf(f) ? { rule: ruleOf(f)! } : {}),
        ...(f.line !== undefined ? { line: f.line } : {}),
      }));
    // every per-target finding carries the endpoint it was found for
    const discovered = findings.some((f) => f.data?.endpoint !== undefined) || mine.length > 0;
    return { file, expected, emitted, discovered, parsedFlags: parsedEngineFlags(expected.kind, text) };
  } finally {
    repo.cleanup();
  }
}

/**
 * The endpoint naming the fixture. TODO(i10): when the config can name a unit-only or quadlet-only endpoint, that form
 * is used.
 */
export function endpointFor(kind: Kind, file: string, contract: string): Record<string, unknown> {
  const contracts = { flags: [contract] };
  if (kind === "script") return { script: file, contracts };
  const unitOnly = { unit: file, contracts };
  const ok = configSchema.safeParse({ version: 1, endpoints: { corpus: unitOnly } }).success;
  return ok ? unitOnly : { script: file, unit: file, contracts };
}

export async function runDrop(drop: DropCase, kind: Kind, dir = CORPUS_DIR): Promise<DropRun> {
  const text = readFileSync(join(dir, drop.file), "utf8");
  const repo = tempRepo("dg-corpus-drop-");
  try {
    addFixture(repo, drop.file, kind, text);
    repo.write(
      "deploy-gate.yml",
      stringify({ version: 1, endpoints: { corpus: endpointFor(kind, drop.file, drop.contract) } }),
    );
    repo.commit(`add ${drop.file}`);
    addFixture(repo, drop.file, kind, text.replace(drop.remove, drop.replaceWith ?? ""));
    const dropSha = repo.commit(`tune ${drop.file}`);
    repo.commit("docs: notes", { "NOTES.md": "unrelated change after the drop\n" });
    const findings = await preflight(repo.dir, null);
    const name = normalizeName(parseFlagSpec(drop.contract).name);
    const aboutFlag = (f: Finding) => typeof f.data?.flag === "string" && normalizeName(f.data.flag) === name;
    const contract = findings.find((f) => f.check === "preflight.contracts" && f.status === "fail" && aboutFlag(f));
    const tracedTo = typeof contract?.data?.droppedIn === "string" ? contract.data.droppedIn : null;
    const droppedReported = findings.some(
      (f) => f.check === "preflight.dropped-flags" && (f.status === "fail" || f.status === "warn") && aboutFlag(f),
    );
    return { drop, dropSha, tracedTo, contractBroken: contract !== undefined, droppedReported };
  } finally {
    repo.cleanup();
  }
}

/** Every fixture and drop case, a few at a time (each is git plus bash -n). */
export async function runCorpus(
  corpus: Corpus,
  dir = CORPUS_DIR,
  concurrency = 4,
): Promise<{ files: FileRun[]; drops: DropRun[] }> {
  const jobs: (() => Promise<void>)[] = [];
  const files: FileRun[] = [];
  const drops: DropRun[] = [];
  for (const [file, e] of Object.entries(corpus.files))
    jobs.push(async () => void files.push(await runFixture(file, e, dir)));
  for (const d of corpus.drops)
    jobs.push(async () => void drops.push(await runDrop(d, corpus.files[d.file]!.kind, dir)));
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  files.sort((a, b) => a.file.localeCompare(b.file));
  drops.sort((a, b) => a.drop.file.localeCompare(b.drop.file));
  return { files, drops };
}
