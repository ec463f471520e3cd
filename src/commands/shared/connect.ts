// The pinned SSH connection a verb opens to an endpoint's host: a refused connection is a finding (with
// a fix per cause), never a crash; withHost() always closes what it opened.
import type { Endpoint } from "../../domain/config/schema.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { HostError } from "../../ports/host/errors.js";
import type { Host } from "../../ports/host/host.js";
import { SshHost } from "../../ports/host/ssh.js";
import { describeTarget, effectiveTarget, sshOptions, type HostOverride } from "../../ports/host/target.js";
import type { Options } from "../options.js";

export type HostEndpoint = Endpoint & Required<Pick<Endpoint, "host">>;

/** Connect with the endpoint's pin (and its jump host's); a refused connection is a finding, not a crash. */
export async function connect(
  ep: HostEndpoint,
  opts: Options,
  configDir: string,
): Promise<{ host: Host | null; finding: Finding }> {
  const target = effectiveTarget(ep.host, null, configDir);
  const where = describeTarget(target);
  try {
    const host = await SshHost.connect(target, sshOptions(target, { timeoutMs: opts.connectTimeoutMs ?? 20_000 }));
    return {
      host,
      finding: pass("deploy.connect", `connected to ${where} (host key pinned)`, { data: { host: where } }),
    };
  } catch (e) {
    if (e instanceof HostError) {
      return {
        host: null,
        finding: fail("deploy.connect", `cannot connect to ${where}: ${e.message}`, {
          fix: inputFix(e.kind, opts.hostOverride) ?? e.fix ?? connectFix(e.kind, where),
          data: { host: where, kind: e.kind },
        }),
      };
    }
    throw e;
  }
}

/** When the Action's inputs set the value at fault, the fix names those inputs, not the config's keys. */
function inputFix(kind: HostError["kind"], o: HostOverride | null): string | null {
  if (!o) return null;
  const where = [o.address !== undefined && "host", o.port !== undefined && "port"].filter(Boolean).join(" and ");
  if ((kind === "unreachable" || kind === "timeout") && where)
    return `nothing answered where the action's ${where} input${where.includes(" and ") ? "s" : ""} point: check the secrets they read, and that sshd runs there`;
  if ((kind === "no-pin" || kind === "host-key-mismatch") && (o.hostKey || o.knownHosts))
    return `the pin came from the action's ${o.hostKey ? "host-key" : "known-hosts"} input: if the host was reinstalled, verify its new key out of band and update the secret that input reads; otherwise stop, this may be another machine`;
  if (kind === "auth" && o.user !== undefined)
    return "the key was refused for the action's user input: check that input's value, and that the ssh-key input's public key is in that user's authorized_keys";
  return null;
}

function connectFix(kind: HostError["kind"], where: string): string {
  switch (kind) {
    case "no-pin":
      return "pin the host key: add host.hostKey (SHA256:...) or host.knownHosts to the endpoint (host.jump.hostKey for a jump host; or the action's host-key / jump-host-key input), with the line in the message above; never trust on first use";
    case "host-key-mismatch":
      return `the host's key is not the pinned one: if the host was reinstalled, verify the new key out of band and update the pin; otherwise stop, this may be a different machine than ${where}`;
    case "auth":
      return "the key was refused: check host.user, and that the public key of identityFile / DEPLOY_GATE_SSH_KEY is in the user's authorized_keys";
    case "timeout":
      return "no SSH handshake in time: check the address and port, and whether a firewall drops the connection";
    case "unreachable":
      return "nothing answers on that address and port: check host.address and host.port, and that sshd runs";
    default:
      return "retry; if it persists, check sshd's log on the host";
  }
}

/** connect, run fn on the host, always close; a refused connection goes to refused (its finding). */
export async function withHost<T>(
  ep: HostEndpoint,
  opts: Options,
  configDir: string,
  refused: (f: Finding) => T,
  fn: (host: Host) => Promise<T>,
): Promise<T> {
  const { host, finding } = await connect(ep, opts, configDir);
  if (!host) return refused(finding);
  try {
    return await fn(host);
  } finally {
    await host.close();
  }
}
