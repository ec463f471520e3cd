// The SSH target a stage connects to: the config's host with the user's overrides (the action's
// host/port/user/jump inputs, so hosts can live in secrets), identityFile relative to the config file,
// and the jump host pinned like any host. Pure: no connection here.
import { isAbsolute, resolve } from "node:path";
import type { SshTarget } from "../../domain/config/schema.js";
import type { SshConnectOptions } from "./ssh.js";

export type JumpTarget = Omit<SshTarget, "jump">;

/** What a user may override from outside the config; undefined keeps the config's value. */
export interface HostOverride {
  address?: string;
  port?: number;
  user?: string;
  hostKey?: string;
  knownHosts?: string;
  /** a jump host given whole from outside (it replaces the config's jump) */
  jump?: JumpTarget;
}

/** A fingerprint pins by hash; anything else is known_hosts text. The other pin is dropped so the override wins. */
export function pinOverride(pin: string): Pick<HostOverride, "hostKey" | "knownHosts"> {
  return /^SHA256:[A-Za-z0-9+/]{43}=?$/.test(pin.trim())
    ? { hostKey: pin.trim(), knownHosts: undefined }
    : { knownHosts: pin, hostKey: undefined };
}

function withOverride<T extends JumpTarget>(t: T, o: HostOverride): T {
  const out = { ...t };
  for (const k of ["address", "port", "user"] as const)
    if (o[k] !== undefined) (out as Record<string, unknown>)[k] = o[k];
  // A pin given from outside replaces both of the config's pins: never a mix of the two.
  if (o.hostKey !== undefined || o.knownHosts !== undefined) {
    delete out.hostKey;
    delete out.knownHosts;
    if (o.hostKey) out.hostKey = o.hostKey;
    if (o.knownHosts) out.knownHosts = o.knownHosts;
  }
  return out;
}

const keyPath = (t: JumpTarget, configDir: string): JumpTarget =>
  t.identityFile && !isAbsolute(t.identityFile) ? { ...t, identityFile: resolve(configDir, t.identityFile) } : t;

export function effectiveTarget(t: SshTarget, override: HostOverride | null, configDir: string): SshTarget {
  const o = override ?? {};
  const { jump, ...own } = t;
  const host = keyPath(withOverride(own, o), configDir);
  const j = o.jump ?? jump;
  return j ? { ...host, jump: keyPath(j, configDir) } : host;
}

export interface ConnectSettings {
  timeoutMs: number;
  passphrase?: string;
}

/** ssh2 options for a target: its jump host (ssh -J) and the connect timeout, for both hops. */
export function sshOptions(t: SshTarget, s: ConnectSettings): SshConnectOptions {
  return {
    timeoutMs: s.timeoutMs,
    ...(s.passphrase ? { passphrase: s.passphrase } : {}),
    ...(t.jump ? { jump: { target: t.jump } } : {}),
  };
}

/** user@address:port as deploy-gate.yml has it (no user: ~/.ssh/config's, said at connect). */
const at = (t: JumpTarget) => `${t.user ? `${t.user}@` : ""}${t.address}:${t.port}`;

export function describeTarget(t: SshTarget): string {
  return t.jump ? `${at(t)} (via ${at(t.jump)})` : at(t);
}
