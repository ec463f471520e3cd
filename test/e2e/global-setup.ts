// Boots the sandbox host once per e2e run (or reuses a running one) and hands its status to tests.
// Where this machine cannot host it, tests skip with the reason; DEPLOY_GATE_E2E=required makes that a failure.
import type { TestProject } from "vitest/node";
import { e2eDecision } from "../sandbox/gate.js";
import { down, preconditions, status, up, type SandboxStatus } from "../sandbox/machine.js";

declare module "vitest" {
  export interface ProvidedContext { sandbox: SandboxStatus | null; sandboxSkip: string }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const d = e2eDecision(preconditions(), process.env.DEPLOY_GATE_E2E);
  if (!d.run) {
    if ("fail" in d) throw new Error(d.fail);
    process.stderr.write(`[sandbox] e2e tests skipped: ${d.skip}\n`);
    project.provide("sandbox", null);
    project.provide("sandboxSkip", d.skip);
    return undefined;
  }
  const already = await status();
  const s = already ?? (await up((m) => process.stderr.write(`[sandbox] ${m}\n`)));
  project.provide("sandbox", s);
  project.provide("sandboxSkip", "");
  // A machine that was already running (a developer's `npm run sandbox -- up`) is left running.
  return already ? undefined : async () => { await down(); };
}
