// `run`, `rollback` and `verify` on their one endpoint: run's preflight gate first, then one host or a
// fleet's rollout. What the report says about the ref comes back with the findings.
import { skip, type Finding, type HostRow } from "../domain/report/finding.js";
import type { Options } from "./options.js";
import { preflightFindings } from "./preflight.js";
import { deployFleet, isFleet, verifyFleet } from "./rollout/rollout.js";
import { deployAndVerify } from "./shared/deploy-verify.js";
import { hostsOf, oneEndpoint } from "./shared/endpoints.js";
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
  hostsOf(name, ep, opts); // --hosts is checked before any host is touched
  const verify = opts.command === "verify";
  const stage = isFleet(ws, name)
    ? await (verify ? verifyFleet : deployFleet)(ws, name, opts, progress)
    : await (verify ? verifyOnly : deployAndVerify)(ws, name, opts, progress);
  return { ...stage, findings: [...findings, ...stage.findings] };
}
