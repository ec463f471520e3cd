// The sandbox root's recipe: every input that shapes the built root file system. The cache key is a
// hash of this object, so changing any file below (or the outer node binary) builds a new root.
import { createHash } from "node:crypto";
import { ENGINE_IMAGE, HOST_ADDRESS, networkFile, SSH_PORT } from "./settings.js";

export const INCLUDES = [
  "systemd",
  "systemd-sysv",
  "dbus",
  "openssh-server",
  "podman",
  "netavark",
  "aardvark-dns",
  "iptables",
  "curl",
  "busybox-static",
  // Ansible's modules run under the host's python3 (test/e2e/ansible-fleet.test.ts)
  "python3",
  // Debian 12's compose (1.0.3): an endpoint whose unit runs `podman-compose up` (test/e2e/deploy-compose.test.ts)
  "podman-compose",
] as const;

export const IMPORT_SCRIPT = `#!/bin/sh
# Builds the engine double's image from the root kept in the machine plus the bound script dir.
set -eu
rm -rf /var/lib/engine/rootfs/app
cp -r /var/lib/engine/app /var/lib/engine/rootfs/app
tar -C /var/lib/engine/rootfs -cf - . | podman import --change 'ENTRYPOINT ["/bin/node","/app/engine.mjs"]' - ${ENGINE_IMAGE}
`;

/** Files written into the root, path (relative to the root) -> [mode, content]. */
export function recipeFiles(): Record<string, [number, string]> {
  return {
    "etc/ssh/sshd_config.d/sandbox.conf": [
      0o644,
      [
        `Port ${SSH_PORT}`,
        "PermitRootLogin prohibit-password",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UseDNS no",
        // Keys are made per `up` on the outer machine and bound in read-only, so the root stays generic.
        "HostKey /etc/ssh/sandbox-keys/ssh_host_ed25519_key",
        "AuthorizedKeysFile /etc/ssh/sandbox-keys/authorized_keys",
        "",
      ].join("\n"),
    ],
    "etc/systemd/network/10-host0.network": [0o644, networkFile(HOST_ADDRESS)],
    "etc/containers/containers.conf.d/sandbox.conf": [0o644, '[containers]\nkeyring = false\ncgroups = "disabled"\n'],
    "usr/local/sbin/import-engine-image": [0o755, IMPORT_SCRIPT],
    "etc/systemd/system/engine-image.service": [
      0o644,
      [
        "[Unit]",
        "Description=Import the engine double image",
        "After=local-fs.target",
        "[Service]",
        "Type=oneshot",
        "RemainAfterExit=yes",
        "ExecStart=/usr/local/sbin/import-engine-image",
        "[Install]",
        "WantedBy=multi-user.target",
        "",
      ].join("\n"),
    ],
    "etc/hostname": [0o644, "sandbox\n"],
  };
}

export interface Recipe {
  suite: string;
  includes: readonly string[];
  files: Record<string, [number, string]>;
  nodeVersion: string;
  version: number;
}

export function recipe(suite: string, nodeVersion: string): Recipe {
  return { suite, includes: INCLUDES, files: recipeFiles(), nodeVersion, version: 2 };
}

export function recipeHash(r: Recipe): string {
  return createHash("sha256").update(JSON.stringify(r)).digest("hex").slice(0, 16);
}

/** The Debian mirror and suite from the machine's own apt sources (deb822 or one-line format). */
export function debianMirror(sources: string, suite: string): string | null {
  for (const stanza of sources.split(/\n\s*\n/)) {
    const uris = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
    const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1]?.split(/\s+/) ?? [];
    if (uris && suites.includes(suite)) return uris;
  }
  for (const line of sources.split("\n")) {
    const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s/.exec(line.trim());
    if (m && m[2] === suite) return m[1]!;
  }
  return null;
}

/** Shared libraries named by `ldd` output (absolute paths only; the vDSO has none). */
export function lddPaths(lddOutput: string): string[] {
  const out: string[] = [];
  for (const line of lddOutput.split("\n")) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) out.push(m[1]!);
  }
  return out;
}
