// Test helpers for the sandbox host: its status (or a skip with the reason), a pinned target, fresh names.
import { randomBytes } from "node:crypto";
import { inject, type TestContext } from "vitest";
import type { SshTarget } from "../../src/config/schema.js";
import type { SandboxStatus } from "../sandbox/machine.js";

export function sandboxOrSkip(ctx: TestContext): SandboxStatus {
  const s = inject("sandbox");
  if (!s) ctx.skip(inject("sandboxSkip"));
  return s!;
}

export function target(s: SandboxStatus, over: Partial<SshTarget> = {}): SshTarget {
  return { address: s.address, port: s.sshPort, user: s.user, knownHosts: s.knownHosts, identityFile: s.identityFile, ...over };
}

export const fresh = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;
