// The first ten minutes, as a person types them in a terminal (tmux): a fresh clone of a serve-scripts repo,
// deploy-gate init, the host added to the config, a commit, preflight, and run --dry-run against the sandbox
// host, reached with nothing but ~/.ssh/config (a Host alias), ~/.ssh/known_hosts and ssh-agent. HOME is a
// temporary directory: the real ~/.ssh is never read or written.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { until } from "../helpers/until.js";
import { makeSandboxRepo, removeDeployed } from "../stages/deploy/sandbox-repo.js";
import { fresh, sandboxOrSkip, sandboxSession } from "./support/sandbox.js";
import type { Host } from "../../src/ports/host/host.js";

const ROOT = join(import.meta.dirname, "..", "..");
const home = mkdtempSync(join(tmpdir(), "dg-person-"));
const session = fresh("dg-person");
let agent: ChildProcess | null = null;
afterAll(() => {
  try {
    execFileSync("tmux", ["kill-session", "-t", session], { stdio: "ignore" });
  } catch {
    /* never started */
  }
  agent?.kill(); // the agent this test started, by its process
  rmSync(home, { recursive: true, force: true });
});

const tmux = (...args: string[]) => execFileSync("tmux", args, { encoding: "utf8" });
const screen = () => tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-3000");
const prompts = () => (screen().match(/^\[rc=\d+\] \$ /gm) ?? []).length;

/** Types a line and Enter, as a person does; waits for the next prompt and returns its exit code. */
async function type(line: string, deadlineMs = 120_000): Promise<number> {
  const before = prompts();
  tmux("send-keys", "-t", session, "-l", line);
  tmux("send-keys", "-t", session, "Enter");
  expect(await until(() => prompts() > before, deadlineMs), `no prompt after: ${line}\n${screen()}`).toBe(true);
  const all = [...screen().matchAll(/^\[rc=(\d+)\] \$ /gm)];
  return Number(all[all.length - 1]![1]);
}

describe("a first session in a terminal", () => {
  const s = inject("sandbox");
  let host: Host | undefined;
  sandboxSession((h) => (host = h));

  it("clone, init, commit, preflight and run --dry-run are green with only ~/.ssh/config and the agent", async (ctx) => {
    sandboxOrSkip(ctx);
    // the team's serve-scripts repository, with no deploy-gate.yml yet
    const name = fresh("dg-first");
    const origin = makeSandboxRepo({ endpoint: name, container: name, port: 7960, address: s!.address });
    try {
      origin.commit("no gate yet", (root) => unlinkSync(join(root, "deploy-gate.yml")));
      // the person's machine: ssh config with an alias, a hashed known_hosts, the key only in the agent
      const ssh = join(home, ".ssh");
      mkdirSync(ssh, { mode: 0o700 });
      writeFileSync(
        join(ssh, "config"),
        `Host gpu-sandbox\n  HostName ${s!.address}\n  Port ${s!.sshPort}\n  User ${s!.user}\n`,
      );
      writeFileSync(join(ssh, "known_hosts"), `${s!.knownHosts}\n`);
      execFileSync("ssh-keygen", ["-H", "-f", join(ssh, "known_hosts")], { stdio: "ignore" });
      rmSync(join(ssh, "known_hosts.old"), { force: true });
      const key = join(home, "sandbox-key");
      copyFileSync(s!.identityFile, key);
      chmodSync(key, 0o600);
      const sock = join(home, "agent.sock");
      agent = spawn("ssh-agent", ["-D", "-a", sock], { stdio: "ignore" });
      expect(
        await until(() => {
          try {
            execFileSync("ssh-add", ["-q", key], { env: { SSH_AUTH_SOCK: sock }, stdio: "ignore" });
            return true;
          } catch {
            return false;
          }
        }),
      ).toBe(true);
      rmSync(key); // from here on only the agent holds it
      writeFileSync(join(home, ".gitconfig"), "[user]\n  name = Person\n  email = person@example.invalid\n");
      const bin = join(home, "bin");
      mkdirSync(bin);
      writeFileSync(
        join(bin, "deploy-gate"),
        `#!/bin/sh\nexec ${join(ROOT, "node_modules/.bin/tsx")} ${join(ROOT, "src/cli/bin.ts")} "$@"\n`,
        { mode: 0o755 },
      );
      tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "200",
        "-y",
        "50",
        "env",
        "-i",
        `HOME=${home}`,
        `PATH=${bin}:${process.env.PATH}`,
        `SSH_AUTH_SOCK=${sock}`,
        "TERM=xterm",
        "NO_COLOR=1",
        `PS1=[rc=$?] $ `,
        "bash",
        "--norc",
        "--noprofile",
      );
      expect(await until(() => prompts() > 0)).toBe(true);

      expect(await type(`cd ${home} && git clone -q ${origin.root} serve-repo && cd serve-repo`)).toBe(0);
      expect(await type("deploy-gate init")).toBe(0);
      expect(screen()).toContain("git add deploy-gate.yml && git commit");
      // the person adds where it runs (the alias, nothing else about SSH) and what to check
      const hostLines = [
        "    host: { address: gpu-sandbox }",
        `    service: ${name}.service`,
        `    container: ${name}`,
        "    install:",
        `      - { from: scripts/serve.sh, to: ${origin.script}, mode: "0755" }`,
        `      - { from: deploy/engine.service, to: /etc/systemd/system/${name}.service }`,
        `    url: http://${s!.address}:7960`,
        "    model: qwen",
      ];
      expect(await type(`printf '%s\\n' ${hostLines.map((l) => `'${l}'`).join(" ")} >> deploy-gate.yml`)).toBe(0);
      expect(await type("git add deploy-gate.yml && git commit -qm 'deploy-gate config'")).toBe(0);
      expect(await type("deploy-gate preflight")).toBe(0);
      expect(screen()).toMatch(/PASS\s+0 failed/);
      expect(await type("deploy-gate run --dry-run", 300_000)).toBe(0);
      const out = screen();
      expect(out).toMatch(
        /deploy\.connect\s+connected to \S+ \(gpu-sandbox in ~\/\.ssh\/config; host key pinned by known_hosts\)/,
      );
      expect(out).not.toMatch(/FAIL/);
    } finally {
      if (host) await removeDeployed(host, origin);
      origin.cleanup();
    }
  });
});
