// Per-boot SSH keys: a client key for the harness and a fresh host key that the status pins.
import { mkdir, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { join } from "node:path";
import { sh } from "./proc.js";
import { HOST_ADDRESS, SSH_PORT, statePaths } from "./settings.js";

export interface KeyInfo {
  identityFile: string;
  knownHosts: string;
  hostKeyFingerprint: string;
}

export async function makeKeys(dir: string, address = HOST_ADDRESS): Promise<KeyInfo> {
  const p = statePaths(dir);
  await mkdir(p.keys, { recursive: true, mode: 0o700 });
  const hostKey = join(p.keys, "ssh_host_ed25519_key");
  for (const f of [p.clientKey, `${p.clientKey}.pub`, hostKey, `${hostKey}.pub`]) await rm(f, { force: true });
  await sh("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "deploy-gate-sandbox-client", "-f", p.clientKey]);
  await sh("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "deploy-gate-sandbox-host", "-f", hostKey]);
  const authorized = join(p.keys, "authorized_keys");
  await writeFile(authorized, await readFile(`${p.clientKey}.pub`, "utf8"), { mode: 0o600 });
  await chmod(authorized, 0o600);
  const [type, b64] = (await readFile(`${hostKey}.pub`, "utf8")).trim().split(/\s+/);
  const knownHosts = `[${address}]:${SSH_PORT} ${type} ${b64}`;
  await writeFile(p.knownHosts, `${knownHosts}\n`, { mode: 0o600 });
  const fp = (await sh("ssh-keygen", ["-l", "-E", "sha256", "-f", `${hostKey}.pub`])).stdout.split(/\s+/)[1]!;
  return { identityFile: p.clientKey, knownHosts, hostKeyFingerprint: fp };
}
