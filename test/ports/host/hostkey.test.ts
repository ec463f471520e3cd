// Host key pinning helpers against keys made by the real ssh-keygen.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fingerprint, keyType, knownHostsLine, pinFrom } from "../../../src/ports/host/hostkey.js";

function makeKey(type: string) {
  const dir = mkdtempSync(join(tmpdir(), "dg-hostkey-"));
  const f = join(dir, "k");
  execFileSync("ssh-keygen", ["-q", "-t", type, "-N", "", "-f", f]);
  const pub = readFileSync(`${f}.pub`, "utf8").trim();
  const [t, b64] = pub.split(/\s+/);
  const fp = execFileSync("ssh-keygen", ["-l", "-E", "sha256", "-f", `${f}.pub`], { encoding: "utf8" }).split(
    /\s+/,
  )[1]!;
  return { type: t!, b64: b64!, blob: Buffer.from(b64!, "base64"), fp };
}

describe("host key pins", () => {
  const ed = makeKey("ed25519");
  const ec = makeKey("ecdsa");

  it("computes the same SHA256 fingerprint and key type as ssh-keygen", () => {
    expect(fingerprint(ed.blob)).toBe(ed.fp);
    expect(fingerprint(ec.blob)).toBe(ec.fp);
    expect(keyType(ed.blob)).toBe("ssh-ed25519");
    expect(keyType(ec.blob)).toBe(ec.type);
  });

  it("reads a pin from known_hosts lines that name the host and port", () => {
    const text = [`# comment`, `other.host ${ec.type} ${ec.b64}`, `[10.0.0.9]:2222 ${ed.type} ${ed.b64}`].join("\n");
    const pin = pinFrom({ address: "10.0.0.9", port: 2222, knownHosts: text });
    expect([...pin!.fingerprints]).toEqual([ed.fp]);
    expect(pinFrom({ address: "10.0.0.9", port: 22, knownHosts: text })).toBeNull();
    expect([...pinFrom({ address: "other.host", port: 22, knownHosts: text })!.fingerprints]).toEqual([ec.fp]);
  });

  it("takes a fingerprint pin with or without base64 padding, and none when nothing is given", () => {
    expect(pinFrom({ address: "h", port: 22, hostKey: `${ed.fp}=` })!.fingerprints.has(ed.fp)).toBe(true);
    expect(pinFrom({ address: "h", port: 22 })).toBeNull();
  });

  it("writes the known_hosts line a user should add, which pins the same key", () => {
    const line = knownHostsLine("10.0.0.9", 2222, ed.blob);
    expect(line).toBe(`[10.0.0.9]:2222 ssh-ed25519 ${ed.b64}`);
    expect(pinFrom({ address: "10.0.0.9", port: 2222, knownHosts: line })!.fingerprints.has(ed.fp)).toBe(true);
    expect(knownHostsLine("gpu1", 22, ed.blob).startsWith("gpu1 ssh-ed25519 ")).toBe(true);
  });

  it("a @revoked line refuses its key even when another line trusts it; @cert-authority lines are not host keys", () => {
    const both = [
      `10.0.0.9 ${ed.type} ${ed.b64}`,
      `@revoked 10.0.0.9 ${ed.type} ${ed.b64}`,
      `10.0.0.9 ${ec.type} ${ec.b64}`,
    ].join("\n");
    const pin = pinFrom({ address: "10.0.0.9", port: 22, knownHosts: both })!;
    expect(pin.fingerprints.has(ed.fp)).toBe(false);
    expect(pin.fingerprints.has(ec.fp)).toBe(true);
    expect(pin.revoked.has(ed.fp)).toBe(true);
    // the only line given, revoked: nothing pinned (fail closed)
    expect(
      pinFrom({ address: "10.0.0.9", port: 22, knownHosts: `@revoked 10.0.0.9 ${ed.type} ${ed.b64}` })?.fingerprints
        .size ?? 0,
    ).toBe(0);
    // a revoked key named by hostKey is refused too
    expect(
      pinFrom({
        address: "10.0.0.9",
        port: 22,
        hostKey: ed.fp,
        knownHosts: `@revoked * ${ed.type} ${ed.b64}`,
      })?.fingerprints.has(ed.fp) ?? false,
    ).toBe(false);
    expect(
      pinFrom({ address: "10.0.0.9", port: 22, knownHosts: `@cert-authority 10.0.0.9 ${ed.type} ${ed.b64}` }),
    ).toBeNull();
    expect(
      pinFrom({
        address: "10.0.0.9",
        port: 22,
        knownHosts: `@cert-authority *.lan ${ed.type} ${ed.b64}\n10.0.0.9 ${ec.type} ${ec.b64}`,
      })!.fingerprints,
    ).toEqual(new Set([ec.fp]));
  });
});
