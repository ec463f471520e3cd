// Host key pinning: a SHA256 fingerprint or known_hosts text. Pure; ssh2's hostVerifier calls verify().
import { createHash } from "node:crypto";

export interface Pin {
  fingerprints: Set<string>;
  revoked: Set<string>;
  /** the key types of the pinned keys; null when one is unknown (a SHA256: fingerprint names no type) */
  types: Set<string> | null;
}

export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

/** The key's type from its SSH wire encoding (string type || ...). */
export function keyType(key: Buffer): string {
  if (key.length < 4) return "unknown";
  const n = key.readUInt32BE(0);
  return key.subarray(4, 4 + n).toString("latin1");
}

/** known_hosts patterns that name this host: `host`, `[host]:port`, comma lists. Hashed names are not matched. */
function matchesHost(patterns: string, address: string, port: number): boolean {
  const want = port === 22 ? [address, `[${address}]:22`] : [`[${address}]:${port}`];
  return patterns.split(",").some((p) => want.includes(p));
}

export function pinFrom(target: { address: string; port: number; hostKey?: string; knownHosts?: string }): Pin | null {
  const fps = new Set<string>();
  const revoked = new Set<string>();
  let types: Set<string> | null = new Set();
  if (target.hostKey) {
    fps.add(target.hostKey.replace(/=+$/, ""));
    types = null;
  }
  const lines = (target.knownHosts ?? "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (const line of lines) {
    const parts = line.split(/\s+/);
    const marker = parts[0]?.startsWith("@") ? parts[0] : null;
    const [hosts, , b64] = marker ? parts.slice(1) : parts;
    if (!hosts || !b64) continue;
    const blob = Buffer.from(b64, "base64");
    const fp = fingerprint(blob);
    // @revoked refuses its key whatever the host pattern says, and wins over any line trusting it.
    if (marker === "@revoked") {
      revoked.add(fp);
      continue;
    }
    // @cert-authority signs host certificates; its key is never a host key. Unknown markers: not a pin.
    if (marker) continue;
    // A single line without a host pattern that fits is still taken when it is the only entry given.
    if (matchesHost(hosts, target.address, target.port) || lines.length === 1) {
      fps.add(fp);
      types?.add(keyType(blob));
    }
  }
  for (const fp of revoked) fps.delete(fp);
  return fps.size > 0 || revoked.size > 0 ? { fingerprints: fps, revoked, types: fps.size > 0 ? types : null } : null;
}

/** The host key algorithms (RFC 8332 signatures for an RSA key) of each key type the client speaks. */
const ALGORITHMS: Record<string, string[]> = {
  "ssh-ed25519": ["ssh-ed25519"],
  "ecdsa-sha2-nistp256": ["ecdsa-sha2-nistp256"],
  "ecdsa-sha2-nistp384": ["ecdsa-sha2-nistp384"],
  "ecdsa-sha2-nistp521": ["ecdsa-sha2-nistp521"],
  "ssh-rsa": ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"],
};

/**
 * What to ask the host for, as OpenSSH does from known_hosts: the pinned keys' types only. Without it, a host
 * with an ed25519 and an RSA key pinned by its RSA line offers ed25519 first and is refused as a mismatch.
 * null (the client's default order): a fingerprint pin of unknown type, or a type the client does not speak.
 */
export function hostKeyAlgorithms(pin: Pin | null): string[] | null {
  if (!pin?.types?.size || [...pin.types].some((t) => !ALGORITHMS[t])) return null;
  return [...pin.types].flatMap((t) => ALGORITHMS[t]!);
}

export function knownHostsLine(address: string, port: number, key: Buffer): string {
  const host = port === 22 ? address : `[${address}]:${port}`;
  return `${host} ${keyType(key)} ${key.toString("base64")}`;
}
