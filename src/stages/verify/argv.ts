// verify.argv: the live argv carries every contract flag and value, and matches the script at the ref.
import { readNonDefaultArgs } from "../../domain/engine/vllm/args.js";
import { shellQuote } from "../../lib/shell-quote.js";
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { contractFlags, describeDrift, driftOf, liveFlags } from "./live-argv.js";
import { maskArgv } from "../../domain/redact/mask.js";

export const CHECK = "verify.argv";

export interface ArgvInput {
  argv: readonly string[] | null;
  contracts: readonly string[];
  script: ServeScript | null;
  scriptPath: string;
  ref: string;
  journal: readonly string[];
  /** installed files changed on the host since the last deploy wrote them */
  edited?: readonly string[];
  /** what the redeploy fixes name after `deploy-gate run`: `--endpoint NAME` (and a fleet's `--hosts H`) */
  target?: string;
  /** the engine runs straight under the unit (no container): argv is its process's, found in the unit's cgroup */
  direct?: boolean;
}

function nonDefaultArgs(journal: readonly string[]): Record<string, unknown> | null {
  let last: Record<string, unknown> | null = null;
  for (const l of journal) if (l.includes("non-default args")) last = readNonDefaultArgs(l) ?? last;
  return last;
}

export function checkArgv(input: ArgvInput): Finding {
  if (!input.argv) {
    return input.direct
      ? fail(CHECK, "could not read the engine process's command line", {
          fix: "check the unit's engine is running (systemctl status SERVICE) and its process's /proc/PID/cmdline is readable by the SSH user",
        })
      : fail(CHECK, "could not read the container's /proc/1/cmdline", {
          fix: "check the container is running and `podman exec <container> cat /proc/1/cmdline` works for the SSH user",
        });
  }
  const live = liveFlags(input.argv);
  const shown = maskArgv(input.argv);
  const contracts = contractFlags(live, input.contracts);
  const broken = contracts.filter((c) => c.status !== "present");
  const drift = input.script?.engine ? driftOf(input.script.engine.flags, live) : [];
  const real = drift.filter((d) => d.kind !== "unresolved");
  const evidence = [`live argv: ${shown.join(" ")}`];
  for (const c of broken)
    evidence.push(
      c.status === "missing"
        ? `contract ${c.spec}: missing from the live argv`
        : `contract ${c.spec}: live value ${c.live}`,
    );
  for (const d of drift) evidence.push(`drift: ${describeDrift(d, input.scriptPath)}`);
  const nda = nonDefaultArgs(input.journal);
  if (nda) evidence.push(`boot log non-default args: ${JSON.stringify(nda)}`);
  const data = { contracts, drift, nonDefaultArgs: nda, scriptEngine: input.script?.engine ? true : false };
  if (broken.length) {
    return fail(
      CHECK,
      `contract flag${broken.length > 1 ? "s" : ""} not in effect on the host: ${broken.map((c) => c.spec).join(", ")}`,
      {
        evidence,
        data,
        file: input.scriptPath,
        fix: `the running engine lacks ${broken.map((c) => c.spec).join(", ")}: restore ${broken.length > 1 ? "them" : "it"} in ${input.scriptPath} (deploy-gate preflight traces where it was dropped) and redeploy; a hand edit on the host is lost on the next deploy`,
      },
    );
  }
  if (!input.script?.engine) {
    return fail(
      CHECK,
      `no engine argv found in ${input.scriptPath} at ${input.ref}: nothing to compare the live argv with`,
      {
        evidence,
        data,
        file: input.scriptPath,
        fix: `check ${input.scriptPath} exists at ${input.ref} and starts the engine (vllm serve, python -m vllm.entrypoints..., sglang, llama-server, podman/docker run of an engine image, or a quadlet's Image=/Exec=)`,
      },
    );
  }
  if (real.length) {
    return fail(CHECK, `live argv drifted from ${input.scriptPath} at ${input.ref}: ${real.length} difference(s)`, {
      evidence,
      data,
      file: input.scriptPath,
      line: real.find((d) => d.line !== null)?.line ?? undefined,
      fix: `the host runs something other than ${input.ref}: redeploy it (deploy-gate run${input.target ? ` ${input.target}` : ""} --ref ${shellQuote(input.ref)}), or commit the host's change to ${input.scriptPath} if it is the one to keep`,
    });
  }
  if (input.edited?.length) {
    // the running engine still matches; the next restart would run the edit
    return warn(
      CHECK,
      `${input.edited.join(", ")} changed on the host since the last deploy wrote ${input.edited.length > 1 ? "them" : "it"}: the live argv still matches ${input.ref}, the next restart runs the edit`,
      {
        evidence: [...evidence, ...input.edited.map((p) => `${p}: sha256 differs from the deploy's state record`)],
        data: { ...data, edited: input.edited },
        fix: `redeploy ${input.ref} to put the committed files back (deploy-gate run${input.target ? ` ${input.target}` : ""}), or commit the host's change if it is the one to keep`,
      },
    );
  }
  return pass(
    CHECK,
    `live argv carries all ${contracts.length} contract flag(s) and matches ${input.scriptPath} at ${input.ref}`,
    { evidence, data },
  );
}
