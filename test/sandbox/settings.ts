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
  network: join(dir, "10-host0.network"), // hosts 1..N-1: bound over the root's network file
});

/**
 * One sandbox machine of `up --hosts N`. Index 0 is exactly the single host above (name, subnet,
 * state dir), so callers of the one-host harness see no change; index i > 0 is its own machine
 * (dgsandbox<i>, 10.231.<77+i>.0/24, state in <stateDir>-<i>) booted from the same cached root.
 */
export interface HostSpec {
  index: number;
  machine: string;
  vethOuter: string;
  subnet: string;
  outerAddress: string;
  hostAddress: string;
  cgroupName: string;
  dir: string;
}

export const MAX_HOSTS = 8;

export function hostSpec(index: number, base = stateDir()): HostSpec {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_HOSTS)
    throw new Error(`sandbox host index ${index}: expected 0..${MAX_HOSTS - 1}`);
  if (index === 0)
    return {
      index,
      machine: MACHINE,
      vethOuter: VETH_OUTER,
      subnet: SUBNET,
      outerAddress: OUTER_ADDRESS,
      hostAddress: HOST_ADDRESS,
      cgroupName: CGROUP_NAME,
      dir: base,
    };
  const machine = `${MACHINE}${index}`;
  const subnet = `10.231.${77 + index}`;
  return {
    index,
    machine,
    vethOuter: `ve-${machine}`,
    subnet,
    outerAddress: `${subnet}.1`,
    hostAddress: `${subnet}.2`,
    cgroupName: `hostlab-${machine}`,
    dir: `${base}-${index}`,
  };
}

/** host0's network file with this machine's address: bound over the root's copy, so the cached root stays shared. */
export const networkFile = (hostAddress: string) =>
  `[Match]\nName=host0\n\n[Network]\nAddress=${hostAddress}/24\nLinkLocalAddressing=no\nIPv6AcceptRA=no\n`;
