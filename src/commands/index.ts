// Runs a command's stages in order, collects findings, decides the verdict.
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ConfigError } from "../domain/config/errors.js";
import { launchFile } from "../domain/config/launch-file.js";
import { DEFAULT_CONFIG, loadConfig } from "../domain/config/load.js";
import type { Config } from "../domain/config/schema.js";
import { GitReader } from "../ports/git/batched.js";
import { Git } from "../ports/git/git.js";
import { UsageError, type Options } from "./options.js";
import type { PreflightTarget } from "../stages/preflight/targets.js";
import { discoverTargets } from "../stages/preflight/discover.js";
import { runPreflight } from "../stages/preflight/preflight.js";
import { skip, verdictOf, type Finding, type Report } from "../domain/report/finding.js";
import { sanitizeLine, sanitizeReport } from "../domain/report/sanitize.js";
import { deployAndVerify, verifyOnly } from "./shared/deploy-verify.js";
import { deployFleet, isFleet, verifyFleet } from "./rollout/rollout.js";
import type { HostRow } from "../domain/report/finding.js";
import { VERSION } from "../lib/version.js";

export interface Workspace {
  root: string;
  git: Git;
  config: Config | null;
  configFile: string | null;
  shallow: boolean;
  head: string | null;
}

/** deploy-gate.yml in cwd or the nearest parent up to the repository root, as linters look for theirs. */
function findConfigUpwards(cwd: string, root: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const candidate = join(dir, DEFAULT_CONFIG);
    if (existsSync(candidate)) return candidate;
    if (dir === root || dirname(dir) === dir || !dir.startsWith(root)) return null;
  }
}

export async function openWorkspace(opts: Options): Promise<Workspace> {
  let configFile = opts.config ? (isAbsolute(opts.config) ? opts.config : join(opts.cwd, opts.config)) : null;
  // outside a repository (the Action's workspace when actions/checkout used path:), the config's own repository
  const info = (await new Git(opts.cwd).info()) ?? (configFile && existsSync(dirname(configFile)) ? await new Git(dirname(configFile)).info() : null);
  const root = info?.root ?? null;
  if (!info || !root) {
    throw new UsageError(`${opts.cwd} is not inside a git repository: run from the repository that holds the serve scripts, or pass --config with its deploy-gate.yml (in a workflow: actions/checkout first)`);
  }
  const git = new Git(root);
  configFile ??= findConfigUpwards(resolve(opts.cwd), root);
  // --ref reads the scripts from git: a config outside the repository names paths git cannot read.
  if (opts.ref && configFile && relative(root, resolve(configFile)).startsWith("..")) {
    throw new UsageError(`--ref ${opts.ref}: the config ${configFile} is outside the repository ${root}; with --ref, keep deploy-gate.yml inside the repository (or run from the repository that holds it)`);
  }
  const config = configFile ? loadConfig(configFile) : null;
  return { root, git, config, configFile, shallow: info.shallow, head: info.head };
}

export function selectTargets(ws: Workspace, files: readonly string[], endpoint: string | null): PreflightTarget[] {
  if (!ws.config) {
    const found = discoverTargets(ws.root, files);
    if (endpoint) {
      const one = found.filter((t) => t.name === endpoint);
      if (!one.length) throw new UsageError(`--endpoint ${endpoint}: no deploy-gate.yml here, and no discovered serve script is named so (found: ${found.map((t) => t.name).join(", ") || "none"})`);
      return one;
    }
    return found;
  }
  const names = Object.keys(ws.config.endpoints);
  if (endpoint && !names.includes(endpoint)) {
    throw new ConfigError(ws.configFile!, [{ line: null, path: `endpoints.${endpoint}`, message: `--endpoint ${endpoint} is not in the config; endpoints: ${names.join(", ")}` }]);
  }
  return names
    .filter((n) => !endpoint || n === endpoint)
    .map((n) => {
      const ep = ws.config!.endpoints[n]!;
      // Paths in deploy-gate.yml are relative to the file itself; git wants them relative to the root.
      const rel = (p: string) => relative(ws.root, resolve(dirname(ws.configFile!), p)).split("\\").join("/");
      const file = launchFile(ep);
      // a unit named next to a script is that script's unit; named alone it is the launch file itself
      return { name: n, scriptPath: rel(file.path), kind: file.kind, unitPath: ep.script && ep.unit ? rel(ep.unit) : null, endpoint: ep };
    });
}

/** run, verify and rollback work on one endpoint: --endpoint, or the config's only one. */
function oneEndpoint(ws: Workspace, opts: Options): string {
  if (!ws.config) throw new UsageError(`${opts.command} needs deploy-gate.yml (host, service, container, install, url): see the README's config reference`);
  const names = Object.keys(ws.config.endpoints);
  if (opts.endpoint) {
    selectTargets(ws, [], opts.endpoint); // validates the name
    return opts.endpoint;
  }
  if (names.length === 1) return names[0]!;
  throw new UsageError(`${opts.command} works on one endpoint: pass --endpoint NAME (endpoints: ${names.join(", ")})`);
}

export async function runCommand(opts: Options, progress: (line: string) => void = () => {}, now: () => number = Date.now): Promise<Report> {
  // Host text reaches every output through here: progress lines now, the report in one pass at the end.
  const report = await collect(opts, (line) => progress(sanitizeLine(line)), now);
  return sanitizeReport(report);
}

async function collect(opts: Options, progress: (line: string) => void, now: () => number): Promise<Report> {
  const started = now();
  const ws = await openWorkspace(opts);
  const findings: Finding[] = [];
  let fleet: HostRow[] | undefined;
  let refName = opts.ref ?? "HEAD";
  let sha = opts.ref ? await ws.git.resolve(refName) : ws.head;
  if (opts.ref && !sha) throw new UsageError(`--ref ${opts.ref} does not exist in this repository (git tag -l; git fetch --tags; with actions/checkout use fetch-depth: 0)`);
  const preflight = async (names: string[] | null, ref: string | null) => {
    const all = selectTargets(ws, ws.config ? [] : await ws.git.listFiles(), opts.endpoint);
    const targets = names ? all.filter((t) => names.includes(t.name)) : all;
    return runPreflight({ root: ws.root, git: ws.git, reader: new GitReader(ws.git), targets, base: opts.base, ref, historyOk: !ws.shallow });
  };
  switch (opts.command) {
    case "preflight":
      findings.push(...(await preflight(null, opts.ref)));
      break;
    case "run":
    case "rollback":
    case "verify": {
      const name = oneEndpoint(ws, opts);
      if (opts.command === "run" && !opts.skipPreflight) {
        const pre = await preflight([name], opts.ref);
        findings.push(...pre);
        if (pre.some((f) => f.status === "fail")) {
          findings.push(skip("deploy.lock", "deploy not attempted: preflight failed", { fix: "fix the preflight failures above (or pass --skip-preflight to see what the host says)" }));
          break;
        }
      }
      if (opts.hosts && !isFleet(ws, name)) throw new UsageError(`--hosts: endpoint ${name} has one host (host:), not hosts:`);
      const verify = opts.command === "verify";
      const stage: { findings: Finding[]; ref: string; sha: string | null; fleet?: HostRow[] } = isFleet(ws, name)
        ? await (verify ? verifyFleet : deployFleet)(ws, name, opts, progress)
        : await (verify ? verifyOnly : deployAndVerify)(ws, name, opts, progress);
      fleet = stage.fleet;
      findings.push(...stage.findings);
      refName = stage.ref;
      sha = stage.sha;
      break;
    }
    default:
      throw new UsageError(`\`${opts.command}\` is handled by the CLI, not the pipeline`);
  }
  return {
    schema: 1,
    tool: { name: "deploy-gate", version: VERSION },
    command: opts.command,
    endpoint: opts.endpoint ?? (ws.config && Object.keys(ws.config.endpoints).length === 1 ? Object.keys(ws.config.endpoints)[0]! : null),
    ref: { name: refName, sha },
    verdict: verdictOf(findings),
    durationMs: Math.round(now() - started),
    findings,
    ...(fleet ? { fleet } : {}),
  };
}
