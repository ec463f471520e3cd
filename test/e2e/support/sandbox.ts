// Test helpers for the sandbox host: its status (or a skip with the reason), a pinned target, fresh names.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject, type TestContext } from "vitest";
import type { SshTarget } from "../../../src/domain/config/schema.js";
import { SshHost } from "../../../src/ports/host/ssh.js";
import { removeDeployed, type SandboxRepo } from "../../stages/deploy/sandbox-repo.js";
import type { SandboxStatus } from "../../sandbox/machine.js";

export function sandboxOrSkip(ctx: TestContext): SandboxStatus {
  const s = inject("sandbox");
  if (!s) ctx.skip(inject("sandboxSkip"));
  return s!;
}

export function target(s: SandboxStatus, over: Partial<SshTarget> = {}): SshTarget {
  return {
    address: s.address,
    port: s.sshPort,
    user: s.user,
    knownHosts: s.knownHosts,
    identityFile: s.identityFile,
    ...over,
  };
}

export const fresh = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

/**
 * A describe block's pinned connection to the sandbox host (handed to `onHost` before its tests) and the
 * repos it deploys: each repo pushed onto the returned list is removed from the host and deleted after.
 */
export function sandboxSession(onHost: (h: SshHost) => void): SandboxRepo[] {
  const s = inject("sandbox");
  const repos: SandboxRepo[] = [];
  let host: SshHost | undefined;
  beforeAll(async () => {
    if (!s) return;
    host = await SshHost.connect(target(s));
    onHost(host);
  });
  afterAll(async () => {
    for (const r of repos) {
      if (host) await removeDeployed(host, r);
      r.cleanup();
    }
    await host?.close();
  });
  return repos;
}
