// One SSH target in deploy-gate.yml: address, port, user, the pinned host key, and an optional jump
// host pinned the same way (host:, peer:, hosts:).
import * as z from "zod";

const sshFields = {
  address: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9.:_\-[\]]+$/, "expected a host name or IP address"),
  port: z.number().int().min(1).max(65535).default(22),
  // No regex flags: JSON Schema patterns have none, and the editor must accept what the CLI does.
  // absent: ~/.ssh/config's User for this host, else the local user name, as ssh does
  user: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "expected a user name (letters, digits, _ . -)")
    .optional(),
  hostKey: z
    .string()
    .regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, 'expected an OpenSSH fingerprint "SHA256:..." (ssh-keygen -lf KEY)')
    .optional(),
  knownHosts: z.string().min(1).optional(),
  identityFile: z.string().min(1).optional(),
};
/** A jump host (ssh -J): pinned like every host; no jump of its own. */
const jumpTarget = z.strictObject(sshFields);
export const sshTarget = z.strictObject({ ...sshFields, jump: jumpTarget.optional() });
