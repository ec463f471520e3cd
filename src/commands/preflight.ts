// `preflight` (and run's gate): the repository's launch files checked at a ref, no host needed.
import { relative } from "node:path";
import type { Finding } from "../domain/report/finding.js";
import { GitReader } from "../ports/git/batched.js";
import { runPreflight } from "../stages/preflight/preflight.js";
import type { Options } from "./options.js";
import { selectTargets } from "./shared/endpoints.js";
import { quietLaunchFiles } from "../stages/preflight/discover.js";
import { appliedRenders } from "../stages/preflight/applied-values.js";
import type { Workspace } from "./shared/workspace.js";

/** The preflight findings of the endpoints named (null: every endpoint, or every script discovered). */
export async function preflightFindings(
  ws: Workspace,
  opts: Options,
  names: readonly string[] | null,
): Promise<Finding[]> {
  const files = ws.config ? [] : await ws.git.listFiles();
  const all = selectTargets(ws, files, opts.endpoint);
  const targets = names ? all.filter((t) => names.includes(t.name)) : all;
  // discovery over the whole repository: a launch file that went quiet is compared with its earlier version too
  const whole = !ws.config && !opts.endpoint && !names;
  return runPreflight({
    root: ws.root,
    git: ws.git,
    reader: new GitReader(ws.git),
    targets,
    base: opts.base,
    ref: opts.ref,
    historyOk: !ws.shallow,
    ...(whole
      ? { quietFiles: quietLaunchFiles(ws.root, files, all), appliedRenders: appliedRenders(ws.root, files, all) }
      : {}),
    configPath: ws.configFile ? relative(ws.root, ws.configFile).split("\\").join("/") : null,
  });
}
