// Plain-words errors for SSH failures, instead of ssh2's raw messages.

export type HostErrorKind = "auth" | "host-key-mismatch" | "no-pin" | "unreachable" | "timeout" | "closed";

export class HostError extends Error {
  /** what to do, where the kind's general advice would be wrong (no key is not a refused key) */
  readonly fix?: string;
  constructor(
    readonly kind: HostErrorKind,
    message: string,
    options?: { cause?: unknown; fix?: string },
  ) {
    super(message, options);
    this.name = "HostError";
    if (options?.fix) this.fix = options.fix;
  }
}

/** The gate has no usable private key: nothing was offered to the host, so nothing was refused. */
export const KEY_FIX =
  "give the gate the endpoint's SSH private key: in the action, set the ssh-key input from a repository secret (e.g. secrets.DEPLOY_SSH_KEY); on the command line, a key in ssh-agent (ssh-add), IdentityFile in ~/.ssh/config, env DEPLOY_GATE_SSH_KEY or host.identityFile in deploy-gate.yml";

/** Maps an ssh2 / socket error to a HostError that says what happened and what to do. */
export function classifyConnectError(
  err: Error & { level?: string; code?: string },
  target: string,
  timeoutMs: number,
): HostError {
  const msg = err.message ?? "";
  if (err.level === "client-authentication" || /All configured authentication methods failed/i.test(msg)) {
    return new HostError(
      "auth",
      `SSH authentication to ${target} was refused: check that the key (identityFile or DEPLOY_GATE_SSH_KEY) is in the user's authorized_keys`,
      { cause: err },
    );
  }
  if (/passphrase|Cannot parse privateKey|bad decrypt/i.test(msg)) {
    return new HostError(
      "auth",
      `the SSH private key for ${target} cannot be read: ${/passphrase/i.test(msg) && !/bad decrypt|integrity/i.test(msg) ? "it is encrypted and no passphrase was given" : "wrong passphrase or not a private key"}; set DEPLOY_GATE_SSH_PASSPHRASE (the action's ssh-key-passphrase input)`,
      {
        cause: err,
        fix: "give the key's passphrase: the action's ssh-key-passphrase input (from a secret), or env DEPLOY_GATE_SSH_PASSPHRASE; check that ssh-key / DEPLOY_GATE_SSH_KEY holds the whole private key",
      },
    );
  }
  if (/timed out/i.test(msg) || err.code === "ETIMEDOUT") {
    return new HostError(
      "timeout",
      `SSH to ${target} timed out after ${+(timeoutMs / 1000).toFixed(1)}s: check the address and port, the firewall, and that sshd is running`,
      { cause: err },
    );
  }
  if (
    ["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET"].includes(err.code ?? "")
  ) {
    return new HostError(
      "unreachable",
      `cannot reach ${target} (${err.code}): check the address and port and that sshd is running`,
      { cause: err },
    );
  }
  // something answered on the port, but not with an SSH banner (an HTTP server, the engine itself)
  if (/Connection lost before handshake|bad identification|Protocol mismatch|Bad packet length/i.test(msg)) {
    return new HostError(
      "unreachable",
      `${target} answered, but not as an SSH server (${msg}): host.port must be sshd's port, not the engine's or another service's`,
      { cause: err },
    );
  }
  return new HostError("closed", `SSH connection to ${target} failed: ${msg}`, { cause: err });
}
