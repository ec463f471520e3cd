// `up --hosts N`: several sandbox machines for fleet tests. Host 0 is the one-host harness's machine
// (reused when running); hosts 1..N-1 boot beside it. Each is stopped by its own recorded PID.
import { readdir } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { downHost, hostStatus, upHost, type SandboxStatus } from "./machine.js";
import { hostSpec, MAX_HOSTS, stateDir } from "./settings.js";

export interface FleetUp {
  hosts: SandboxStatus[];
  booted: number[];
}

/** Boots hosts 0..n-1 that are not running (in parallel); returns all n and the indexes this call booted. */
export async function upFleet(n: number, log: (s: string) => void = () => {}, base = stateDir()): Promise<FleetUp> {
  if (!Number.isInteger(n) || n < 1 || n > MAX_HOSTS) throw new Error(`--hosts ${n}: expected 1..${MAX_HOSTS}`);
  const specs = Array.from({ length: n }, (_, i) => hostSpec(i, base));
  const before = await Promise.all(specs.map((s) => hostStatus(s)));
  const booted = specs.filter((_, i) => !before[i]).map((s) => s.index);
  const results = await Promise.allSettled(specs.map((s, i) => before[i] ?? upHost(s, log)));
  const failed = results.flatMap((r, i) =>
    r.status === "rejected" ? [`${specs[i]!.machine}: ${(r.reason as Error).message}`] : [],
  );
  if (failed.length) {
    // Nothing half-up is left behind: stop what this call booted.
    await downHosts(
      booted.filter((i) => results[i]!.status === "fulfilled"),
      base,
    );
    throw new Error(`sandbox fleet: ${failed.join("\n")}`);
  }
  return { hosts: results.map((r) => (r as PromiseFulfilledResult<SandboxStatus>).value), booted };
}

/** Indexes of hosts > 0 that have a state dir (running or left over). */
export async function extraIndexes(base = stateDir()): Promise<number[]> {
  const prefix = `${basename(base)}-`;
  const names = await readdir(dirname(base)).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
    .map((n) => Number(n.slice(prefix.length)))
    .filter((i) => i > 0 && i < MAX_HOSTS)
    .sort((a, b) => a - b);
}

/** Every host's status, index order; null for one that is not running. Host 0 first, always present. */
export async function fleetStatus(base = stateDir()): Promise<(SandboxStatus | null)[]> {
  const idx = [0, ...(await extraIndexes(base))];
  const out: (SandboxStatus | null)[] = [];
  for (const i of idx) out[i] = await hostStatus(hostSpec(i, base));
  return Array.from({ length: out.length }, (_, i) => out[i] ?? null);
}

export async function downHosts(indexes: readonly number[], base = stateDir()): Promise<number[]> {
  const stopped: number[] = [];
  await Promise.all(
    indexes.map(async (i) => {
      if (await downHost(hostSpec(i, base))) stopped.push(i);
    }),
  );
  return stopped.sort((a, b) => a - b);
}
