// Host key pinning: a SHA256 fingerprint or known_hosts text. Pure; ssh2's hostVerifier calls verify().
import { createHash } from "node:crypto";

export interface Pin { fingerprints: Set<string>; revoked: Set<string> }

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
  if (target.hostKey) fps.add(target.hostKey.replace(/=+$/, ""));
  const lines = (target.knownHosts ?? "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  for (const line of lines) {
    const parts = line.split(/\s+/);
    const marker = parts[0]?.startsWith("@") ? parts[0] : null;
    const [hosts, , b64] = marker ? parts.slice(1) : parts;
    if (!hosts || !b64) continue;
    const fp = fingerprint(Buffer.from(b64, "base64"));
    // @revoked refuses its key whatever the host pattern says, and wins over any line trusting it.
    if (marker === "@revoked") { revoked.add(fp); continue; }
    // @cert-authority signs host certificates; its key is never a host key. Unknown markers: not a pin.
    if (marker) continue;
    // A single line without a host pattern that fits is still taken when it is the only entry given.
    if (matchesHost(hosts, target.address, target.port) || lines.length === 1) fps.add(fp);
  }
  for (const fp of revoked) fps.delete(fp);
  return fps.size > 0 || revoked.size > 0 ? { fingerprints: fps, revoked } : null;
}

export function knownHostsLine(address: string, port: number, key: Buffer): string {
  const host = port === 22 ? address : `[${address}]:${port}`;
  return `${host} ${keyType(key)} ${key.toString("base64")}`;
}
