// verify.restarts: systemd's automatic-restart counter against the declared bound.
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { HostFacts } from "./facts-parse.js";

export const CHECK = "verify.restarts";

export function checkRestarts(
  facts: Pick<HostFacts, "nRestarts" | "nRestartsRaw" | "activeState">,
  service: string | null,
  bound: number,
  /** NRestarts the deploy's restart left (a count kept from the crash loop it replaced); 0 when verify runs alone */
  baseline = 0,
): Finding {
  if (!service)
    return skip(CHECK, "no `service` in the endpoint config: nothing to count restarts of", {
      fix: "add `service: NAME.service` to the endpoint in deploy-gate.yml",
    });
  const evidence = [
    `systemctl show -p NRestarts --value ${service}: ${facts.nRestartsRaw || "(nothing)"}`,
    `ActiveState: ${facts.activeState ?? "unknown"}`,
  ];
  if (facts.nRestarts === null) {
    return fail(CHECK, `could not read NRestarts of ${service}`, {
      evidence,
      fix: `check the unit exists on the host: systemctl status ${service}`,
    });
  }
  // a manual restart since the deploy flushes the count below the baseline: then every restart is the new engine's
  const kept = facts.nRestarts >= baseline ? baseline : 0;
  const n = facts.nRestarts - kept;
  if (kept > 0)
    evidence.push(`${kept} of them kept from the crash loop the deploy's restart replaced (systemd keeps the count)`);
  const data = { nRestarts: n, bound, activeState: facts.activeState, ...(kept ? { kept } : {}) };
  if (n > bound) {
    return fail(CHECK, `${service} restarted ${n} time(s) since it was started (bound ${bound}): a restart loop`, {
      evidence,
      data,
      fix: `read why it dies: journalctl -u ${service} -o json > boot.json && deploy-gate explain boot.json; then systemctl reset-failed ${service} resets the count (a restart alone keeps it when the unit was waiting to restart)`,
    });
  }
  return pass(CHECK, `${service}: NRestarts ${n} (bound ${bound})`, { evidence, data });
}
