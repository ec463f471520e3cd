// ~/.ssh/config resolution, with OpenSSH's own `ssh -G` as the oracle for every case.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandPath, parseJump, parseSshConfig, resolveSshConfig } from "../../../src/ports/host/ssh-config.js";

const dir = mkdtempSync(join(tmpdir(), "dg-sshcfg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEFAULT_IDS = ["id_rsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk", "id_xmss", "id_dsa"].map(
  (f) => `~/.ssh/${f}`,
);

/** What `ssh -G` resolves for host under this config: the fields deploy-gate reads. */
function oracle(config: string, host: string) {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, config);
  const out = execFileSync("ssh", ["-G", "-F", file, host], {
    encoding: "utf8",
    env: { ...process.env, HOME: dir },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const all = (k: string) =>
    out
      .split("\n")
      .filter((l) => l.startsWith(`${k} `))
      .map((l) => l.slice(k.length + 1));
  return {
    hostname: all("hostname")[0],
    user: all("user")[0],
    port: Number(all("port")[0]),
    identityFiles: all("identityfile"),
    proxyJump: all("proxyjump")[0],
    identitiesOnly: all("identitiesonly")[0] === "yes",
  };
}

/** Ours, with ssh's defaults filled in where the config says nothing. */
function ours(config: string, host: string) {
  const v = resolveSshConfig(parseSshConfig(config), host);
  return {
    hostname: v.hostname ?? host.toLowerCase(),
    user: v.user ?? userInfo().username,
    port: v.port ?? 22,
    identityFiles: v.identityFiles.length ? v.identityFiles : DEFAULT_IDS,
    proxyJump: v.proxyJump === "none" ? undefined : v.proxyJump,
    identitiesOnly: v.identitiesOnly ?? false,
  };
}

const CONFIGS: Record<string, string> = {
  "first value wins, IdentityFile adds up, negation refuses a block": `
Host gpu* !gpu9
  HostName %h.lan
  User dank
  IdentityFile ~/.ssh/gpu_key
Host gpu1
  Port 2222
  User other
Host *
  IdentityFile ~/.ssh/id_extra
  ProxyJump jumper@bastion:2200
  IdentitiesOnly yes
`,
  "Key=value, quotes, case-blind keywords, settings before any Host": `
user = early
HOSTNAME "10.0.0.7"
Host alias other
  port=2200
  IdentityFile "~/.ssh/with space"
Host alias
  ProxyJump none
`,
  "? wildcards, case of the host as given, Match blocks skipped": `
Host web?? 
  User w
Match host nothing-matches-this
  User m
Host WEB01
  Port 2201
Host *
  Port 2202
`,
};
const HOSTS = ["gpu1", "gpu2", "gpu9", "alias", "other", "none", "web01", "WEB01", "web1"];

describe("ssh_config resolution matches ssh -G", () => {
  for (const [name, config] of Object.entries(CONFIGS))
    it(name, () => {
      for (const host of HOSTS) expect({ host, ...ours(config, host) }).toEqual({ host, ...oracle(config, host) });
    });
});

describe("ProxyJump hops and path tokens", () => {
  it("reads [user@]host[:port] and ssh:// hops", () => {
    expect(parseJump("jumper@bastion:2200")).toEqual({ user: "jumper", host: "bastion", port: 2200 });
    expect(parseJump("bastion")).toEqual({ host: "bastion" });
    expect(parseJump("ssh://u@[fe80::1]:22")).toEqual({ user: "u", host: "fe80::1", port: 22 });
    expect(parseJump("a b")).toBeNull();
  });
  it("expands ~ and %d %u %h %r %%", () => {
    const t = { home: "/home/me", localUser: "me", host: "gpu1.lan", user: "dank" };
    expect(expandPath("~/.ssh/%h_%r_%u%%", t)).toBe("/home/me/.ssh/gpu1.lan_dank_me%");
    expect(expandPath("%d/k", t)).toBe("/home/me/k");
  });
});
