// `deploy-gate init`: write deploy-gate.yml for the serve scripts in this repository. Never overwrites.
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { parseConfig, DEFAULT_CONFIG } from "../../domain/config/load.js";
import { Git } from "../../ports/git/git.js";
import { UsageError, type Options } from "../options.js";
import { discoverTargets } from "../../stages/preflight/discover.js";
import { refusePath } from "../../stages/preflight/paths.js";
import { currentEngine } from "./current-flags.js";
import { unitOf } from "./unit-of.js";
import { shellQuote } from "../../lib/shell-quote.js";
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
  if (opts.commit && relative(root, path).startsWith(".."))
    throw new UsageError(`--commit: ${shown} is outside the repository ${root}: init commits only a config inside it`);
  // lstat: a dangling symlink in the way is "exists" too (writing through it would fail, or land elsewhere)
  if (lstatSync(path, { throwIfNoEntry: false }))
    throw new UsageError(`${shown} already exists: init never overwrites it; edit it, or move it away to start over`);
  if (!existsSync(dirname(path)))
    throw new UsageError(
      `${shown}: the directory ${relative(opts.cwd, dirname(path)) || dirname(path)} does not exist: create it first (mkdir -p), or pick another --config path`,
    );
  // the same rule as preflight: a symlinked or outside file is never read into the config
  const files = await new Git(root).listFiles();
  const found = discoverTargets(root, files).filter((t) => refusePath(root, t.scriptPath) === null);
  // a Helm chart or kustomize overlay is checked by preflight as found; deploy-gate.yml cannot name one yet
  const targets = found.filter((t) => !t.render);
  const rendered = found.filter((t) => t.render).map((t) => t.render!.dir);
  if (!targets.length)
    throw new UsageError(
      "no serve scripts, units or quadlets that start an inference server found among the repository's files (committed, staged or untracked; files .gitignore excludes are skipped): write deploy-gate.yml by hand (docs/config.md)",
    );
  const configDir = join(path, "..");
  const names = endpointNames(targets);
  const units = files
    .filter((f) => f.endsWith(".service") && refusePath(root, f) === null)
    .map((f) => ({ path: f, text: readFileSync(join(root, f), "utf8") }));
  const rel = (p: string) => relative(configDir, join(root, p)).split("\\").join("/");
  const endpoints: InitEndpoint[] = targets.map((t, i) => {
    const name = names[i]!;
    // a chart or overlay is rendered by preflight; init names the file and leaves its contracts to the user
    const engine = t.render
      ? null
      : currentEngine(t.kind, readFileSync(join(root, t.scriptPath), "utf8"), t.part ?? null);
    const flags = engine?.flags ?? null;
    const unit = t.kind === "script" ? unitOf(t.scriptPath, units) : null;
    return {
      name,
      kind: t.kind,
      script: rel(t.scriptPath),
      part: t.part ?? null,
      ...(unit ? { unit: rel(unit) } : {}),
      ...(engine ? { engine: engine.kind } : {}),
      flags,
    };
  });
  const text = renderInit(endpoints);
  parseConfig(text, path); // what init writes must load: a bug here is ours, not the user's
  writeFileSync(path, text, { flag: "wx" });
  const flags = endpoints.reduce((n, e) => n + contractFlags(e.flags ?? []).length, 0);
  io.out(
    `wrote ${shown}: ${endpoints.length} endpoint(s) (${endpoints.map((e) => e.name).join(", ")}), ${flags} contract flag(s) from the current engine argv\n${rendered.length ? `not named (Helm charts and kustomize overlays, checked by preflight without a config): ${rendered.join(", ")}\n` : ""}`,
  );
  if (opts.commit) {
    await new Git(root).commitOnly([relative(root, path)], "deploy-gate: config written by deploy-gate init");
    io.out(`committed ${shown} (that file only)\nnext: review it, then deploy-gate preflight\n`);
  } else
    // preflight's clean-tree fails on an untracked config: a deploy comes from a commit
    io.out(
      `next: review it, commit it (git add ${shellQuote(shown)} && git commit -m "deploy-gate: config"), then deploy-gate preflight\n(deploy-gate init --commit writes and commits it in one step)\n`,
    );
  return 0;
}
