// The rollout's decisions, without I/O: which hosts, in which steps, when to halt, what to roll back,
// and the per-host rows the reports show.
import type { Endpoint } from "./config/schema.js";
import { verdictOf, type Finding, type HostRow, type HostVerdict } from "./report/finding.js";

export type FleetHost = NonNullable<Endpoint["hosts"]>[number];

/** The name a host goes by in reports, progress lines and --hosts. */
export const hostName = (h: Pick<FleetHost, "address"> & { name?: string }): string => h.name ?? h.address;

/** The endpoint as one host sees it: its own SSH target and, where it differs, its own URL. */
export function endpointFor(ep: Endpoint, h: FleetHost): Endpoint & { host: NonNullable<Endpoint["host"]> } {
  const { name: _name, url, ...target } = h;
  return { ...ep, host: target, hosts: undefined, url: url ?? ep.url };
}

/** --hosts a,b against the fleet: the hosts in config order, or the names that are not in it. */
/** A --hosts word as a shell glob: `*` any run, `?` one character, `[ab]` a set; anything else literal. */
function globMatch(glob: string, name: string): boolean {
  const re = glob
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  try {
    return new RegExp(`^${re}$`).test(name);
  } catch {
    return glob === name; // an unclosed [ is a literal, as in the shell
  }
}

export function selectHosts(
  all: readonly string[],
  only: readonly string[] | null,
): { hosts: string[]; unknown: string[] } {
  if (!only) return { hosts: [...all], unknown: [] };
  return {
    hosts: all.filter((h) => only.some((g) => globMatch(g, h))),
    unknown: only.filter((g) => !all.some((h) => globMatch(g, h))),
  };
}

/** The one host a single-host command (logs) reads on a fleet: --hosts must name exactly one. */
export function oneFleetHost(
  hosts: readonly FleetHost[],
  endpoint: string,
  command: string,
  only: readonly string[] | null,
): FleetHost | string {
  const names = hosts.map(hostName);
  if (!only || only.length !== 1)
    return `${command} reads one host: endpoint ${endpoint} is a fleet (hosts:); pass --hosts NAME (one of ${names.join(", ")})`;
  const matched = hosts.filter((x) => selectHosts([hostName(x)], only).hosts.length);
  if (matched.length > 1)
    return `${command} reads one host: --hosts ${only[0]} matches ${matched.map(hostName).join(", ")}; name one`;
  return matched[0] ?? `--hosts ${only[0]}: not a host of endpoint ${endpoint} (hosts: ${names.join(", ")})`;
}

/** Canary hosts alone first (each canary host is part of one step), then batches of `batch` in parallel. */
export function planSteps(hosts: readonly string[], rollout: { canary: number; batch: number }): string[][] {
  const steps: string[][] = [];
  const canary = Math.min(rollout.canary, hosts.length);
  if (canary > 0) steps.push(hosts.slice(0, canary));
  for (let i = canary; i < hosts.length; i += rollout.batch) steps.push(hosts.slice(i, i + rollout.batch));
  return steps;
}

/** What one host's deploy + verify came to. */
export interface HostOutcome {
  host: string;
  step: number;
  findings: Finding[];
  /** the deploy went past the lock: files or the unit may differ from before this run */
  changed: boolean;
}

export const hostFailed = (o: HostOutcome): boolean => o.findings.some((f) => f.status === "fail");

/** A step passes only when every host of it passed; the first failing step halts the rollout. */
export function stepPassed(outcomes: readonly HostOutcome[]): boolean {
  return outcomes.every((o) => !hostFailed(o));
}

/** Hosts to roll back after a halt: every host this run changed (the failing ones included), config order. */
export function rollbackTargets(outcomes: readonly HostOutcome[]): string[] {
  return outcomes.filter((o) => o.changed).map((o) => o.host);
}

/**
 * The hosts a rerun must deploy to finish a halted rollout, config order: every host but those that
 * passed and still run the change (a host rolled back, or whose rollback was tried, needs it again).
 */
export function hostsToFinish(
  all: readonly string[],
  outcomes: readonly HostOutcome[],
  rolledBack: ReadonlySet<string>,
): string[] {
  const done = new Set(outcomes.filter((o) => !hostFailed(o) && !rolledBack.has(o.host)).map((o) => o.host));
  return all.filter((h) => !done.has(h));
}

/** The fix of a halted rollout: `rest` are the hosts that still need the change (hostsToFinish). */
export function haltFix(command: string, rest: readonly string[], fleetSize: number, rolledBack: boolean): string {
  if (rest.length < fleetSize) {
    return `read the failing host's findings above; for a cause on the host, fix it there and finish the rollout: ${command} --hosts ${rest.join(",")}; a fix committed to the repo is a new change for every host: ${command}`;
  }
  return `read the failing host's findings above; fix the change, then ${rolledBack ? "roll it out again" : "finish the rollout"}: ${command}`;
}

/** One row per host for the reports, failures first, then by step. */
export function hostRows(
  hosts: readonly { host: string; step: number | null; readyMs: number | null }[],
  findings: readonly Finding[],
): HostRow[] {
  const rows = hosts.map(({ host, step, readyMs }): HostRow => {
    const own = findings.filter((f) => f.host === host);
    const main = own.filter((f) => !f.data?.rollback && f.check !== "deploy.rollback");
    const rb = own.find((f) => f.check === "deploy.rollback" && f.status !== "skip");
    let verdict: HostVerdict =
      own.length === 0 || own.every((f) => f.check === "fleet.rollout" && f.status === "skip")
        ? "not touched"
        : (verdictOf(main) as HostVerdict);
    if (rb)
      verdict = rb.status !== "pass" ? "rollback failed" : verdict === "fail" ? "failed, rolled back" : "rolled back";
    const plan = own.filter((f) => f.check === "verify.plan").at(-1);
    const kv = plan?.data?.kvTokens;
    return { host, step, verdict, readyMs, kvTokens: typeof kv === "number" ? kv : null };
  });
  const RANK: Record<HostVerdict, number> = {
    "rollback failed": 0,
    fail: 0,
    "failed, rolled back": 0,
    "rolled back": 1,
    warn: 2,
    pass: 3,
    "not touched": 4,
  };
  const rank = (r: HostRow) => RANK[r.verdict];
  return rows.sort((a, b) => rank(a) - rank(b) || (a.step ?? 99) - (b.step ?? 99));
}
