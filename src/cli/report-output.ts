// A report verb's output: the terminal or JSON report, and the --report / --summary files, each path
// checked before the run (a report never replaces a file that is not one of ours).
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { writeNoFollow } from "../ports/local/write-file.js";
import { Git } from "../ports/git/git.js";
import { runCommand } from "../commands/index.js";
import { colourOf, UsageError, type Io, type Options } from "../commands/options.js";
import { reportExitCode } from "../domain/report/finding.js";
import { renderJson } from "../domain/report/json.js";
import { renderMarkdown, repoUrlOf } from "../domain/report/markdown.js";
import { renderTerminal } from "../domain/report/terminal.js";

/**
 * Before the run, not after it: a deploy must not end in a stack trace over a mistyped report path, and a
 * report never replaces a file that is not one (`--report deploy-gate.yml` would destroy the config).
 */
function checkWritable(flag: string, file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir))
    throw new UsageError(
      `${flag} ${file}: the directory ${dir} does not exist: create it first (mkdir -p ${dir}) or pick another path`,
    );
  if (!statSync(dir).isDirectory())
    throw new UsageError(`${flag} ${file}: ${dir} is not a directory: pick another path`);
  if (file.split(/[\\/]/).includes(".git"))
    throw new UsageError(`${flag} ${file} is inside a .git directory: pick a path outside it`);
  if (!existsSync(file) && !isDanglingLink(file)) return;
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${flag} ${file} is a directory: name a file inside it, e.g. ${file}/deploy-gate.json`);
  if (!lstatSync(file).isFile() || !isOurs(flag, file)) {
    throw new UsageError(
      `${flag} ${file} exists and is not a deploy-gate ${flag === "--report" ? "JSON report" : "summary"}: it would be overwritten; pick a new path (or remove the file first)`,
    );
  }
}

const isDanglingLink = (file: string) => lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;

/** An earlier report or summary of ours: the one kind of file a report may replace. */
function isOurs(flag: string, file: string): boolean {
  try {
    const head = readFileSync(file, "utf8").slice(0, 4096);
    if (head.trim() === "") return true;
    if (flag === "--summary") return head.startsWith("## deploy-gate ");
    return /^\{\s*"schema":\s*\d+,\s*"tool":\s*\{\s*"name":\s*"deploy-gate"/.test(head);
  } catch {
    return false;
  }
}

/**
 * The report files, written after the verdict is printed: a full disk or a read-only path is said, not a stack trace.
 */
function writeReport(flag: string, file: string, text: string, io: Io): boolean {
  try {
    writeNoFollow(file, text);
    return true;
  } catch (e) {
    io.err(
      `deploy-gate: could not write ${flag} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}: check the path and free space, then rerun\n`,
    );
    return false;
  }
}

/** --base names a ref to compare with: one that does not exist is the user's typo, said once (exit 2). */
async function checkBase(opts: Options): Promise<void> {
  if (!opts.base) return;
  const git = new Git(opts.cwd);
  if (!(await git.info().catch(() => null))) return; // not a repository here: the workspace says so
  if (!(await git.resolve(opts.base)))
    throw new UsageError(
      `--base ${opts.base} does not exist in this repository: check the name (git tag -l; git branch -a), or fetch it (git fetch --tags origin; a shallow clone: git fetch --unshallow)`,
    );
}

/** preflight, run, verify, rollback: the pipeline, then the report in the forms asked for. */
export async function reportCommand(opts: Options, io: Io): Promise<number> {
  await checkBase(opts);
  for (const [flag, file] of [
    ["--report", opts.report],
    ["--summary", opts.summary],
  ] as const)
    if (file) checkWritable(flag, resolve(io.cwd, file));
  const report = await runCommand(opts, opts.quiet ? () => {} : (line) => io.err(`${line}\n`), io.env);
  const json = renderJson(report);
  if (opts.json) io.out(json);
  else io.out(renderTerminal(report, colourOf(opts, io), opts.quiet));
  let written = true;
  if (opts.report) written = writeReport("--report", resolve(io.cwd, opts.report), json, io) && written;
  if (opts.summary)
    written =
      writeReport(
        "--summary",
        resolve(io.cwd, opts.summary),
        renderMarkdown(report, undefined, { repoUrl: repoUrlOf(io.env) }),
        io,
      ) && written;
  return written ? reportExitCode(report, opts.failOnWarn) : 2;
}
