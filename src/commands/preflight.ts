// `preflight` (and run's gate): the repository's launch files checked at a ref, no host needed.
import { relative } from "node:path";
import type { Finding } from "../domain/report/finding.js";
import { GitReader } from "../ports/git/batched.js";
import { runPreflight } from "../stages/preflight/preflight.js";
import type { Options } from "./options.js";
import { selectTargets } from "./shared/endpoints.js";
import type { Workspace } from "./shared/workspace.js";

/** The preflight findings of the endpoints named (null: every endpoint, or every script discovered). */
export async function preflightFindings(
  ws: Workspace,
  opts: Options,
  names: readonly string[] | null,
): Promise<Finding[]> {
  const all = selectTargets(ws, ws.config ? [] : await ws.git.listFiles(), opts.endpoint);
  const targets = names ? all.filter((t) => names.includes(t.name)) : all;
  return runPreflight({
    root: ws.root,
    git: ws.git,
    reader: new GitReader(ws.git),
    targets,
    base: opts.base,
    ref: opts.ref,
    historyOk: !ws.shallow,
    configPath: ws.configFile ? relative(ws.root, ws.configFile).split("\\").join("/") : null,
  });
}
