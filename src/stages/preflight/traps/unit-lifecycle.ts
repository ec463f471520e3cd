// Unit traps: keys systemd ignores in the wrong section, restart policies that leave an engine
// silently dead, and start timeouts shorter than a model load.
import { timeoutStartSec, unitEntries, unitValue } from "../../../domain/launch/unit.js";
import { allRuns, engines, hitAt, hitIn, lineOf } from "./lookups.js";
import { UNIT_RUNTIMES, type TrapContext, type TrapHit, type TrapRuleDef } from "./types.js";

/**
 * The start-limit keys systemd ignores in [Service]. Its directive table (src/core/load-fragment-gperf.gperf.in)
 * still accepts StartLimitInterval=, StartLimitBurst= and StartLimitAction= there "for compatibility, they moved
 * into Unit", and applies them to the unit; only the current spelling, StartLimitIntervalSec=, is absent from
 * [Service]: an unknown key, logged and ignored, which leaves the 10 s default interval.
 */
const IGNORED_IN_SERVICE = new Set(["StartLimitIntervalSec"]);

export const startLimitSection: TrapRuleDef = {
  id: "start-limit-section",
  defaultLevel: "fail",
  runtimes: UNIT_RUNTIMES,
  engines: "any",
  why:
    "StartLimitIntervalSec= works only in [Unit]; in [Service] systemd ignores it (StartLimitBurst= and " +
    "StartLimitInterval= are still read there), so the crash-loop brake runs on the 10 s default interval",
  check: (ctx) => {
    const unit = ctx.unit;
    if (!unit) return [];
    return unit.parsed.entries
      .filter((e) => e.section === "Service" && IGNORED_IN_SERVICE.has(e.key))
      .map((e) =>
        hitAt(
          ctx,
          unit.path,
          e.line,
          `${e.key}= is in [Service], where systemd ignores it`,
          `Move ${e.key}=${e.value} into the [Unit] section.`,
        ),
      );
  },
};

const NON_ZERO_ONLY = new Set(["on-failure", "on-abnormal", "on-abort", "on-watchdog"]);

export const restartOnFailure: TrapRuleDef = {
  id: "restart-on-failure",
  defaultLevel: "warn",
  runtimes: [...UNIT_RUNTIMES, "compose", "kubernetes"],
  // SGLang and llama.cpp exit non-zero on a fatal error: on-failure restarts them
  engines: ["vllm"],
  why:
    "vLLM's API server exits 0 after a fatal EngineCore error, so systemd (or docker, podman, the kubelet) sees a " +
    "clean exit, does not restart, and the endpoint stays silently dead",
  check: (ctx) => {
    const unit = ctx.unit;
    const e = unit ? unitValue(unit.parsed, "Service", "Restart") : null;
    const hits = workloadRestarts(ctx);
    if (!unit || !e || !NON_ZERO_ONLY.has(e.value)) return hits;
    return [
      hitAt(
        ctx,
        unit.path,
        e.line,
        `Restart=${e.value} does not restart an engine that exits 0`,
        "Use Restart=always with RestartSec=30, and bound crash loops with StartLimitIntervalSec=/StartLimitBurst= in [Unit].",
      ),
      ...hits,
    ];
  },
};

/**
 * The same trap in a compose file (`restart: on-failure[:N]`: docker and podman restart only on a non-zero exit)
 * and a Kubernetes pod (`restartPolicy: OnFailure`, a Job's or a bare Pod's).
 */
function workloadRestarts(ctx: TrapContext): TrapHit[] {
  return engines(ctx).flatMap(({ source, engine }) => {
    const w = engine.podmanRun?.workload;
    const r = w?.restart;
    if (!w || !r) return [];
    const onFailure = w.form === "compose" ? /^on-failure(:\d+)?$/.test(r.value) : r.value === "OnFailure";
    if (!onFailure) return [];
    const fix =
      w.form === "compose"
        ? "Use restart: unless-stopped (or always) for the engine's service."
        : "Run the engine in a Deployment or StatefulSet (restartPolicy: Always); a Job's OnFailure leaves an exit 0 finished.";
    const key = w.form === "compose" ? `restart: ${r.value}` : `restartPolicy: ${r.value}`;
    return [hitAt(ctx, source.file, r.line, `${key} does not restart an engine that exits 0`, fix)];
  });
}

export const startTimeout: TrapRuleDef = {
  id: "start-timeout",
  defaultLevel: "warn",
  runtimes: [...UNIT_RUNTIMES, "kubernetes"],
  engines: "any",
  why:
    "a unit that waits for readiness (Type=notify, --sdnotify, Notify=healthy) is killed when TimeoutStartSec " +
    "(90 s by default) runs out, and a Kubernetes container is restarted when its startupProbe (or livenessProbe) " +
    "budget does; a model load takes minutes",
  check: (ctx) => {
    const unit = ctx.unit;
    if (!unit) return probeBudgets(ctx);
    const type = unitValue(unit.parsed, "Service", "Type");
    const notify = unitEntries(unit.parsed, "Container", "Notify").find(
      (e) => e.value === "healthy" || e.value === "true",
    );
    const sdnotify = allRuns(ctx).flatMap(({ source, item }) =>
      item.options
        .filter((o) => o.name === "--sdnotify" && (o.value === "container" || o.value === "healthy"))
        .map((o) => ({ source, o })),
    );
    const waits = type?.value === "notify" || notify !== undefined || sdnotify.length > 0;
    if (!waits) return [];
    const { seconds, entry } = timeoutStartSec(unit.parsed);
    if (seconds > ctx.bootTimeoutSeconds) return [];
    const cause = type?.value === "notify" ? type : notify;
    const hit: TrapHit = {
      file: unit.path,
      line: entry?.line ?? cause?.line ?? sdnotify[0]?.o.line ?? 1,
      summary: entry
        ? `TimeoutStartSec=${entry.value} is not above the boot time (${ctx.bootTimeoutSeconds} s) of a unit that waits for readiness`
        : `the unit waits for readiness but leaves TimeoutStartSec at systemd's 90 s default`,
      evidence: [
        ...(cause ? [lineOf(ctx, unit.path, cause.line)] : []),
        ...sdnotify.map(({ source, o }) => lineOf(ctx, source.file, o.line)),
        ...(entry ? [lineOf(ctx, unit.path, entry.line)] : []),
      ],
      fix: `Set TimeoutStartSec= in [Service] above the longest boot, e.g. TimeoutStartSec=${Math.ceil((ctx.bootTimeoutSeconds * 1.25) / 60)}min.`,
    };
    return [hit];
  },
};

/** A model load of a few minutes is common; a probe that restarts the container sooner kills loads in progress. */
const LOAD_SECONDS = 600;

/**
 * Kubernetes' form: the kubelet restarts a container whose startupProbe (or, without one, livenessProbe) has not
 * passed within initialDelaySeconds + failureThreshold x periodSeconds; a budget under the load time is a
 * restart loop that never finishes loading.
 */
function probeBudgets(ctx: TrapContext): TrapHit[] {
  const floor = Math.min(ctx.bootTimeoutSeconds, LOAD_SECONDS);
  return engines(ctx).flatMap(({ source, engine }) => {
    const w = engine.podmanRun?.workload;
    if (w?.form !== "kubernetes") return [];
    const probe = w.probes.find((p) => p.kind === "startupProbe") ?? w.probes.find((p) => p.kind === "livenessProbe");
    if (!probe || probe.budgetSeconds >= floor) return [];
    return [
      hitIn(
        ctx,
        source,
        probe,
        `${probe.kind}:`,
        `the ${probe.kind} gives the engine ${probe.budgetSeconds} s to answer, under the ${floor} s a model load can take`,
        `Give the container a startupProbe whose failureThreshold x periodSeconds covers the longest load (e.g. failureThreshold: ${Math.ceil((ctx.bootTimeoutSeconds * 1.25) / 10)}, periodSeconds: 10); liveness starts counting after it passes.`,
      ),
    ];
  });
}
