// verify's host facts read from Kubernetes instead (kubectl's JSON, domain/kube/pods.ts): the container's
// restarts, that the pods run and started after the rollout began (with the image digest), the live args
// against the repository's manifest, the declared env; and, for a pod that restarted or is not ready, the
// diagnosis from its previous container's log (the journal's classes) and its events. Pure judgements.
import { parseAllDocuments } from "yaml";
import type { Contracts } from "../../domain/config/schema.js";
import { Diagnoser } from "../../domain/diagnosis/classify.js";
import { kubeFactsOf, podFixOf } from "../../domain/diagnosis/kube-facts.js";
import type { EventFacts, PodFacts } from "../../domain/kube/pods.js";
import { mask, maskArgv } from "../../domain/redact/mask.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";

const withC = (pods: readonly PodFacts[]) => pods.filter((p) => p.container !== null);
const none = (check: string, pods: readonly PodFacts[]): Finding | null =>
  pods.length && !withC(pods).length
    ? fail(check, `the pods have no container of that name (they have ${pods[0]!.containers.join(", ")})`, {
        fix: "set kubernetes.container to the engine's container name in deploy-gate.yml",
      })
    : null;

export function podRestarts(pods: readonly PodFacts[], max: number): Finding {
  const check = "verify.restarts";
  const bad = none(check, pods);
  if (bad) return bad;
  const over = withC(pods).filter((p) => p.container!.restartCount > max);
  const line = (p: PodFacts) => {
    const c = p.container!;
    const last = c.lastTerminated
      ? `; last exit ${c.lastTerminated.reason || "?"} (${c.lastTerminated.exitCode ?? "?"})`
      : "";
    return `${p.name}: ${c.name} restarted ${c.restartCount} time(s) (contracts.restarts ${max})${last}${c.waiting ? `; now ${c.waiting.reason}` : ""}`;
  };
  const evidence = withC(pods).map(line);
  if (over.length)
    return fail(check, line(over[0]!), {
      evidence,
      data: { restarts: Object.fromEntries(withC(pods).map((p) => [p.name, p.container!.restartCount])) },
      fix: "see deploy.diagnosis below (the previous container's log and the pod's events); kubectl logs --previous shows the same",
    });
  return pass(check, `restartCount within ${max} on ${withC(pods).length} pod(s)`, { evidence });
}

export function podContainer(pods: readonly PodFacts[], selector: string, rolloutStartMs: number | null): Finding {
  const check = "verify.container";
  if (!pods.length)
    return fail(check, `no pod matches ${selector}`, {
      fix: "check kubernetes.namespace and kubernetes.selector (or --selector) against kubectl get pods --show-labels",
    });
  const bad = none(check, pods);
  if (bad) return bad;
  const evidence = pods.map((p) => {
    const c = p.container;
    return `${p.name} on ${p.node ?? "no node"}: ${p.phase}${p.ready ? ", ready" : ", not ready"}; ${c?.image ?? "?"} ${c?.imageDigest ?? "(no digest: not pulled)"}; started ${c?.startedAt ?? "no"}`;
  });
  const problems: { summary: string; fix: string }[] = [];
  for (const p of pods) {
    const c = p.container!;
    const fix = podFixOf(p);
    if (p.unschedulable)
      problems.push({
        summary: `${p.name} not scheduled: ${p.unschedulable}`,
        fix: fix ?? "read the scheduler's message and fix the pod's requests, tolerations or node selectors",
      });
    else if (c.waiting)
      problems.push({
        summary: `${p.name}: ${c.name} waiting: ${c.waiting.reason}${c.waiting.message ? ` (${c.waiting.message.slice(0, 200)})` : ""}`,
        fix: fix ?? "see deploy.diagnosis below (the previous container's log and the pod's events)",
      });
    else if (!p.ready || !c.ready)
      problems.push({
        summary: `${p.name}: ${p.phase}, not ready`,
        fix: "kubectl describe pod shows why; see deploy.diagnosis below",
      });
    else if (rolloutStartMs !== null && c.startedAt && Date.parse(c.startedAt) < rolloutStartMs)
      problems.push({
        summary: `${p.name}: ${c.name} started ${c.startedAt}, before the rollout began (${new Date(rolloutStartMs).toISOString()}): the old version still serves`,
        fix: "narrow the selector to the new pods (--selector with the canary's pod-template-hash) or wait for the rollout to replace them",
      });
  }
  const data = {
    pods: pods.map((p) => ({
      name: p.name,
      ready: p.ready,
      digest: p.container!.imageDigest,
      startedAt: p.container!.startedAt,
    })),
  };
  if (problems.length) return fail(check, problems[0]!.summary, { evidence, data, fix: problems[0]!.fix });
  return pass(
    check,
    `${pods.length} pod(s) ready${rolloutStartMs !== null ? ", started after the rollout began" : ""}`,
    { evidence, data },
  );
}

/** The named container's command + args in a Deployment, Rollout or StatefulSet YAML; null when none names it. */
export function manifestArgs(yaml: string, container: string): string[] | null {
  for (const doc of parseAllDocuments(yaml)) {
    const o = doc.toJS() as {
      spec?: { template?: { spec?: { containers?: { name?: string; command?: unknown; args?: unknown }[] } } };
    } | null;
    const c = o?.spec?.template?.spec?.containers?.find((x) => x.name === container);
    if (c)
      return [...(Array.isArray(c.command) ? c.command : []), ...(Array.isArray(c.args) ? c.args : [])].map(String);
  }
  return null;
}

/** --flag=value and --flag value alike: flag -> value ("" for a switch). */
function flagsOf(argv: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (!w.startsWith("-")) continue;
    const eq = w.indexOf("=");
    const name = (eq > 0 ? w.slice(0, eq) : w).replace(/_/g, "-");
    if (eq > 0) m.set(name, w.slice(eq + 1));
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("-")) m.set(name, argv[++i]!);
    else m.set(name, "");
  }
  return m;
}
const shown = (flag: string, v: string | undefined) =>
  v === undefined ? "absent" : (mask(flag.replace(/^-+/, ""), v || "(set)") ?? "");

export function podArgv(
  pods: readonly PodFacts[],
  want: string[] | null,
  manifest: string | null,
  contracts: Contracts,
): Finding {
  const check = "verify.argv";
  const bad = none(check, pods);
  if (bad) return bad;
  const first = withC(pods)[0];
  if (!first) return fail(check, "no pod to read the live args from", { fix: "see verify.container" });
  const c = first.container!;
  const live = flagsOf([...c.command, ...c.args]);
  const evidence = [`${first.name}: ${maskArgv([...c.command, ...c.args]).join(" ")}`];
  const drift: string[] = [];
  if (want && manifest) {
    const m = flagsOf(want);
    for (const f of new Set([...live.keys(), ...m.keys()]))
      if (live.get(f) !== m.get(f))
        drift.push(`${f}: live ${shown(f, live.get(f))}, ${manifest} ${shown(f, m.get(f))}`);
  }
  const missing = contracts.flags.filter((decl) => {
    const [flag, ...v] = decl.trim().split(/\s+/);
    const got = live.get(flag!.replace(/_/g, "-"));
    return got === undefined || (v.length > 0 && got !== v.join(" "));
  });
  const replicas = withC(pods).filter(
    (p) =>
      JSON.stringify([...p.container!.command, ...p.container!.args]) !== JSON.stringify([...c.command, ...c.args]),
  );
  evidence.push(...drift, ...replicas.map((p) => `${p.name} runs other args than ${first.name}`));
  const data = { drift, missing, manifest };
  if (missing.length)
    return fail(check, `the live args lack contract flag(s): ${missing.join(", ")}`, {
      evidence,
      data,
      fix: `add them to the container's args in ${manifest ?? "the pod template"} and roll out again`,
    });
  if (drift.length || replicas.length)
    return fail(
      check,
      drift.length ? `the live args differ from ${manifest}: ${drift.length} flag(s)` : "the pods run different args",
      {
        evidence,
        data,
        fix: `the cluster runs another template than ${manifest ?? "the repository's"}: apply the manifest at this ref (or find who changed the live object: kubectl get -o yaml)`,
      },
    );
  return pass(
    check,
    want
      ? `live args match ${manifest}${contracts.flags.length ? " and the contract flags" : ""}`
      : "live args carry the contract flags",
    {
      evidence,
      data,
    },
  );
}

export function podEnv(pods: readonly PodFacts[], contracts: Contracts): Finding {
  const check = "verify.env";
  const bad = none(check, pods);
  if (bad) return bad;
  const env = withC(pods)[0]?.container?.env ?? [];
  const evidence = env.map((e) => `${e.name}=${e.value === null ? `(from ${e.from})` : mask(e.name, e.value)}`);
  const missing = contracts.env.filter((n) => !env.some((e) => e.name === n));
  if (missing.length)
    return fail(check, `not in the container's env: ${missing.join(", ")}`, {
      evidence,
      fix: "add them to the container's env in the pod template and roll out again",
    });
  return pass(
    check,
    contracts.env.length ? `declared env present: ${contracts.env.join(", ")}` : "no env declared in contracts.env",
    { evidence },
  );
}

/**
 * For the first pod that restarted or is not ready: its log (--previous after a restart), then its statuses and
 * events, through one Diagnoser, so the journal's classes, decisive lines and advice apply to both; a log line
 * that names its cause outranks the pod's restart pattern and, at the same weight, Kubernetes' own reason.
 */
export function diagnosePods(
  pods: readonly PodFacts[],
  read: { logs: string; events: readonly EventFacts[] },
): Finding | null {
  const p = pods.find((x) => !x.ready || (x.container?.restartCount ?? 0) > 0);
  if (!p) return null;
  const restarts = p.container?.restartCount ?? 0;
  const previous = restarts > 0;
  const evidence = read.events.map((e) =>
    `${e.at ?? ""} ${e.type} ${e.reason}${e.count > 1 ? ` x${e.count}` : ""}: ${e.message}`.trim(),
  );
  const data: Record<string, unknown> = { pod: p.name, previous, events: read.events.length };
  const d = new Diagnoser({ nRestarts: restarts });
  const lines = read.logs.split("\n").filter((l) => l.trim());
  for (const l of lines) d.pushLine(l);
  for (const f of kubeFactsOf(p, read.events)) d.pushKube(f.line, f.match);
  const r = d.finish();
  if (r.class !== "unknown" && r.class !== "ready" && r.class !== "booting") {
    const fromLog = r.below?.layer !== "kubernetes" && lines.length > 0;
    return fail("deploy.diagnosis", `${p.name}: ${r.summary}`, {
      evidence: [
        ...(r.decisive
          ? [`${fromLog ? (previous ? "previous container log" : "container log") : "pod"}: ${r.decisive}`]
          : []),
        ...evidence,
      ],
      data: { ...data, class: r.class, decisive: r.decisive, layer: r.below?.layer ?? "engine" },
      fix: r.fix ?? "read the container's log: kubectl logs --previous",
    });
  }
  return fail(
    "deploy.diagnosis",
    `${p.name}: ${p.container?.waiting?.reason ?? p.phase}, no log line or event says why`,
    {
      evidence,
      data: { ...data, class: "unknown", decisive: null },
      fix: "kubectl describe pod and kubectl logs --previous show the rest",
    },
  );
}
