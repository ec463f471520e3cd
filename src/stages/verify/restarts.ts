// verify.restarts: systemd's automatic-restart counter against the declared bound.
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { HostFacts } from "./facts-parse.js";

export const CHECK = "verify.restarts";

export function checkRestarts(
  facts: Pick<HostFacts, "nRestarts" | "nRestartsRaw" | "activeState">,
  service: string | null,
  bound: number,
): Finding {
  if (!service)
    return skip(CHECK, "no `service` in the endpoint config: nothing to count restarts of", {
      fix: "add `service: NAME.service` to the endpoint in deploy-gate.yml",
    });
  const evidence = [
    `systemctl show -p NRestarts --value ${service}: ${facts.nRestartsRaw || "(nothing)"}`,
    `ActiveState: ${facts.activeState ?? "unknown"}`,
  ];
  const n = facts.nRestarts;
  if (n === null) {
    return fail(CHECK, `could not read NRestarts of ${service}`, {
      evidence,
      fix: `check the unit exists on the host: systemctl status ${service}`,
    });
  }
  const data = { nRestarts: n, bound, activeState: facts.activeState };
  if (n > bound) {
    return fail(CHECK, `${service} restarted ${n} time(s) since it was started (bound ${bound}): a restart loop`, {
      evidence,
      data,
      fix: `read why it dies: journalctl -u ${service} -o json > boot.json && deploy-gate explain boot.json; then systemctl reset-failed ${service} resets the count (a restart alone keeps it when the unit was waiting to restart)`,
    });
  }
  return pass(CHECK, `${service}: NRestarts ${n} (bound ${bound})`, { evidence, data });
}
