// Whether this machine can host the sandbox, and what the e2e run does when it cannot:
// skip with the reason, or fail when DEPLOY_GATE_E2E=required (set by .ci/run).

export type E2eDecision = { run: true } | { run: false; skip: string } | { run: false; fail: string };

export function hostProblem(platform: string, uid: number | undefined, missingTool: string | null): string | null {
  if (platform !== "linux") return `the sandbox host needs Linux (this is ${platform})`;
  if (uid !== 0) return "the sandbox host needs root (systemd-nspawn, debootstrap, cgroups)";
  if (missingTool)
    return `${missingTool} is not installed (apt-get install -y debootstrap systemd-container openssh-client)`;
  return null;
}

export function e2eDecision(problem: string | null, required: string | undefined): E2eDecision {
  if (!problem) return { run: true };
  if (required === "required")
    return { run: false, fail: `DEPLOY_GATE_E2E=required, but the sandbox host cannot run here: ${problem}` };
  return { run: false, skip: `sandbox host unavailable: ${problem}` };
}

export const TOOLS = ["systemd-nspawn", "debootstrap", "ssh", "ssh-keygen", "ip"] as const;
