// What the user's own OpenSSH setup says about a target, applied under deploy-gate.yml's values (which win,
// as ssh's command-line options win over its config): ~/.ssh/config (HostName, User, Port, IdentityFile,
// ProxyJump, IdentitiesOnly), the known_hosts files as the pin when the config pins nothing, and ssh-agent.
// DEPLOY_GATE_SSH_CONFIG names another config file, or "none" to read none of the user's files.
import { existsSync, readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import type { SshTarget } from "../../domain/config/schema.js";
import { HostError } from "./errors.js";
import { expandPath, parseJump, parseSshConfig, resolveSshConfig, type SshConfigLine } from "./ssh-config.js";

export interface UserSsh {
  target: SshTarget;
  /** the jump host from ProxyJump, resolved and pinned the same way; absent when the target has its own */
  jump?: UserSsh;
  /** IdentityFile paths from ssh_config (expanded), else OpenSSH's default key files; only those that exist */
  keyFiles: string[];
  /** IdentitiesOnly yes: offer only keyFiles, never other agent keys */
  identitiesOnly: boolean;
  /** the known_hosts files the pin was read from; null when deploy-gate.yml pins the host itself */
  pinFiles: string[] | null;
  /** the name given, when ~/.ssh/config's HostName replaced it */
  alias?: string;
}

const DEFAULT_KEYS = ["id_ed25519", "id_ecdsa", "id_rsa"];

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function localUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? "root";
  }
}

/** The user's ssh_config lines; [] when there is none or DEPLOY_GATE_SSH_CONFIG=none. */
function configLines(env: NodeJS.ProcessEnv, home: string): SshConfigLine[] {
  const named = env.DEPLOY_GATE_SSH_CONFIG;
  if (named === "none") return [];
  const text = readText(named || join(home, ".ssh", "config"));
  if (text === null && named)
    throw new HostError("auth", `DEPLOY_GATE_SSH_CONFIG=${named}: the file cannot be read`, {
      fix: "point DEPLOY_GATE_SSH_CONFIG at a readable ssh_config file, or unset it to read ~/.ssh/config",
    });
  return text === null ? [] : parseSshConfig(text);
}

function resolveOne(
  t: SshTarget,
  lines: readonly SshConfigLine[],
  env: NodeJS.ProcessEnv,
  home: string,
): UserSsh & { proxyJump?: string } {
  const v = resolveSshConfig(lines, t.address);
  const address = v.hostname ?? t.address;
  // port 22 is also the schema's default: a Port in ssh_config is taken over it
  const port = t.port !== 22 ? t.port : (v.port ?? 22);
  const user = t.user ?? v.user ?? localUser(env);
  const tokens = { home, localUser: localUser(env), host: address, user };
  const listed = v.identityFiles.map((f) => expandPath(f, tokens));
  const keyFiles = (listed.length ? listed : DEFAULT_KEYS.map((k) => join(home, ".ssh", k))).filter((f) =>
    existsSync(f),
  );
  let pinFiles: string[] | null = null;
  let knownHosts = t.knownHosts;
  if (!t.hostKey && !t.knownHosts && env.DEPLOY_GATE_SSH_CONFIG !== "none") {
    pinFiles = (v.userKnownHostsFiles ?? [join(home, ".ssh", "known_hosts"), join(home, ".ssh", "known_hosts2")])
      .map((f) => expandPath(f, tokens))
      .concat("/etc/ssh/ssh_known_hosts");
    const text = pinFiles.map(readText).filter((s): s is string => s !== null);
    if (text.length) knownHosts = text.join("\n");
  }
  const target: SshTarget = { ...t, address, port, user, ...(knownHosts ? { knownHosts } : {}) };
  return {
    target,
    ...(v.hostname && v.hostname !== t.address ? { alias: t.address } : {}),
    keyFiles,
    identitiesOnly: v.identitiesOnly ?? false,
    pinFiles,
    ...(v.proxyJump && v.proxyJump !== "none" ? { proxyJump: v.proxyJump } : {}),
  };
}

/** The target as the user's OpenSSH setup completes it. env: HOME, DEPLOY_GATE_SSH_CONFIG. */
export function userSsh(t: SshTarget, env: NodeJS.ProcessEnv = process.env): UserSsh {
  const home = env.HOME || "/";
  const lines = configLines(env, home);
  const { proxyJump, ...own } = resolveOne(t, lines, env, home);
  if (t.jump || !proxyJump) return own;
  const hops = proxyJump.split(",");
  const hop = hops.length === 1 ? parseJump(hops[0]!) : null;
  if (!hop)
    throw new HostError(
      "unreachable",
      `ProxyJump ${proxyJump} for ${t.address} in ~/.ssh/config: deploy-gate follows one jump host`,
      {
        fix: "name one jump host in ProxyJump ([user@]host[:port]), or set host.jump in deploy-gate.yml",
      },
    );
  // the jump host is resolved through ssh_config too, as ssh does (its own ProxyJump is not followed)
  const j = resolveOne(
    { address: hop.host, port: hop.port ?? 22, ...(hop.user ? { user: hop.user } : {}) } as SshTarget,
    lines,
    env,
    home,
  );
  const { proxyJump: _ignored, ...jump } = j; // a jump host's own ProxyJump is not followed
  return { ...own, jump };
}
