// Whether a failed deploy may be rolled back automatically, from its findings alone. Pure.
import type { Finding } from "../../domain/report/finding.js";

/** A deploy changed the host when it got past the lock (install, restart or later findings exist). */
export function deployChanged(findings: readonly Finding[]): boolean {
  return findings.some(
    (f) => ["deploy.install", "deploy.restart", "deploy.ready"].includes(f.check) && !f.data?.rollback,
  );
}

/** A deploy whose lock another run cleared and took: that run owns the endpoint now. */
export const lockLost = (findings: readonly Finding[]): boolean =>
  findings.some((f) => f.check === "deploy.lock" && f.data?.lost === true);

/** Why an auto-rollback must not run after this failed deploy, or null when it should. */
export function rollbackBlocked(findings: readonly Finding[]): string | null {
  if (lockLost(findings))
    return "another run took the deploy lock during this deploy: rolling back would overwrite its deploy";
  if (!deployChanged(findings))
    return "this run did not change the host (it stopped before installing anything), so there is nothing of it to roll back";
  return null;
}
