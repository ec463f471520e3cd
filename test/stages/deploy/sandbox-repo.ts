// e2e helper: a serve-scripts repo made from test/fixtures/sandbox-repo in a temp git repository, with
// fresh names, and the StageContext the deploy stage gets for it on the sandbox host.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { parseConfig } from "../../../src/domain/config/load.js";
import { GitReader } from "../../../src/ports/git/batched.js";
import { Git } from "../../../src/ports/git/git.js";
import type { Host } from "../../../src/ports/host/host.js";
import type { StageContext } from "../../../src/stages/context.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

export interface RepoVars {
  endpoint: string;
  container: string;
  port: number;
  address: string;
  fakeEnv?: Record<string, string>;
  engineArgs?: string[];
  bootTimeout?: string;
  poll?: string;
  startLimitBurst?: number;
  /** the unit's RestartSec= (default 1) */
  restartSec?: number;
  /** the fixture under test/fixtures (default sandbox-repo: a serve script that runs podman run) */
  template?: "sandbox-repo" | "sandbox-compose-repo";
}

export interface SandboxRepo {
  root: string;
  vars: RepoVars;
  script: string;
  service: string;
  commit(message: string, edit?: (root: string) => void): string;
  context(host: Host, progress?: (line: string) => void, signal?: AbortSignal): StageContext;
  cleanup(): void;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

const git = (root: string, ...args: string[]) =>
  execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();

export function makeSandboxRepo(v: RepoVars): SandboxRepo {
  const root = mkdtempSync(join(tmpdir(), "dg-deploy-repo-"));
  const script = `/root/dg-e2e/${v.container}/serve.sh`;
  const env = Object.entries(v.fakeEnv ?? {})
    .map(([k, val]) => `-e ${k}=${val}`)
    .join(" ");
  const subst: Record<string, string> = {
    __ENDPOINT__: v.endpoint,
    __CONTAINER__: v.container,
    __PORT__: String(v.port),
    __SCRIPT__: script,
    __DIR__: dirname(script),
    __URL__: `http://${v.address}:${v.port}`,
    __FAKE_ENV__: env || "-e FAKE_BOOT_SECONDS=2",
    __ENGINE_ARGS__: (v.engineArgs ?? []).join(" "),
    __BOOT_TIMEOUT__: v.bootTimeout ?? "90s",
    __POLL__: v.poll ?? "2s",
    __START_LIMIT_INTERVAL__: "120",
    __START_LIMIT_BURST__: String(v.startLimitBurst ?? 3),
    __RESTART_SEC__: String(v.restartSec ?? 1),
  };
  const template = join(FIXTURES, v.template ?? "sandbox-repo");
  for (const src of walk(template)) {
    const dst = join(root, relative(template, src));
    mkdirSync(dirname(dst), { recursive: true });
    writeFileSync(
      dst,
      readFileSync(src, "utf8").replace(/__[A-Z_]+__/g, (k) => subst[k] ?? k),
    );
    chmodSync(dst, statSync(src).mode & 0o777);
  }
  git(root, "init", "-q", "-b", "main");
  git(root, "-c", "user.email=e2e@deploy-gate", "-c", "user.name=e2e", "add", ".");
  git(root, "-c", "user.email=e2e@deploy-gate", "-c", "user.name=e2e", "commit", "-qm", "serve scripts");
  const repo: SandboxRepo = {
    root,
    vars: v,
    script,
    service: `${v.container}.service`,
    commit(message, edit) {
      edit?.(root);
      git(root, "-c", "user.email=e2e@deploy-gate", "-c", "user.name=e2e", "commit", "-qam", message);
      return git(root, "rev-parse", "HEAD");
    },
    context(host, progress = () => undefined, signal) {
      const file = join(root, "deploy-gate.yml");
      const config = parseConfig(readFileSync(file, "utf8"), file);
      return {
        name: v.endpoint,
        endpoint: config.endpoints[v.endpoint]!,
        configFile: "deploy-gate.yml",
        root,
        reader: new GitReader(new Git(root)),
        ref: "main",
        sha: git(root, "rev-parse", "HEAD"),
        repoPath: (p: string) => p,
        host,
        progress,
        now: Date.now,
        signal,
      };
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  return repo;
}

/** Removes everything a deploy test left on the host: unit, container, script, lock and state record. */
export async function removeDeployed(host: Host, r: SandboxRepo): Promise<void> {
  const { container, endpoint } = r.vars;
  await host.runShell(
    `systemctl stop ${r.service}; podman rm -f ${container} >/dev/null 2>&1; rm -f /etc/systemd/system/${r.service}; rm -rf /root/dg-e2e/${container} .deploy-gate/locks/${endpoint}.lock .deploy-gate/state/${endpoint}.json; systemctl daemon-reload; systemctl reset-failed ${r.service} 2>/dev/null; true`,
    { timeoutMs: 60_000 },
  );
}

/**
 * deploy-gate.yml text with the sandbox host added to the endpoint (with the client key and the pinned
 * host key unless `bare`, where a workflow passes them as inputs), `endpointExtra` lines after it, and
 * `contractExtra` lines at the top of `contracts:`.
 */
export function withSandboxHost(
  config: string,
  s: { address: string; sshPort: number; user: string; identityFile: string; knownHosts: string },
  opts: { bare?: boolean; endpointExtra?: string; contractExtra?: string } = {},
): string {
  const auth = opts.bare ? "" : `, identityFile: "${s.identityFile}", knownHosts: "${s.knownHosts}"`;
  const host = `    host: { address: "${s.address}", port: ${s.sshPort}, user: ${s.user}${auth} }\n`;
  return config
    .replace(/( {4}container: .*\n)/, `$1${host}${opts.endpointExtra ?? ""}`)
    .replace("    contracts:\n", `    contracts:\n${opts.contractExtra ?? ""}`);
}
