// One ssh2 connection with a pinned host key and plain-words errors; optionally through a jump host.
import { Client, type ConnectConfig } from "ssh2";
import type { Duplex } from "node:stream";
import type { SshTarget } from "../../domain/config/schema.js";
import { shellQuote } from "../../lib/shell-quote.js";
import type { Auth } from "./auth.js";
import { classifyConnectError, HostError } from "./errors.js";
import { fingerprint, hostKeyAlgorithms, keyType, knownHostsLine, pinFrom } from "./hostkey.js";

export interface ConnectOptions {
  privateKey?: string | Buffer;
  /** of an encrypted private key; default: env DEPLOY_GATE_SSH_PASSPHRASE (never argv) */
  passphrase?: string;
  timeoutMs?: number;
  keepaliveMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** knownHosts given but no key read from it for this host: say why, or the user believes a pin exists. */
function knownHostsNote(t: SshTarget): string {
  const lines = (t.knownHosts ?? "").split("\n").filter((l) => l.trim() && !l.trim().startsWith("#")).length;
  if (lines === 0) return "";
  return ` (knownHosts has ${lines} line(s), none a key for ${t.port === 22 ? t.address : `[${t.address}]:${t.port}`}: each line is \`HOST KEYTYPE BASE64\` as ssh-keyscan prints it; hashed |1| names are not matched)`;
}

export function targetName(t: SshTarget): string {
  return `${t.user}@${t.address}:${t.port}`;
}

/** What to run to see and pin the host's key, when the pin comes from known_hosts files. */
function knownHostsFix(t: SshTarget, files: readonly string[], changed: boolean): string {
  const name = shellQuote(t.port === 22 ? t.address : `[${t.address}]:${t.port}`);
  const file = shellQuote(files[0]!);
  const scan = `ssh-keyscan -p ${t.port} ${shellQuote(t.address)}`;
  const check = `compare \`${scan} | ssh-keygen -lf -\` with \`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub\` run on the host's console`;
  return changed
    ? `if the host was reinstalled on purpose, ${check}; then \`ssh-keygen -R ${name} -f ${file}\` and \`${scan} >> ${file}\`; otherwise do not connect`
    : `${check}; when they match, \`${scan} >> ${file}\` (or pin host.hostKey in deploy-gate.yml); never trust on first use`;
}

export function openClient(
  target: SshTarget,
  auth: Auth,
  opts: ConnectOptions & { pinFiles?: readonly string[] | null },
  sock?: Duplex,
): Promise<Client> {
  const pin = pinFrom(target);
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const name = targetName(target);
  let seen: Buffer | null = null;
  const files = opts.pinFiles?.length ? opts.pinFiles : null;
  return new Promise((resolve, reject) => {
    const client = new Client();
    let settled = false;
    const fail = (e: HostError) => {
      if (!settled) {
        settled = true;
        client.end();
        reject(e);
      }
    };
    const cfg: ConnectConfig = {
      host: target.address,
      port: target.port,
      username: target.user,
      ...auth,
      readyTimeout: timeoutMs,
      passphrase: opts.passphrase ?? (opts.env ?? process.env).DEPLOY_GATE_SSH_PASSPHRASE,
      keepaliveInterval: opts.keepaliveMs ?? 15_000,
      keepaliveCountMax: 3,
      ...(sock ? { sock } : {}),
      ...(hostKeyAlgorithms(pin) ? { algorithms: { serverHostKey: hostKeyAlgorithms(pin)! as never } } : {}),
      hostVerifier: (k: Buffer) => {
        seen = k;
        return pin !== null && pin.fingerprints.has(fingerprint(k));
      },
    };
    client.once("ready", () => {
      settled = true;
      resolve(client);
    });
    client.on("error", (err: Error & { level?: string; code?: string }) => {
      if (seen && (!pin || !pin.fingerprints.has(fingerprint(seen)))) {
        const fp = fingerprint(seen);
        fail(
          pin?.revoked.has(fp)
            ? new HostError(
                "host-key-mismatch",
                `host key of ${name} (${fp}) is marked @revoked in knownHosts: refusing to connect. Find out why it was revoked before changing the pin`,
              )
            : pin && pin.fingerprints.size > 0
              ? new HostError(
                  "host-key-mismatch",
                  `host key of ${name} does not match the pin: it offered its ${keyType(seen)} key ${fp}, ${files ? `${files.join(" / ")} pins` : "the config pins"} ${[...pin.fingerprints].join(" or ")}. If the host was reinstalled on purpose, update ${files ? "known_hosts" : "hostKey/knownHosts"}; otherwise do not connect`,
                  files ? { fix: knownHostsFix(target, files, true) } : undefined,
                )
              : files
                ? new HostError(
                    "no-pin",
                    `refusing to connect to ${name}: its ${keyType(seen)} key ${fp} is in none of ${files.join(", ")} and deploy-gate.yml pins none. Verify the key out of band, then add the line "${knownHostsLine(target.address, target.port, seen)}" to ${files[0]}, or hostKey: "${fp}" to the host entry`,
                    { fix: knownHostsFix(target, files, false) },
                  )
                : new HostError(
                    "no-pin",
                    `refusing to connect to ${name}: no host key pinned${knownHostsNote(target)}. Verify the key out of band, then add to the host entry hostKey: "${fp}" or knownHosts: "${knownHostsLine(target.address, target.port, seen)}"`,
                  ),
        );
        return;
      }
      // the host has no key of the pinned type(s) at all: it is refused, as a mismatch, never trusted
      if (!seen && pin?.types?.size && /no matching host key/i.test(err.message ?? "")) {
        fail(
          new HostError(
            "host-key-mismatch",
            `host key of ${name} does not match the pin: it offers no ${[...pin.types].join(" or ")} key, the type the config pins. If the host was reinstalled on purpose, update hostKey/knownHosts; otherwise do not connect`,
          ),
        );
        return;
      }
      fail(classifyConnectError(err, name, timeoutMs));
    });
    client.once("close", () =>
      fail(
        new HostError("closed", `SSH connection to ${name} closed during the handshake: check sshd's logs on the host`),
      ),
    );
    try {
      client.connect(cfg);
    } catch (e) {
      fail(classifyConnectError(e as Error, name, timeoutMs));
    }
  });
}

/**
 * A stream to target through an established jump connection (like ssh -J). ssh2's channel-open request has
 * no timeout of its own: a jump host that never answers it (a firewall dropping the SYNs of its connect, a
 * hung sshd) would hold the connect forever, past --connect-timeout; a stream that opens late is closed.
 */
export function tunnel(jump: Client, target: SshTarget, timeoutMs = 20_000): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(
        new HostError(
          "timeout",
          `the jump host did not open a connection to ${targetName(target)} within ${+(timeoutMs / 1000).toFixed(1)}s: check the target's address and port, and that the jump host can reach it`,
        ),
      );
    }, timeoutMs);
    jump.forwardOut("127.0.0.1", 0, target.address, target.port, (err, stream) => {
      if (expired) {
        stream?.destroy();
        return;
      }
      clearTimeout(timer);
      if (err) reject(new HostError("unreachable", `the jump host cannot reach ${targetName(target)}: ${err.message}`));
      else resolve(stream);
    });
  });
}
