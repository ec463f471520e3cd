// What the readiness loop saw that the journal alone cannot say: the container exited or vanished while
// the engine, with no failure of its own, was shutting down on a signal (an outside `podman rm -f`/stop;
// `rm -f` kills, then removes, so a poll between the two sees it exited). Pure.
import { advice } from "../../domain/diagnosis/advice.js";
import type { Diagnosis } from "../../domain/diagnosis/classify.js";
import type { FailureKind } from "./readiness.js";

/** uvicorn's (and the double's) answer to SIGTERM, as the last words of a container that was stopped. */
const SIGNALLED = /Shutting down|Received signal|SIGTERM|Terminated/;

export function refineDiagnosis(
  d: Diagnosis,
  failure: FailureKind,
  lastEngineLines: readonly string[],
  unit: string,
): Diagnosis {
  const noEngineFault =
    d.class === "booting" || d.class === "clean-exit" || d.class === "unknown" || d.class === "crash-loop";
  const vanished =
    failure === "container-gone" ||
    failure === "container-exited" ||
    failure === "restarting" ||
    failure === "unit-stopped";
  const signalled = lastEngineLines.slice(-3).some((l) => SIGNALLED.test(l));
  if (!noEngineFault || !vanished || !signalled || d.attempts.filter((a) => a.endedAt !== null).length > 2) return d;
  const a = advice("container-removed", {
    decisive: null,
    oom: null,
    phase: d.phase,
    attempts: d.attempts,
    startLimit: false,
    unit,
    kv: null,
    dynamo: null,
  });
  const decisive = lastEngineLines.slice(-3).find((l) => SIGNALLED.test(l)) ?? null;
  return {
    ...d,
    class: "container-removed",
    decisive,
    summary: `the engine (phase: ${d.phase ?? "?"}) was stopped by a signal with no failure of its own and its container ${failure === "container-exited" ? "exited" : "vanished"}: ${unit} was stopped from outside`,
    fix: a.fix,
    evidence: [...lastEngineLines.slice(-4), ...d.evidence].slice(0, 16),
  };
}
