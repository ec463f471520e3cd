// Boots the sandbox host once per e2e run (or reuses a running one) and hands its status to tests.
// Where this machine cannot host it, tests skip with the reason; DEPLOY_GATE_E2E=required makes that a failure.
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { down, preconditions, status, up, type SandboxStatus } from "../sandbox/machine.js";

declare module "vitest" {
  export interface ProvidedContext { sandbox: SandboxStatus | null; sandboxSkip: string }
}

function missingTools(): string | null {
  for (const t of ["systemd-nspawn", "debootstrap", "ssh", "ssh-keygen"]) {
    try { execFileSync("sh", ["-c", `command -v ${t}`], { stdio: "ignore" }); } catch {
      return `${t} is not installed (apt-get install -y debootstrap systemd-container openssh-client)`;
    }
  }
  return null;
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const why = preconditions() ?? missingTools();
  if (why) {
    if (process.env.DEPLOY_GATE_E2E === "required") throw new Error(`DEPLOY_GATE_E2E=required, but the sandbox host cannot run here: ${why}`);
    project.provide("sandbox", null);
    project.provide("sandboxSkip", `sandbox host unavailable: ${why}`);
    return undefined;
  }
  const already = await status();
  const s = already ?? (await up((m) => process.stderr.write(`[sandbox] ${m}\n`)));
  project.provide("sandbox", s);
  project.provide("sandboxSkip", "");
  // A machine that was already running (a developer's `npm run sandbox -- up`) is left running.
  return already ? undefined : async () => { await down(); };
}
