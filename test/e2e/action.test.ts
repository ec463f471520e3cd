// The bundled action (dist/index.js) run the way the Actions runner runs it: node, INPUT_* variables,
// GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, the SSH key and known_hosts passed as inputs,
// `command: run` against the sandbox host. The job summary must show the table of checks.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, removeDeployed, withSandboxHost, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, target } from "./support/sandbox.js";

const BUNDLE = resolve(import.meta.dirname, "..", "..", "dist", "index.js");

describe("the action bundle on the sandbox host (uses: ./)", () => {
  const s = inject("sandbox");
  let host: SshHost;
  let repo: SandboxRepo | null = null;
  const tmp = mkdtempSync(join(tmpdir(), "dg-action-e2e-"));
  beforeAll(async () => {
    if (s) host = await SshHost.connect(target(s));
  });
  afterAll(async () => {
    if (repo) {
      await removeDeployed(host, repo);
      repo.cleanup();
    }
    await host?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("command: run deploys, verifies, writes the summary table and the outputs; the key never reaches the log", async (ctx) => {
    sandboxOrSkip(ctx);
    const name = fresh("dg-action");
    repo = makeSandboxRepo({ endpoint: name, container: name, port: 7950, address: s!.address });
    // No identityFile and no pin in the config: the workflow passes both as inputs.
    repo.commit("host without key or pin", (root) => {
      const p = join(root, "deploy-gate.yml");
      writeFileSync(
        p,
        withSandboxHost(readFileSync(p, "utf8"), s!, { bare: true, contractExtra: "      tools: true\n" }),
      );
    });
    const key = readFileSync(s!.identityFile, "utf8");
    for (const f of ["summary.md", "output.txt"]) writeFileSync(join(tmp, f), "");
    const r = spawnSync(process.execPath, [BUNDLE], {
      encoding: "utf8",
      timeout: 240_000,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: repo.root,
        RUNNER_TEMP: tmp,
        GITHUB_STEP_SUMMARY: join(tmp, "summary.md"),
        GITHUB_OUTPUT: join(tmp, "output.txt"),
        INPUT_COMMAND: "run",
        INPUT_ENDPOINT: name,
        "INPUT_SSH-KEY": key,
        "INPUT_KNOWN-HOSTS": s!.knownHosts,
      },
    });
    const log = r.stdout + r.stderr;
    expect(r.status, log).toBe(0);
    const keyBody = key.split("\n").find((l) => l.length > 40 && !l.startsWith("-----"))!;
    // The runner consumes ::add-mask:: commands (they never show); nothing else may carry the key.
    expect(log).toContain(`::add-mask::${keyBody}`);
    expect(
      log
        .split("\n")
        .filter((l) => !l.startsWith("::add-mask::"))
        .join("\n"),
    ).not.toContain(keyBody);
    expect(log).toContain("::group::deploy-gate run");
    const summary = readFileSync(join(tmp, "summary.md"), "utf8");
    expect(summary.split("\n")[0]).toMatch(/^## deploy-gate run: (✅ PASS|⚠️ PASS with warnings)$/); // the sandbox script skips memlock: a warning
    for (const c of ["deploy.ready", "verify.argv", "verify.tools"])
      expect(summary).toMatch(new RegExp(`\\| ✅ \\| \`${c.replace(".", "\\.")}\` \\|`));
    expect(readFileSync(join(tmp, "output.txt"), "utf8")).toMatch(/verdict<<[^\n]+\n(pass|warn)\n/);
  });

  // Hosts in secrets: the config's address is overridden by inputs, reached through a pinned jump host
  // (the sandbox's sshd to its own loopback), with RUNNER_DEBUG=1 showing each remote command.
  it("command: verify through inputs: host, port, user, known-hosts, jump-host, connect-timeout; RUNNER_DEBUG traces", async (ctx) => {
    sandboxOrSkip(ctx);
    expect(repo, "runs after the deploy above").not.toBeNull();
    const key = readFileSync(s!.identityFile, "utf8");
    for (const f of ["summary2.md", "output2.txt"]) writeFileSync(join(tmp, f), "");
    const r = spawnSync(process.execPath, [BUNDLE], {
      encoding: "utf8",
      timeout: 240_000,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        GITHUB_ACTIONS: "true",
        GITHUB_WORKSPACE: repo!.root,
        RUNNER_TEMP: tmp,
        RUNNER_DEBUG: "1",
        GITHUB_STEP_SUMMARY: join(tmp, "summary2.md"),
        GITHUB_OUTPUT: join(tmp, "output2.txt"),
        GITHUB_SERVER_URL: "https://github.example.com",
        GITHUB_REPOSITORY: "octo-org/serve-scripts",
        INPUT_COMMAND: "verify",
        INPUT_ENDPOINT: repo!.vars.endpoint,
        "INPUT_SSH-KEY": key,
        INPUT_HOST: "127.0.0.1",
        INPUT_PORT: String(s!.sshPort),
        INPUT_USER: s!.user,
        "INPUT_KNOWN-HOSTS": s!.knownHosts.replace(/^\S+/, `[127.0.0.1]:${s!.sshPort}`),
        "INPUT_JUMP-HOST": `${s!.user}@${s!.address}:${s!.sshPort}`,
        "INPUT_JUMP-HOST-KEY": s!.knownHosts,
        "INPUT_CONNECT-TIMEOUT": "30s",
        "INPUT_FAIL-ON-WARN": "False",
      },
    });
    const log = r.stdout + r.stderr;
    expect(r.status, log).toBe(0);
    // Every remote command went to the loopback address given as an input, which only the jump host reaches.
    expect(log).toMatch(new RegExp(`\\[trace\\] \\d+ms ssh ${s!.user}@127\\.0\\.0\\.1:${s!.sshPort}: `));
    const summary = readFileSync(join(tmp, "summary2.md"), "utf8");
    expect(summary.split("\n")[0]).toMatch(/^## deploy-gate verify: (✅ PASS|⚠️ PASS with warnings)$/);
    expect(summary).toMatch(
      /\(\[`[0-9a-f]{10}`\]\(https:\/\/github\.example\.com\/octo-org\/serve-scripts\/commit\/[0-9a-f]{40}\)\)/,
    );
  });
});
