// e2e helper for fleets: the sandbox-repo fixture turned into a fleet endpoint (hosts: one entry per
// sandbox machine, each with its own pin and URL) and a connection to every machine for assertions.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SshHost } from "../../../src/ports/host/ssh.js";
import type { SandboxStatus } from "../../sandbox/machine.js";
import { makeSandboxRepo, removeDeployed, type RepoVars, type SandboxRepo } from "../../stages/deploy/sandbox-repo.js";
import { fresh, target } from "./sandbox.js";

export const hostNames = (n: number) => Array.from({ length: n }, (_, i) => `gpu-${String.fromCharCode(97 + i)}`);

/** deploy-gate.yml with `hosts:` (gpu-a, gpu-b, ...) in place of the endpoint's url, plus `extra` endpoint lines. */
export function withFleet(config: string, hosts: readonly SandboxStatus[], port: number, extra = ""): string {
  const names = hostNames(hosts.length);
  const list = hosts
    .map(
      (s, i) =>
        `      - { name: ${names[i]}, address: "${s.address}", port: ${s.sshPort}, user: ${s.user}, identityFile: "${s.identityFile}", knownHosts: "${s.knownHosts}", url: "http://${s.address}:${port}" }\n`,
    )
    .join("");
  return config.replace(/ {4}url: .*\n/, `    hosts:\n${list}${extra}`);
}

export interface Fleet {
  repo: SandboxRepo;
  hosts: SshHost[];
  names: string[];
  cleanup(): Promise<void>;
}

/** A fresh endpoint on every sandbox machine, committed as a fleet, with one open connection per machine. */
export async function makeFleet(
  machines: readonly SandboxStatus[],
  port: number,
  extra: string,
  over: Partial<RepoVars> = {},
): Promise<Fleet> {
  const name = fresh("dg-fleet");
  const repo = makeSandboxRepo({ endpoint: name, container: name, port, address: machines[0]!.address, ...over });
  repo.commit("a fleet of replicas", (root) => {
    const p = join(root, "deploy-gate.yml");
    writeFileSync(p, withFleet(readFileSync(p, "utf8"), machines, port, extra));
  });
  const hosts = await Promise.all(machines.map((m) => SshHost.connect(target(m))));
  return {
    repo,
    hosts,
    names: hostNames(machines.length),
    async cleanup() {
      await Promise.all(
        hosts.map(async (h) => {
          await removeDeployed(h, repo);
          await h.run(["rm", "-f", vramFile(repo)]);
          await h.close();
        }),
      );
      repo.cleanup();
    },
  };
}

/**
 * The host-specific file the fleet fixture's serve script reads for the GPU size (as serve scripts read /etc/default
 * files).
 */
export const vramFile = (r: SandboxRepo) => `/root/dg-e2e/${r.vars.container}.vram-gib`;

/** The serve script reads the host's GPU size from vramFile (default 32 GiB), so one replica can differ. */
export function hostSizedScript(r: SandboxRepo): void {
  r.commit("read the GPU size from the host", (root) => {
    const p = join(root, "scripts/serve.sh");
    writeFileSync(
      p,
      readFileSync(p, "utf8")
        .replace('PORT="', `VRAM="$(cat ${vramFile(r)} 2>/dev/null || echo 32)"\nPORT="`)
        .replace("localhost/engine-double", '-e FAKE_VRAM_GIB="$VRAM" localhost/engine-double'),
    );
  });
}
