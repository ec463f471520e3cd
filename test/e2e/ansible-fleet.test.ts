// The Ansible example (examples/ansible/playbook.yml, serial: 1, max_fail_percentage: 0) run with Debian's
// ansible against the three sandbox machines: a good change reaches every host, each gated by deploy-gate
// verify over HTTP; a bad one (the reasoning parser dropped) stops at the first host, and the others keep
// the version they ran (same script bytes, same container). Real sshd, systemd, podman, python3, ansible.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { SshHost } from "../../src/ports/host/ssh.js";
import { makeSandboxRepo, removeDeployed, type SandboxRepo } from "../stages/deploy/sandbox-repo.js";
import { hostNames } from "./support/fleet-repo.js";
import { fresh, target } from "./support/sandbox.js";

const run = promisify(execFile);
const PORT = 8240; // this file's port

describe("Ansible: serial 1, max_fail_percentage 0, each host gated by deploy-gate", () => {
  const machines = inject("fleet");
  let repo: SandboxRepo | null = null;
  let hosts: SshHost[] = [];
  let work = "";
  afterAll(async () => {
    await Promise.all(
      hosts.map(async (h) => {
        if (repo) await removeDeployed(h, repo);
        await h.close();
      }),
    );
    repo?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("a good change reaches every host; a bad one stops at the first and leaves the others untouched", async (ctx) => {
    if (!machines)
      return ctx.skip(inject("sandboxSkip") || "the fleet machines were not booted (run this file by name)");
    const which = await run("sh", ["-c", "command -v ansible-playbook"]).catch(() => null);
    if (!which) {
      if (process.env.DEPLOY_GATE_E2E === "required")
        throw new Error("ansible-playbook is not installed (apt-get install ansible)");
      return ctx.skip("ansible-playbook is not installed");
    }
    const name = fresh("dg-ans");
    repo = makeSandboxRepo({ endpoint: name, container: name, port: PORT, address: machines[0]!.address });
    hosts = await Promise.all(machines.map((m) => SshHost.connect(target(m))));
    const py = await Promise.all(hosts.map((h) => h.run(["sh", "-c", "command -v python3"])));
    expect(
      py.map((r) => r.code),
      "python3 on every sandbox machine (an older root: npm run sandbox -- down, rerun)",
    ).toEqual([0, 0, 0]);
    // the contract the bad change breaks: reasoning in its own field
    const cfg = join(repo.root, "deploy-gate.yml");
    writeFileSync(cfg, readFileSync(cfg, "utf8").replace("    contracts:\n", "    contracts:\n      thinking: true\n"));

    work = mkdtempSync(join(tmpdir(), "dg-ansible-"));
    const names = hostNames(machines.length);
    writeFileSync(join(work, "known_hosts"), machines.map((m) => m.knownHosts.trim()).join("\n") + "\n");
    // each machine has its own client key and its own pinned host key
    const inventory = {
      gpu: {
        hosts: Object.fromEntries(
          machines.map((m, i) => [
            names[i],
            {
              ansible_host: m.address,
              ansible_port: m.sshPort,
              ansible_user: m.user,
              ansible_ssh_private_key_file: m.identityFile,
            },
          ]),
        ),
        vars: {
          ansible_python_interpreter: "/usr/bin/python3",
          ansible_ssh_common_args: `-o UserKnownHostsFile=${join(work, "known_hosts")} -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes`,
        },
      },
    };
    writeFileSync(join(work, "inventory.json"), JSON.stringify(inventory));
    const vars = {
      serve_script_src: join(repo.root, "scripts/serve.sh"),
      unit_src: join(repo.root, "deploy/engine.service"),
      script_dest: repo.script,
      service: repo.service,
      engine_port: PORT,
      gate_config: cfg,
      gate_endpoint: name,
      deploy_gate: [resolve("node_modules/.bin/tsx"), resolve("src/cli/bin.ts")],
      boot_retries: 30,
    };
    writeFileSync(join(work, "vars.json"), JSON.stringify(vars));
    const playbook = (extra = {}) =>
      run(
        "ansible-playbook",
        [
          "-i",
          join(work, "inventory.json"),
          resolve("examples/ansible/playbook.yml"),
          "-e",
          `@${join(work, "vars.json")}`,
          "-e",
          JSON.stringify(extra),
        ],
        {
          timeout: 600_000,
          env: {
            ...process.env,
            ANSIBLE_NOCOLOR: "1",
            ANSIBLE_RETRY_FILES_ENABLED: "0",
            ANSIBLE_STDOUT_CALLBACK: "default",
          },
          maxBuffer: 16 << 20,
        },
      ).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
      );
    const script = (h: SshHost) => h.run(["cat", repo!.script]).then((r) => r.stdout);
    const container = (h: SshHost) =>
      h.run(["podman", "inspect", "--format", "{{.Id}}", name]).then((r) => r.stdout.trim());

    const good = await playbook();
    expect(good.code, good.out.slice(-3000)).toBe(0);
    for (const n of names) expect(good.out).toMatch(new RegExp(`ok: \\[${n} -> localhost\\][^\\n]*\\n?`));
    expect(good.out).toMatch(/Gate this host with deploy-gate/);
    const before = await Promise.all(
      hosts.map(async (h) => ({ script: await script(h), container: await container(h) })),
    );
    for (const b of before) expect(b.script).toContain("--reasoning-parser qwen3");

    // the bad change: the reasoning parser dropped; thinking then lands in content
    const p = vars.serve_script_src;
    writeFileSync(p, readFileSync(p, "utf8").replace("--reasoning-parser qwen3 ", ""));
    const bad = await playbook();
    expect(bad.code, bad.out.slice(-3000)).not.toBe(0);
    expect(bad.out).toMatch(new RegExp(`fatal: \\[${names[0]} -> localhost\\]`));
    expect(bad.out).toMatch(/verify\.thinking/);
    expect(await script(hosts[0]!)).not.toContain("--reasoning-parser");
    for (let i = 1; i < hosts.length; i++) {
      expect(bad.out).not.toContain(`[${names[i]}]`);
      expect(await script(hosts[i]!)).toBe(before[i]!.script);
      expect(await container(hosts[i]!)).toBe(before[i]!.container);
    }
  });
});
