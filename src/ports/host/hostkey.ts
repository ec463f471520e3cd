// Host key pinning: a SHA256 fingerprint or known_hosts text. Pure; ssh2's hostVerifier calls verify().
import { createHash, createHmac } from "node:crypto";

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

/** OpenSSH's wildcard match (match.c): `*` any run, `?` one character; host names case-blind (known_hosts). */
export function wildcard(pattern: string, name: string, caseBlind = true): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${re}$`, caseBlind ? "i" : "").test(name);
}

/** A hashed name (`|1|salt|hash`, ssh-keygen -H): HMAC-SHA1 of the name as known_hosts writes it. */
function hashedMatch(pattern: string, name: string): boolean {
  const [, kind, salt, hash] = pattern.split("|");
  if (kind !== "1" || !salt || !hash) return false;
  return createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64") === hash;
}

/**
 * Whether a known_hosts host field names this host, as OpenSSH reads it (hostfile.c, match.c): a comma
 * list of patterns with `*` and `?`, `[host]:port` off port 22, hashed names; any negated pattern
 * (`!pattern`) that matches refuses the line, whatever else matches.
 */
export function matchesHost(patterns: string, address: string, port: number): boolean {
  const names = [port === 22 ? address : `[${address}]:${port}`]; // OpenSSH never looks up "[host]:22"
  let positive = false;
  for (const raw of patterns.split(",")) {
    const negated = raw.startsWith("!");
    const p = negated ? raw.slice(1) : raw;
    const hit = names.some((n) => (p.startsWith("|") ? hashedMatch(p, n) : wildcard(p, n)));
    if (hit && negated) return false;
    if (hit) positive = true;
  }
  return positive;
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
    // Only a line whose pattern names this host pins it, as OpenSSH: one line for another host (or a
    // negated pattern) trusts nothing here, even when it is the only line given.
    if (matchesHost(hosts, target.address, target.port)) {
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
