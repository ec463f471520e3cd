// What every verb opens first: the repository, its deploy-gate.yml (found upwards from cwd, as linters
// find theirs), whether the clone is shallow, and HEAD.
import { existsSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { DEFAULT_CONFIG, loadConfig } from "../../domain/config/load.js";
import type { Config } from "../../domain/config/schema.js";
import { Git } from "../../ports/git/git.js";
import { UsageError, type Options } from "../options.js";

export interface Workspace {
  root: string;
  git: Git;
  config: Config | null;
  configFile: string | null;
  shallow: boolean;
  head: string | null;
  /** who deploys ("user@machine (run URL)"), for the host lock and the state record; resolved once */
  owner: string;
  /** DEPLOY_GATE_API_KEY from the entry's environment, read once (null: unset) */
  apiKey: string | null;
  /** the secrets the gate holds (API key, SSH key passphrase), masked by value in every output */
  secrets: string[];
  /** the entry's environment, handed on to the endpoint's hooks */
  env: NodeJS.ProcessEnv;
}

/** deploy-gate.yml in cwd or the nearest parent up to the repository root, as linters look for theirs. */
function findConfigUpwards(cwd: string, root: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_CONFIG);
    if (existsSync(candidate)) return candidate;
    if (dir === root || dirname(dir) === dir || !dir.startsWith(root)) return null;
  }
}

/** env: the entry's environment (the CLI's io.env, the action's own); nothing below reads it. */
export async function openWorkspace(opts: Options, env: NodeJS.ProcessEnv = {}): Promise<Workspace> {
  let configFile = opts.config ? (isAbsolute(opts.config) ? opts.config : join(opts.cwd, opts.config)) : null;
  // outside a repository (the Action's workspace when actions/checkout used path:), the config's own repository
  const info =
    (await new Git(opts.cwd).info()) ??
    (configFile && existsSync(dirname(configFile)) ? await new Git(dirname(configFile)).info() : null);
  const root = info?.root ?? null;
  if (!info || !root) {
    throw new UsageError(
      `${opts.cwd} is not inside a git repository: run from the repository that holds the serve scripts, or pass --config with its deploy-gate.yml (in a workflow: actions/checkout first)`,
    );
  }
  const git = new Git(root);
  configFile ??= findConfigUpwards(resolve(opts.cwd), root);
  // --ref reads the scripts from git: a config outside the repository names paths git cannot read.
  if (opts.ref && configFile && relative(root, resolve(configFile)).startsWith("..")) {
    throw new UsageError(
      `--ref ${opts.ref}: the config ${configFile} is outside the repository ${root}; with --ref, keep deploy-gate.yml inside the repository (or run from the repository that holds it)`,
    );
  }
  const config = configFile ? loadConfig(configFile) : null;
  return {
    root,
    git,
    config,
    configFile,
    shallow: info.shallow,
    head: info.head,
    owner: owner(env),
    apiKey: env.DEPLOY_GATE_API_KEY || null,
    secrets: [env.DEPLOY_GATE_API_KEY, env.DEPLOY_GATE_SSH_PASSPHRASE].filter((s): s is string => Boolean(s)),
    env,
  };
}

/** "user@machine (run URL)": who holds a lock, who deployed. */
export function owner(env: NodeJS.ProcessEnv): string {
  const run =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? ` (${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID})`
      : "";
  let user = "unknown";
  try {
    user = userInfo().username;
  } catch {
    /* no passwd entry in some containers */
  }
  return `${user}@${hostname()}${run}`;
}
