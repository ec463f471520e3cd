// `deploy-gate init`: write deploy-gate.yml for the serve scripts in this repository. Never overwrites.
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { parseConfig, DEFAULT_CONFIG } from "../../domain/config/load.js";
import { Git } from "../../ports/git/git.js";
import { UsageError, type Options } from "../options.js";
import { discoverTargets } from "../../stages/preflight/discover.js";
import { refusePath } from "../../stages/preflight/paths.js";
import { currentEngineFlags } from "./current-flags.js";
import { contractFlags, endpointNames, renderInit, type InitEndpoint } from "./render.js";

export async function runInit(opts: Options, io: { out: (s: string) => void; cwd: string }): Promise<number> {
  const info = await new Git(opts.cwd).info();
  if (!info?.root)
    throw new UsageError(
      `${opts.cwd} is not inside a git repository: run deploy-gate init in the repository that holds the serve scripts`,
    );
  const root = info.root;
  const path = opts.config
    ? isAbsolute(opts.config)
      ? opts.config
      : join(opts.cwd, opts.config)
    : join(root, DEFAULT_CONFIG);
  const shown = relative(opts.cwd, path) || path;
  // lstat: a dangling symlink in the way is "exists" too (writing through it would fail, or land elsewhere)
  if (lstatSync(path, { throwIfNoEntry: false }))
    throw new UsageError(`${shown} already exists: init never overwrites it; edit it, or move it away to start over`);
  if (!existsSync(dirname(path)))
    throw new UsageError(
      `${shown}: the directory ${relative(opts.cwd, dirname(path)) || dirname(path)} does not exist: create it first (mkdir -p), or pick another --config path`,
    );
  // the same rule as preflight: a symlinked or outside file is never read into the config
  const found = discoverTargets(root, await new Git(root).listFiles()).filter(
    (t) => refusePath(root, t.scriptPath) === null,
  );
  // a Helm chart or kustomize overlay is checked by preflight as found; deploy-gate.yml cannot name one yet
  const targets = found.filter((t) => !t.render);
  const rendered = found.filter((t) => t.render).map((t) => t.render!.dir);
  if (!targets.length)
    throw new UsageError(
      "no serve scripts, units or quadlets that start an inference server found among the repository's files (committed, staged or untracked; files .gitignore excludes are skipped): write deploy-gate.yml by hand (docs/config.md)",
    );
  const names = endpointNames(targets);
  const configDir = join(path, "..");
  const endpoints: InitEndpoint[] = targets.map((t, i) => {
    const name = names[i]!;
    // a chart or overlay is rendered by preflight; init names the file and leaves its contracts to the user
    const flags = t.render
      ? null
      : currentEngineFlags(t.kind, readFileSync(join(root, t.scriptPath), "utf8"), t.part ?? null);
    const script = relative(configDir, join(root, t.scriptPath)).split("\\").join("/");
    return { name, kind: t.kind, script, part: t.part ?? null, flags };
  });
  const text = renderInit(endpoints);
  parseConfig(text, path); // what init writes must load: a bug here is ours, not the user's
  writeFileSync(path, text, { flag: "wx" });
  const flags = endpoints.reduce((n, e) => n + contractFlags(e.flags ?? []).length, 0);
  io.out(
    `wrote ${relative(opts.cwd, path) || path}: ${endpoints.length} endpoint(s) (${endpoints.map((e) => e.name).join(", ")}), ${flags} contract flag(s) from the current engine argv\n${rendered.length ? `not named (Helm charts and kustomize overlays, checked by preflight without a config): ${rendered.join(", ")}\n` : ""}next: review it, then deploy-gate preflight\n`,
  );
  return 0;
}
