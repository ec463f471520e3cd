// Fixed facts of the one sandbox host this harness runs: names, addresses, ports and paths.
// One machine at a time; its subnet is private to the veth pair that systemd-nspawn makes.
import { join } from "node:path";

export const MACHINE = "dgsandbox";
export const VETH_OUTER = `ve-${MACHINE}`;
export const SUBNET = "10.231.77";
export const OUTER_ADDRESS = `${SUBNET}.1`;
export const HOST_ADDRESS = `${SUBNET}.2`;
export const SSH_PORT = 2222;
export const ENGINE_PORT = 7770;
export const USER = "root";
export const ENGINE_IMAGE = "localhost/engine-double:latest";
export const CGROUP_NAME = `hostlab-${MACHINE}`;

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEPLOY_GATE_SANDBOX_CACHE ?? "/var/cache/deploy-gate";
}

// Per-boot state (keys, pid, logs) lives on /run so it never outlives the outer machine's boot.
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DEPLOY_GATE_SANDBOX_STATE ?? "/run/deploy-gate-sandbox";
}

export const statePaths = (dir: string) => ({
  json: join(dir, "state.json"),
  log: join(dir, "nspawn.log"),
  keys: join(dir, "keys"), // bound read-only into the machine at /etc/ssh/sandbox-keys
  clientKey: join(dir, "id_ed25519"),
  knownHosts: join(dir, "known_hosts"),
  engine: join(dir, "engine"), // bound read-only at /var/lib/engine/app
});
