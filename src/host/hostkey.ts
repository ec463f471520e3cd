// Host key pinning: a SHA256 fingerprint or known_hosts text. Pure; ssh2's hostVerifier calls verify().
import { createHash } from "node:crypto";

export interface Pin { fingerprints: Set<string> }

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
  if (target.hostKey) fps.add(target.hostKey.replace(/=+$/, ""));
  for (const line of (target.knownHosts ?? "").split("\n")) {
    const t = line.trim();
    if (!t || t.startsWith("#")) continue;
    const parts = t.split(/\s+/);
    const [hosts, , b64] = parts[0]?.startsWith("@") ? parts.slice(1) : parts;
    if (!hosts || !b64) continue;
    // A single line without a host pattern that fits is still taken when it is the only entry given.
    if (matchesHost(hosts, target.address, target.port) || (target.knownHosts ?? "").trim().split("\n").length === 1) {
      fps.add(fingerprint(Buffer.from(b64, "base64")));
    }
  }
  return fps.size > 0 ? { fingerprints: fps } : null;
}

export function knownHostsLine(address: string, port: number, key: Buffer): string {
  const host = port === 22 ? address : `[${address}]:${port}`;
  return `${host} ${keyType(key)} ${key.toString("base64")}`;
}
