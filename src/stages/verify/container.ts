// verify.container: the container answering is the one this deploy created, not an old one left running.
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import type { Deployment } from "../context.js";
import type { ContainerCli } from "../../domain/launch/container-cli.js";
import type { HostFacts } from "./facts-parse.js";

export const CHECK = "verify.container";

function age(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
}

/**
 * `cli` "unit": the engine runs straight under the unit `name` (no container); its current run (InvocationID,
 * start time, main process) is judged the same way: started after the deploy, running.
 */
export function checkContainer(
  facts: Pick<HostFacts, "container" | "inspectError" | "hostNowMs" | "state" | "stateError">,
  name: string,
  deployment: Deployment | null,
  service: string | null = null,
  cli: ContainerCli | "unit" = "podman",
): Finding {
  const c = facts.container;
  if (cli === "unit") return checkUnitRun(facts, name, deployment);
  if (!c) {
    return fail(CHECK, `no container ${name} on the host`, {
      evidence: [`${cli} inspect ${name}: ${facts.inspectError ?? "nothing"}`],
      fix: `the unit is not running a container named ${name} (container: in deploy-gate.yml must be the serve script's ${cli} run --name): ${service ? `systemctl status ${service}; ` : ""}${cli} ps -a --filter name=${name}`,
    });
  }
  const ageMs = c.createdMs !== null && facts.hostNowMs !== null ? facts.hostNowMs - c.createdMs : null;
  const evidence = [
    `container ${c.id.slice(0, 12)} (${name}) ${c.status}, created ${c.createdText}${ageMs === null ? "" : `, ${age(ageMs)} ago on the host clock`}`,
  ];
  const data: Record<string, unknown> = {
    id: c.id,
    created: c.createdText,
    createdMs: c.createdMs,
    ageMs,
    status: c.status,
  };
  if (!c.running) {
    return fail(CHECK, `container ${name} is ${c.status}, not running`, {
      evidence,
      data,
      fix: `read its last boot: journalctl CONTAINER_NAME=${name} -o json > boot.json && deploy-gate explain boot.json`,
    });
  }
  let since: number | null = null;
  if (deployment) {
    since = deployment.startedAtHostMs;
    evidence.push(`deploy began ${new Date(since).toISOString()} (host clock)`);
    if (
      deployment.containerId &&
      !c.id.startsWith(deployment.containerId) &&
      !deployment.containerId.startsWith(c.id)
    ) {
      return fail(
        CHECK,
        `another container answers: ${c.id.slice(0, 12)}, the deploy saw ${deployment.containerId.slice(0, 12)} come up`,
        {
          evidence,
          data,
          fix: `the container was replaced after the deploy (a restart or a hand-run ${cli} run): check journalctl -u ${service ?? "<service>"} and redeploy`,
        },
      );
    }
  } else if (facts.state) {
    since = facts.state.deployedAt * 1000;
    data.stateRecord = {
      ref: facts.state.ref,
      sha: facts.state.sha,
      deployedAt: facts.state.deployedAt,
      by: facts.state.by,
    };
    evidence.push(
      `state record: ${facts.state.ref} (${facts.state.sha.slice(0, 12)}) deployed ${new Date(since).toISOString()} by ${facts.state.by}`,
    );
  } else {
    return warn(
      CHECK,
      `container ${name} is running, but the host has no deploy-gate state record to date it against`,
      {
        evidence: [...evidence, facts.stateError ?? "no state record on the host"],
        data,
        fix: "deploy once with `deploy-gate run` so the host records what was deployed",
      },
    );
  }
  data.deployBeganMs = since;
  if (c.createdMs === null)
    return warn(CHECK, `cannot read when ${name} was created`, {
      evidence,
      data,
      fix: `check ${cli} inspect ${name} prints .Created`,
    });
  // One second of slack: podman's Created and the record's whole seconds are taken on the same host clock.
  if (c.createdMs + 1000 < since) {
    return fail(
      CHECK,
      `container ${name} predates the deploy by ${age(since - c.createdMs)}: an old container answers`,
      {
        evidence,
        data,
        fix: `the restart did not replace the container: check the unit's ExecStartPre removes it (${cli} rm -f ${name})${cli === "podman" ? " or use --replace" : ""}, then redeploy`,
      },
    );
  }
  return pass(CHECK, `container ${c.id.slice(0, 12)} created after the deploy began, running`, { evidence, data });
}

/** The unit's run as the engine's instance: started after the deploy began (or the state record), running. */
function checkUnitRun(
  facts: Pick<HostFacts, "container" | "inspectError" | "hostNowMs" | "state" | "stateError">,
  service: string,
  deployment: Deployment | null,
): Finding {
  const c = facts.container;
  if (!c)
    return fail(CHECK, `${service} has no current run: ${facts.inspectError ?? "systemctl show said nothing"}`, {
      fix: `systemctl status ${service}; journalctl -u ${service} -n 50`,
    });
  const ageMs = c.createdMs !== null && facts.hostNowMs !== null ? facts.hostNowMs - c.createdMs : null;
  const evidence = [
    `${service}: run ${c.id.slice(0, 12)} ${c.status}, main process ${c.pid}, started ${c.createdText}${ageMs === null ? "" : `, ${age(ageMs)} ago on the host clock`}`,
  ];
  const data: Record<string, unknown> = {
    id: c.id,
    created: c.createdText,
    createdMs: c.createdMs,
    ageMs,
    status: c.status,
    unitRun: true,
  };
  if (!c.running)
    return fail(CHECK, `${service} is ${c.status}: its engine is not running`, {
      evidence,
      data,
      fix: `read its last run: journalctl -u ${service} -o json > boot.json && deploy-gate explain boot.json`,
    });
  const since = deployment ? deployment.startedAtHostMs : facts.state ? facts.state.deployedAt * 1000 : null;
  if (since === null) {
    return warn(CHECK, `${service} is running, but the host has no deploy-gate state record to date it against`, {
      evidence: [...evidence, facts.stateError ?? "no state record on the host"],
      data,
      fix: "deploy once with `deploy-gate run` so the host records what was deployed",
    });
  }
  data.deployBeganMs = since;
  if (deployment?.containerId && deployment.containerId !== c.id) {
    return fail(
      CHECK,
      `another run of ${service} answers: ${c.id.slice(0, 12)}, the deploy saw ${deployment.containerId.slice(0, 12)} come up`,
      { evidence, data, fix: `the unit was restarted after the deploy: check journalctl -u ${service} and redeploy` },
    );
  }
  if (c.createdMs === null)
    return warn(CHECK, `cannot read when ${service} started`, {
      evidence,
      data,
      fix: `check that systemctl show -p ExecMainStartTimestamp ${service} prints a start time`,
    });
  if (c.createdMs + 1000 < since) {
    return fail(
      CHECK,
      `${service}'s run predates the deploy by ${age(since - c.createdMs)}: the restart did not start it again`,
      { evidence, data, fix: `systemctl restart ${service}, then redeploy` },
    );
  }
  return pass(CHECK, `${service}'s run ${c.id.slice(0, 12)} started after the deploy began, running`, {
    evidence,
    data,
  });
}
