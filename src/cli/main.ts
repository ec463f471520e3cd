// `deploy-gate` / `npx deploy-gate`: arguments -> options -> the command's handler -> exit code.
import { existsSync, lstatSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { commandHelp, parseCli, USAGE } from "./args.js";
import type { Command } from "../commands/spec.js";
import { ConfigError } from "../domain/config/errors.js";
import { configJsonSchema } from "../commands/schema.js";
import { explainBytes } from "../commands/explain/sniff.js";
import { fileChunks } from "../domain/journal/lines.js";
import { renderExplain } from "../domain/report/diagnosis-text.js";
import { beforeExit, runAbort } from "../commands/shared/lifecycle.js";
import { logsCommand } from "../commands/logs/logs.js";
import { activeLocks, releaseAllLocks } from "../stages/deploy/deploy.js";
import { runInit } from "../commands/init/init.js";
import { lockCommand } from "../commands/lock.js";
import { UsageError, type Options } from "../commands/options.js";
import { runCommand } from "../commands/index.js";
import { exitCodeOf } from "../domain/report/finding.js";
import { renderJson } from "../domain/report/json.js";
import { renderMarkdown, repoUrlOf } from "../domain/report/markdown.js";
import { sanitizeValue } from "../domain/report/sanitize.js";
import { renderTerminal, useColour } from "../domain/report/terminal.js";
import { VERSION } from "../lib/version.js";

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

type Handler = (opts: Options, io: Io) => Promise<number>;
const colourOf = (opts: Options, io: Io) => useColour({ noColor: opts.noColor, isTTY: io.isTTY, env: io.env });

/** `explain FILE|-`: the diagnosis alone; exit 0 when the log shows a ready or still-booting engine. */
async function explainCommand(opts: Options, io: Io): Promise<number> {
  const file = opts.file!;
  const path = file === "-" ? "/dev/stdin" : resolve(io.cwd, file);
  if (file !== "-" && !existsSync(path)) throw new UsageError(`explain: ${file} does not exist (save a dump with: journalctl -o json --since "30 min ago" > boot.json)`);
  if (file !== "-" && statSync(path).isDirectory()) throw new UsageError(`explain: ${file} is a directory: pass a file (a journalctl -o json dump, a plain log or a response body), or - for stdin`);
  // The log is host text: the same redaction and control-character pass as every report.
  const result = sanitizeValue(await explainBytes(fileChunks(path)));
  io.out(opts.json ? JSON.stringify(result, null, 2) + "\n" : renderExplain(result, colourOf(opts, io)));
  return result.class === "ready" || result.class === "booting" ? 0 : 1;
}

/**
 * Before the run, not after it: a deploy must not end in a stack trace over a mistyped report path, and a
 * report never replaces a file that is not one (`--report deploy-gate.yml` would destroy the config).
 */
function checkWritable(flag: string, file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir)) throw new UsageError(`${flag} ${file}: the directory ${dir} does not exist: create it first (mkdir -p ${dir}) or pick another path`);
  if (!statSync(dir).isDirectory()) throw new UsageError(`${flag} ${file}: ${dir} is not a directory: pick another path`);
  if (file.split(/[\\/]/).includes(".git")) throw new UsageError(`${flag} ${file} is inside a .git directory: pick a path outside it`);
  if (!existsSync(file) && !isDanglingLink(file)) return;
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${flag} ${file} is a directory: name a file inside it, e.g. ${file}/deploy-gate.json`);
  if (!lstatSync(file).isFile() || !isOurs(flag, file)) {
    throw new UsageError(`${flag} ${file} exists and is not a deploy-gate ${flag === "--report" ? "JSON report" : "summary"}: it would be overwritten; pick a new path (or remove the file first)`);
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

/** The report files, written after the verdict is printed: a full disk or a read-only path is said, not a stack trace. */
function writeReport(flag: string, file: string, text: string, io: Io): boolean {
  try {
    writeFileSync(file, text);
    return true;
  } catch (e) {
    io.err(`deploy-gate: could not write ${flag} ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}: check the path and free space, then rerun\n`);
    return false;
  }
}

/** preflight, run, verify, rollback: the pipeline, then the report in the forms asked for. */
async function reportCommand(opts: Options, io: Io): Promise<number> {
  for (const [flag, file] of [["--report", opts.report], ["--summary", opts.summary]] as const) if (file) checkWritable(flag, resolve(io.cwd, file));
  const report = await runCommand(opts, opts.quiet ? () => {} : (line) => io.err(`${line}\n`));
  const json = renderJson(report);
  if (opts.json) io.out(json);
  else io.out(renderTerminal(report, colourOf(opts, io), opts.quiet));
  let written = true;
  if (opts.report) written = writeReport("--report", resolve(io.cwd, opts.report), json, io) && written;
  if (opts.summary) written = writeReport("--summary", resolve(io.cwd, opts.summary), renderMarkdown(report, undefined, { repoUrl: repoUrlOf(io.env) }), io) && written;
  return written ? exitCodeOf(report.verdict, opts.failOnWarn) : 2;
}

/** `logs`: registered so a signal waits for it to close its channel and print the diagnosis. */
async function logsHandler(opts: Options, io: Io): Promise<number> {
  const done = logsCommand(opts, { out: io.out, err: io.err, colour: colourOf(opts, io), signal: runAbort.signal });
  beforeExit.push(done.catch(() => undefined));
  return await done;
}

/** Commands the pipeline does not run; every other command is a report command. */
const HANDLERS: Partial<Record<Command, Handler>> = {
  explain: explainCommand,
  schema: async (_opts, io) => (io.out(JSON.stringify(configJsonSchema(), null, 2) + "\n"), 0),
  init: async (opts, io) => runInit(opts, io),
  logs: logsHandler,
  lock: async (opts, io) => lockCommand(opts, io),
};

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const opts = parseCli(argv, io.cwd);
    if (opts === "help") return io.out(USAGE + "\n"), 0;
    if (opts === "version") return io.out(`deploy-gate ${VERSION}\n`), 0;
    if ("help" in opts) return io.out(commandHelp(opts.help) + "\n"), 0;
    return await (HANDLERS[opts.command] ?? reportCommand)(opts, io);
  } catch (e) {
    // Messages can quote host or repository text: redacted and control-free like every report.
    if (e instanceof ConfigError) {
      io.err(`deploy-gate: invalid config\n${sanitizeValue(e.message)}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`deploy-gate: ${sanitizeValue(e.message)}\n`);
      return 2;
    }
    io.err(`deploy-gate: internal error: ${sanitizeValue((e as Error).stack ?? String(e))}\nplease report it with the command you ran\n`);
    return 2;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const isBin = process.argv[1]?.endsWith("/deploy-gate") || process.argv[1]?.endsWith("/cli.js");
if (invokedDirectly || isBin) {
  // `deploy-gate explain big.json | head`: a reader that went away is not an error of ours.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE" && e.code !== "ERR_STREAM_DESTROYED") throw e;
  });
  // A deploy interrupted by Ctrl-C or a cancelled CI job still releases its host lock.
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      process.stderr.write(`deploy-gate: ${sig}: ${activeLocks().length ? "releasing host locks, then exiting" : "stopping"}\n`);
      const force = setTimeout(() => process.exit(sig === "SIGINT" ? 130 : 143), 10_000);
      runAbort.abort();
      Promise.allSettled([releaseAllLocks(), ...beforeExit]).finally(() => {
        clearTimeout(force);
        process.exit(sig === "SIGINT" ? 130 : 143);
      });
    });
  }
  main(process.argv.slice(2), {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
