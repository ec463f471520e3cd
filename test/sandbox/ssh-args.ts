// OpenSSH client arguments that reach the sandbox host with its pinned key and nothing else.
import type { SandboxStatus } from "./machine.js";

export function sshArgs(
  s: Pick<SandboxStatus, "address" | "sshPort" | "user" | "identityFile">,
  knownHostsFile: string,
): string[] {
  return [
    "-i",
    s.identityFile,
    "-p",
    String(s.sshPort),
    "-o",
    "IdentitiesOnly=yes",
    "-o",
    "BatchMode=yes",
    "-o",
    `UserKnownHostsFile=${knownHostsFile}`,
    "-o",
    "GlobalKnownHostsFile=/dev/null",
    "-o",
    "StrictHostKeyChecking=yes",
    "-o",
    "LogLevel=ERROR",
    `${s.user}@${s.address}`,
  ];
}
