// One SSH target in deploy-gate.yml: address, port, user, and the pinned host key (host:, peer:, hosts:).
import * as z from "zod";

export const sshTarget = z.strictObject({
  address: z.string().min(1).regex(/^[A-Za-z0-9.:_\-[\]]+$/, "expected a host name or IP address"),
  port: z.number().int().min(1).max(65535).default(22),
  user: z.string().regex(/^[a-z_][a-z0-9_.-]*$/i, "expected a user name (letters, digits, _ . -)"),
  hostKey: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, 'expected an OpenSSH fingerprint "SHA256:..." (ssh-keygen -lf KEY)').optional(),
  knownHosts: z.string().min(1).optional(),
  identityFile: z.string().min(1).optional(),
});
