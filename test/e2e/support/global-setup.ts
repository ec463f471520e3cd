// Boots the sandbox host once per e2e run (or reuses a running one) and hands its status to tests.
// Where this machine cannot host it, tests skip with the reason; DEPLOY_GATE_E2E=required makes that a failure.
// Runs that include the fleet tests (or the whole suite) also get FLEET_HOSTS machines (`up --hosts N`).
import type { TestProject } from "vitest/node";
import { downHosts, upFleet } from "../../sandbox/fleet.js";
import { e2eDecision } from "../../sandbox/gate.js";
import { down, preconditions, status, up, type SandboxStatus } from "../../sandbox/machine.js";

declare module "vitest" {
  export interface ProvidedContext {
    sandbox: SandboxStatus | null;
    sandboxSkip: string;
    fleet: SandboxStatus[] | null;
  }
}

export const FLEET_HOSTS = 3;

/** Whether this run has fleet tests: no file filter (the whole suite) or a filter naming them. */
function wantsFleet(project: TestProject): boolean {
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  return !filters?.length || filters.some((f) => f.includes("fleet"));
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const d = e2eDecision(preconditions(), process.env.DEPLOY_GATE_E2E);
  project.provide("fleet", null);
  if (!d.run) {
    if ("fail" in d) throw new Error(d.fail);
    process.stderr.write(`[sandbox] e2e tests skipped: ${d.skip}\n`);
    project.provide("sandbox", null);
    project.provide("sandboxSkip", d.skip);
    return undefined;
  }
  const log = (m: string) => process.stderr.write(`[sandbox] ${m}\n`);
  const already = await status();
  const s = already ?? (await up(log));
  project.provide("sandbox", s);
  project.provide("sandboxSkip", "");
  // Only the extra machines this run booted are stopped after it; host 0 as before.
  let booted: number[] = [];
  if (wantsFleet(project)) {
    const f = await upFleet(FLEET_HOSTS, log).catch(async (e: unknown) => {
      if (!already) await down(); // upFleet stops what it booted; host 0 is ours to stop too
      throw e;
    });
    booted = f.booted.filter((i) => i > 0);
    project.provide("fleet", f.hosts);
  }
  return async () => {
    if (booted.length) await downHosts(booted);
    // A machine that was already running (a developer's `npm run sandbox -- up`) is left running.
    if (!already) await down();
  };
}
