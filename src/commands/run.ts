// `run`, `rollback` and `verify` on their one endpoint: run's preflight gate first, then one host or a
// fleet's rollout. What the report says about the ref comes back with the findings.
import { hostName } from "../domain/rollout.js";
import { skip, verdictOf, type Finding, type HostRow } from "../domain/report/finding.js";
import type { Options } from "./options.js";
import { preflightFindings } from "./preflight.js";
import { deployFleet, isFleet, verifyFleet } from "./rollout/rollout.js";
import { deployAndVerify } from "./shared/deploy-verify.js";
import { hostsOf, oneEndpoint } from "./shared/endpoints.js";
import { runHook } from "./shared/hooks.js";
import { deployRef } from "./shared/refs.js";
import type { Workspace } from "./shared/workspace.js";
import { verifyOnly } from "./verify.js";

export interface EndpointRun {
  findings: Finding[];
  ref: string | null;
  sha: string | null;
  fleet?: HostRow[];
}

export async function runEndpoint(
  ws: Workspace,
  opts: Options,
  progress: (line: string) => void,
): Promise<EndpointRun> {
  const { name, ep } = oneEndpoint(ws, opts, "host, service, container, install, url");
  const findings: Finding[] = [];
  if (opts.command === "run" && !opts.skipPreflight) {
    const pre = await preflightFindings(ws, opts, [name]);
    findings.push(...pre);
    if (pre.some((f) => f.status === "fail")) {
      findings.push(
        skip("deploy.lock", "deploy not attempted: preflight failed", {
          fix: "fix the preflight failures above (or pass --skip-preflight to see what the host says)",
        }),
      );
      return { findings, ref: null, sha: null };
    }
  }
  const hosts = hostsOf(name, ep, opts); // --hosts is checked before any host is touched
  const verify = opts.command === "verify";
  // hooks: around a real deploy (run, rollback), on the runner; a dry run changes nothing and runs none
  const hook = !verify && !opts.dryRun && ep.hooks ? { ...(await deployRef(ws, name, opts)), endpoint: name } : null;
  const hookRun = hook && {
    ...hook,
    command: opts.command,
    hosts: hosts.length ? hosts.map(hostName) : [ep.host?.address ?? ""],
  };
  if (hookRun) {
    const pre = await runHook(ws, ep, "pre-deploy", hookRun);
    if (pre) findings.push(pre);
    if (pre?.status === "fail") return { findings, ref: hookRun.ref, sha: hookRun.sha };
  }
  const stage = isFleet(ws, name)
    ? await (verify ? verifyFleet : deployFleet)(ws, name, opts, progress)
    : await (verify ? verifyOnly : deployAndVerify)(ws, name, opts, progress);
  const all = [...findings, ...stage.findings];
  const post = hookRun && (await runHook(ws, ep, "post-deploy", { ...hookRun, verdict: verdictOf(all) }));
  return { ...stage, findings: post ? [...all, post] : all };
}
