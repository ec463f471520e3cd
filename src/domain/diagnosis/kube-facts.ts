// A pod's facts from kubectl's JSON (domain/kube/pods.ts) as the lines the diagnosis weighs: the scheduler's
// PodScheduled message, the container's waiting reason, its last termination (reason, exit code) and the pod's
// events, each classified by kube.ts's own table (statusOf/eventOf), so the JSON and the pasted text agree.
// Each line reads like kubectl's describe output, since it becomes the report's decisive line. Pure.
import type { EventFacts, PodFacts } from "../kube/pods.js";
import { eventOf, statusOf, type KubeMatch } from "./kube.js";
import { kubeAdvice } from "./kube-advice.js";

export interface KubeFact {
  line: string;
  match: KubeMatch;
}

export function kubeFactsOf(pod: PodFacts, events: readonly EventFacts[]): KubeFact[] {
  const out: KubeFact[] = [];
  const add = (line: string, match: KubeMatch | null) => {
    if (match) out.push({ line, match });
  };
  // the events first: at equal weight the first line holds, and an event names its reason and who said it
  for (const e of events)
    add(`${e.type} ${e.reason}${e.count > 1 ? ` x${e.count}` : ""}: ${e.message}`, eventOf(e.reason, e.message));
  const c = pod.container;
  if (pod.unschedulable)
    add(`${pod.name}: PodScheduled False: ${pod.unschedulable}`, eventOf("FailedScheduling", pod.unschedulable));
  const term = c?.lastTerminated;
  if (c && term?.reason)
    add(
      `${pod.name}: ${c.name} last terminated: ${term.reason} (exit ${term.exitCode ?? "?"})${term.finishedAt ? ` at ${term.finishedAt}` : ""}`,
      statusOf(term.reason),
    );
  const wait = c?.waiting;
  if (c && wait?.reason)
    // the kubelet's waiting message names the image (`Back-off pulling image "X"`): read like its event
    add(
      `${pod.name}: ${c.name} waiting: ${wait.reason}${wait.message ? ` (${wait.message})` : ""}`,
      (wait.message ? eventOf("BackOff", wait.message) : null) ?? statusOf(wait.reason),
    );
  return out;
}

/** Kubernetes' fix for the weightiest of a pod's own statuses (no events): verify.container's advice. */
export function podFixOf(pod: PodFacts): string | null {
  const top = kubeFactsOf(pod, []).reduce<KubeFact | null>(
    (a, f) => (!a || f.match.priority > a.match.priority ? f : a),
    null,
  );
  return top ? kubeAdvice(top.match.below).fix : null;
}
