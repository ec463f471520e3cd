// One host: deploy the ref, verify it, and on a failure roll back to rollback.ref when that is automatic
// (rollback.auto), verifying the rollback too. Used by run and rollback, and by a fleet's host steps.
import { dirname } from "node:path";
import { requireFor } from "../../domain/config/load.js";
import type { Endpoint } from "../../domain/config/schema.js";
import { fail, pass, skip, type Finding } from "../../domain/report/finding.js";
import type { Host } from "../../ports/host/host.js";
import { runDeploy } from "../../stages/deploy/deploy.js";
import { rollbackBlocked } from "../../stages/deploy/rollback-guard.js";
import { runVerify } from "../../stages/verify/verify.js";
import type { Options } from "../options.js";
import { withHost } from "./connect.js";
import { endpointFor } from "./endpoints.js";
import { deployRef } from "./refs.js";
import { stageContext } from "./stage-context.js";
import type { Workspace } from "./workspace.js";

export interface StageRun {
  findings: Finding[];
  ref: string;
  sha: string | null;
}

/** run (deploy + verify, auto-rollback) or rollback (deploy rollback.ref + verify) for one endpoint. */
export async function deployAndVerify(
  ws: Workspace,
  name: string,
  opts: Options,
  progress: (s: string) => void,
): Promise<StageRun> {
  const ep = endpointFor(ws, name, opts);
  // container: is checked by deploy and verify, which read the launch file (an engine the unit runs itself has none)
  requireFor(name, ep, opts.command, ["host", "service", "install", "url", "model"], ws.configFile!);
  const findings: Finding[] = [];
  const { ref, sha } = await deployRef(ws, name, opts);
  // refused: the connect finding alone; on success runDeploy reports deploy.connect itself
  return withHost(
    ep,
    opts,
    dirname(ws.configFile!),
    (finding) => ({ findings: [finding], ref, sha }),
    async (host) => {
      const ctx = stageContext(ws, name, ep, host, ref, sha, progress);
      const dep = await runDeploy(ctx, { dryRun: opts.dryRun, lockWaitMs: opts.lockWaitMs, owner: ws.owner });
      findings.push(...dep.findings);
      if (opts.dryRun) return { findings, ref, sha };
      if (dep.ok) findings.push(...(await runVerify(ctx, { deployment: dep.deployment })));
      // a change verify fails is rolled back like one that did not boot (as a fleet's step is)
      if (opts.command !== "run" || !findings.some((f) => f.status === "fail")) return { findings, ref, sha };
      const blocked = rollbackBlocked(dep.findings);
      if (blocked) findings.push(skip("deploy.rollback", `nothing rolled back: ${blocked}`, { data: { blocked } }));
      else if (ep.rollback?.auto)
        findings.push(
          ...(await autoRollback(ws, name, ep, host, progress, dep.ok ? "verify failed" : "deploy failed", sha)),
        );
      else
        findings.push(
          skip("deploy.rollback", "no auto-rollback configured", {
            fix: `roll back by hand: deploy-gate rollback --endpoint ${name} (needs rollback.ref)`,
          }),
        );
      return { findings, ref, sha };
    },
  );
}

export async function autoRollback(
  ws: Workspace,
  name: string,
  ep: Endpoint,
  host: Host,
  progress: (s: string) => void,
  why: string,
  deployedSha: string,
  fleetHost?: string,
): Promise<Finding[]> {
  const ref = ep.rollback!.ref;
  const sha = await ws.git.resolve(ref);
  if (!sha)
    return [
      fail(
        "deploy.rollback",
        `rollback ref ${ref} does not exist here: the endpoint is left as the failed deploy left it`,
        { fix: "fetch tags (fetch-depth: 0) or fix rollback.ref; then deploy-gate rollback" },
      ),
    ];
  // the same commit again would fail the same way, after another whole boot
  if (sha === deployedSha) {
    return [
      skip(
        "deploy.rollback",
        `nothing rolled back: the failed deploy was the rollback ref ${ref} (${sha.slice(0, 10)}) itself; the endpoint is left as it left it`,
        {
          fix: `read the failures above; go back to another version that works: deploy-gate rollback --endpoint ${name}${fleetHost ? ` --hosts ${fleetHost}` : ""} --ref REF`,
          data: { ref, sha, same: true },
        },
      ),
    ];
  }
  progress(`${name}: ${why}; rolling back to ${ref} (${sha.slice(0, 10)})`);
  const ctx = stageContext(ws, name, ep, host, ref, sha, progress, fleetHost);
  const dep = await runDeploy(ctx, { dryRun: false, lockWaitMs: 60_000, owner: `${ws.owner} (auto-rollback)` });
  const verified = dep.ok ? await runVerify(ctx, { deployment: dep.deployment }) : [];
  const broken = [...dep.findings, ...verified].filter((f) => f.status === "fail");
  const sub = [...dep.findings, ...verified].map((f) => ({
    ...f,
    summary: `[rollback] ${f.summary}`,
    data: { ...f.data, rollback: true },
  }));
  if (broken.length === 0) {
    return [
      ...sub,
      pass(
        "deploy.rollback",
        `rolled back to ${ref} (${sha.slice(0, 10)}): deployed and verified; the failed change is not live`,
        { data: { ref, sha } },
      ),
    ];
  }
  return [
    ...sub,
    fail(
      "deploy.rollback",
      `rollback to ${ref} failed too (${broken.map((f) => f.check).join(", ")}): the endpoint may be down`,
      {
        fix: `act now: read the [rollback] findings above; deploy-gate verify --endpoint ${name}${fleetHost ? ` --hosts ${fleetHost}` : ""} shows what runs`,
        data: { ref, sha },
      },
    ),
  ];
}
