// Which known_hosts lines name a host, against OpenSSH's own answer (`ssh-keygen -F`, its hostfile.c and
// match.c): patterns, negation, ports, case, and hashed names (`ssh-keygen -H`). A line that does not
// name the host pins nothing for it, even when it is the only line (issue 27).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { matchesHost, pinFrom } from "../../../src/ports/host/hostkey.js";

const dir = mkdtempSync(join(tmpdir(), "dg-kh-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "k")]);
const KEY = readFileSync(join(dir, "k.pub"), "utf8").split(" ").slice(0, 2).join(" ");

const PATTERNS = [
  "gpu1.lan",
  "*.lan,!gpu2.lan",
  "[gpu3.lan]:2222",
  "GPU4.LAN",
  "gpu?.lab",
  "10.0.0.*,!10.0.0.13",
  "[10.0.0.7]:22",
  "!gpu1.lan",
  "gpu6.lan,gpu7.lan",
];
const QUERIES: [string, number][] = [
  ["gpu1.lan", 22],
  ["gpu2.lan", 22],
  ["gpu3.lan", 2222],
  ["gpu3.lan", 22],
  ["gpu4.lan", 22],
  ["gpu5.lab", 22],
  ["gpu55.lab", 22],
  ["10.0.0.7", 22],
  ["10.0.0.13", 22],
  ["10.0.0.7", 2200],
  ["gpu7.lan", 22],
  ["elsewhere.example", 22],
];

/** The 1-based lines `ssh-keygen -F` finds for a host in a file. */
function openssh(file: string, address: string, port: number): number[] {
  const name = port === 22 ? address : `[${address}]:${port}`;
  let out = "";
  try {
    out = execFileSync("ssh-keygen", ["-F", name, "-f", file], { encoding: "utf8" });
  } catch {
    return []; // exit 1: not found
  }
  return [...out.matchAll(/found: line (\d+)/g)].map((m) => Number(m[1]));
}

describe("known_hosts host patterns", () => {
  const plain = join(dir, "known_hosts");
  writeFileSync(plain, PATTERNS.map((p) => `${p} ${KEY}\n`).join(""));

  it.each(QUERIES)("%s port %i: the lines OpenSSH finds", (address, port) => {
    const ours = PATTERNS.flatMap((p, i) => (matchesHost(p, address, port) ? [i + 1] : []));
    expect(ours).toEqual(openssh(plain, address, port));
  });

  it("hashed names (ssh-keygen -H) match as OpenSSH matches them", () => {
    const names = ["gpu1.lan", "[gpu3.lan]:2222", "10.0.0.42"];
    const hashed = join(dir, "hashed");
    writeFileSync(hashed, names.map((n) => `${n} ${KEY}\n`).join(""));
    execFileSync("ssh-keygen", ["-H", "-f", hashed], { stdio: "ignore" });
    const lines = readFileSync(hashed, "utf8").trim().split("\n");
    expect(lines.every((l) => l.startsWith("|1|"))).toBe(true);
    for (const [address, port] of [
      ["gpu1.lan", 22],
      ["gpu3.lan", 2222],
      ["gpu3.lan", 22],
      ["10.0.0.42", 22],
      ["10.0.0.4", 22],
    ] as const) {
      const ours = lines.flatMap((l, i) => (matchesHost(l.split(" ")[0]!, address, port) ? [i + 1] : []));
      expect(ours, `${address}:${port}`).toEqual(openssh(hashed, address, port));
    }
  });

  it("one line for another host, or negating this one, pins nothing here", () => {
    expect(pinFrom({ address: "gpu9.lan", port: 22, knownHosts: `gpu1.lan ${KEY}` })).toBeNull();
    expect(pinFrom({ address: "gpu1.lan", port: 22, knownHosts: `!gpu1.lan ${KEY}` })).toBeNull();
    expect(pinFrom({ address: "gpu1.lan", port: 2222, knownHosts: `gpu1.lan ${KEY}` })).toBeNull();
    expect(pinFrom({ address: "gpu1.lan", port: 22, knownHosts: `gpu1.lan ${KEY}` })?.fingerprints.size).toBe(1);
  });
});
