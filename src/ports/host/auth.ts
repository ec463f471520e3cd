// What the gate authenticates with: a private key (deploy-gate.yml's identityFile, DEPLOY_GATE_SSH_KEY, then
// ~/.ssh/config's IdentityFile or OpenSSH's default key files) and the user's ssh-agent (SSH_AUTH_SOCK),
// filtered to those keys under IdentitiesOnly, as ssh does. Keys never come from argv.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import ssh2, { type BaseAgent, type OpenSSHAgent, type ParsedKey } from "ssh2";
import type { SshTarget } from "../../domain/config/schema.js";
import { HostError, KEY_FIX } from "./errors.js";
import type { UserSsh } from "./user-ssh.js";

export interface Auth {
  privateKey?: string | Buffer;
  agent?: BaseAgent | string;
}

/** An agent that lists only the keys whose public halves are given (IdentitiesOnly yes). */
class OnlyTheseKeys extends ssh2.OpenSSHAgent {
  constructor(
    socket: string,
    private readonly allowed: readonly Buffer[],
  ) {
    super(socket);
  }
  override getIdentities(cb: Parameters<OpenSSHAgent["getIdentities"]>[0]): void {
    super.getIdentities((err, keys) =>
      cb(
        err,
        keys?.filter((k) => this.allowed.some((a) => a.equals((k as ParsedKey).getPublicSSH()))),
      ),
    );
  }
}

/** The public half of a key file (FILE.pub, as ssh reads it for the agent), or null. */
function publicOf(file: string): Buffer | null {
  try {
    const k = ssh2.utils.parseKey(readFileSync(`${file}.pub`, "utf8"));
    return k instanceof Error ? null : (Array.isArray(k) ? k[0]! : k).getPublicSSH();
  } catch {
    return null;
  }
}

/** A key file ssh2 can use as it is: readable, and not encrypted unless its passphrase is given. */
function usable(file: string, passphrase: string | undefined): Buffer | null {
  try {
    const buf = readFileSync(file);
    return ssh2.utils.parseKey(buf, passphrase) instanceof Error ? null : buf;
  } catch {
    return null;
  }
}

function agentOf(u: UserSsh, env: NodeJS.ProcessEnv): BaseAgent | string | undefined {
  const sock = env.SSH_AUTH_SOCK;
  if (!sock || !existsSync(sock)) return undefined;
  if (!u.identitiesOnly) return sock;
  const allowed = u.keyFiles.map(publicOf).filter((b): b is Buffer => b !== null);
  return allowed.length ? new OnlyTheseKeys(sock, allowed) : undefined;
}

export async function resolveAuth(
  u: UserSsh,
  opts: { privateKey?: string | Buffer; passphrase?: string; env?: NodeJS.ProcessEnv },
): Promise<Auth> {
  const env = opts.env ?? process.env;
  const t: SshTarget = u.target;
  const agent = agentOf(u, env);
  const withAgent = (privateKey?: string | Buffer): Auth => ({
    ...(privateKey ? { privateKey } : {}),
    ...(agent ? { agent } : {}),
  });
  if (opts.privateKey) return withAgent(opts.privateKey);
  if (t.identityFile) {
    return withAgent(
      await readFile(t.identityFile).catch((e: Error) => {
        throw new HostError(
          "auth",
          `cannot read identityFile ${t.identityFile}: ${e.message}; fix the path in deploy-gate.yml`,
          {
            fix: "fix identityFile (relative to deploy-gate.yml, on the machine that runs the gate); in the action, drop it and set the ssh-key input from a secret",
          },
        );
      }),
    );
  }
  if (env.DEPLOY_GATE_SSH_KEY) return withAgent(env.DEPLOY_GATE_SSH_KEY);
  // ~/.ssh/config's or the default key files: an encrypted one without its passphrase is left to the agent
  const passphrase = opts.passphrase ?? env.DEPLOY_GATE_SSH_PASSPHRASE;
  const file = u.keyFiles.map((f) => usable(f, passphrase)).find((b) => b !== null);
  if (file || agent) return withAgent(file ?? undefined);
  if (u.keyFiles.length) return { privateKey: readFileSync(u.keyFiles[0]!) }; // its passphrase error says what to do
  throw new HostError(
    "auth",
    `no SSH key for ${t.user}@${t.address}: set identityFile in deploy-gate.yml or the env secret DEPLOY_GATE_SSH_KEY (the action's ssh-key input), or load the key into ssh-agent (ssh-add; SSH_AUTH_SOCK is ${env.SSH_AUTH_SOCK ? "set but no agent listens there" : "unset"}) or name it in ~/.ssh/config (IdentityFile)`,
    { fix: KEY_FIX },
  );
}
