#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  renderJson,
  renderMarkdown,
  writeNoFollow
} from "./chunk-POWMICQC.js";
import {
  Git,
  runCommand
} from "./chunk-HICGEHEP.js";
import "./chunk-RVIN33HA.js";
import "./chunk-HJYNEF3P.js";
import "./chunk-T6EUOOXG.js";
import {
  UsageError,
  colourOf,
  renderTerminal,
  repoUrlOf
} from "./chunk-5RGKNVFB.js";
import {
  reportExitCode
} from "./chunk-QI4EDPPR.js";
import "./chunk-SDA2ORHP.js";
import "./chunk-3NKE7SWH.js";
import "./chunk-7ICKPVQF.js";
import "./chunk-ZMUO5JYW.js";

// src/cli/report-output.ts
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
function checkWritable(flag, file) {
  const dir = dirname(file);
  if (!existsSync(dir))
    throw new UsageError(
      `${flag} ${file}: the directory ${dir} does not exist: create it first (mkdir -p ${dir}) or pick another path`
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
      `${flag} ${file} exists and is not a deploy-gate ${flag === "--report" ? "JSON report" : "summary"}: it would be overwritten; pick a new path (or remove the file first)`
    );
  }
}
var isDanglingLink = (file) => lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
function isOurs(flag, file) {
  try {
    const head = readFileSync(file, "utf8").slice(0, 4096);
    if (head.trim() === "") return true;
    if (flag === "--summary") return head.startsWith("## deploy-gate ");
    return /^\{\s*"schema":\s*\d+,\s*"tool":\s*\{\s*"name":\s*"deploy-gate"/.test(head);
  } catch {
    return false;
  }
}
function writeReport(flag, file, text, io) {
  try {
    writeNoFollow(file, text);
    return true;
  } catch (e) {
    io.err(
      `deploy-gate: could not write ${flag} ${file}: ${e.code ?? e.message}: check the path and free space, then rerun
`
    );
    return false;
  }
}
async function checkBase(opts) {
  if (!opts.base) return;
  const git = new Git(opts.cwd);
  if (!await git.info().catch(() => null)) return;
  if (!await git.resolve(opts.base))
    throw new UsageError(
      `--base ${opts.base} does not exist in this repository: check the name (git tag -l; git branch -a), or fetch it (git fetch --tags origin; a shallow clone: git fetch --unshallow)`
    );
}
async function reportCommand(opts, io) {
  await checkBase(opts);
  for (const [flag, file] of [
    ["--report", opts.report],
    ["--summary", opts.summary]
  ])
    if (file) checkWritable(flag, resolve(io.cwd, file));
  const report = await runCommand(opts, opts.quiet ? () => {
  } : (line) => io.err(`${line}
`), io.env);
  const json = renderJson(report);
  if (opts.json) io.out(json);
  else io.out(renderTerminal(report, colourOf(opts, io), opts.quiet));
  let written = true;
  if (opts.report) written = writeReport("--report", resolve(io.cwd, opts.report), json, io) && written;
  if (opts.summary)
    written = writeReport(
      "--summary",
      resolve(io.cwd, opts.summary),
      renderMarkdown(report, void 0, { repoUrl: repoUrlOf(io.env) }),
      io
    ) && written;
  return written ? reportExitCode(report, opts.failOnWarn) : 2;
}
export {
  reportCommand
};
