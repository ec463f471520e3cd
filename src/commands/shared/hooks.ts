// An endpoint's hooks (Kamal's pre-deploy and post-deploy): executables from the repository, run on the machine
// running the gate, never on the host, with what is being deployed in their environment. A failing
// pre-deploy stops the deploy; a failing post-deploy is a warning (the deploy stands).
import { existsSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Endpoint } from "../../domain/config/schema.js";
import { fail, pass, warn, type Finding, type Verdict } from "../../domain/report/finding.js";
import { runLocal } from "../../ports/local/run-local.js";
import type { Workspace } from "./workspace.js";

export type HookKind = "pre-deploy" | "post-deploy";
const CHECK = "deploy.hooks";
const DEADLINE_MS = 10 * 60_000;

export interface HookRun {
  endpoint: string;
  command: string;
  ref: string;
  sha: string;
  hosts: readonly string[];
  /** post-deploy only: the run's verdict so far */
  verdict?: Verdict;
}

const tail = (text: string) => text.trimEnd().split("\n").slice(-20).filter(Boolean);

/** Runs the endpoint's hook of this kind; null when it has none. */
export async function runHook(ws: Workspace, ep: Endpoint, kind: HookKind, r: HookRun): Promise<Finding | null> {
  const path = ep.hooks?.[kind];
  if (!path) return null;
  const file = resolve(dirname(ws.configFile!), path);
  const shown = relative(ws.root, file);
  const stop = kind === "pre-deploy" ? fail : warn;
  const after = kind === "pre-deploy" ? "deploy not attempted" : "the deploy stands";
  if (shown.startsWith("..") || !existsSync(file) || !statSync(file).isFile())
    return stop(CHECK, `${kind} hook ${path} is not a file in the repository: ${after}`, {
      fix: `fix endpoints.${r.endpoint}.hooks.${kind} in deploy-gate.yml (paths are relative to it)`,
    });
  const env = {
    ...ws.env,
    DEPLOY_GATE_ENDPOINT: r.endpoint,
    DEPLOY_GATE_COMMAND: r.command,
    DEPLOY_GATE_REF: r.ref,
    DEPLOY_GATE_SHA: r.sha,
    DEPLOY_GATE_HOSTS: r.hosts.join(","),
    ...(r.verdict ? { DEPLOY_GATE_VERDICT: r.verdict } : {}),
  };
  const res = await runLocal(file, [], { cwd: ws.root, env, timeoutMs: DEADLINE_MS });
  const evidence = [...tail(res.stdout), ...tail(res.stderr)];
  if (res.spawnError)
    return stop(CHECK, `${kind} hook ${shown} could not start (${res.spawnError.code}): ${after}`, {
      file: shown,
      fix:
        res.spawnError.code === "EACCES"
          ? `make it executable and commit that: chmod +x ${shown} && git update-index --chmod=+x ${shown}`
          : "give it a #! line naming an interpreter that is installed here",
    });
  if (res.timedOut || res.code !== 0)
    return stop(
      CHECK,
      `${kind} hook ${shown} ${res.timedOut ? `ran past ${DEADLINE_MS / 60_000} minutes and was stopped` : `exited ${res.code}`}: ${after}`,
      {
        file: shown,
        evidence,
        fix: `read the hook's output above; run it by hand with the same DEPLOY_GATE_* variables`,
      },
    );
  return pass(CHECK, `${kind} hook ${shown} passed`, { file: shown, evidence });
}
