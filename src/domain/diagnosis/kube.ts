// Kubernetes output people paste with an engine's log, read as shapes, not as one log: `kubectl get pods`
// rows (the STATUS column), `kubectl describe pod` (a container's State/Last State `Reason:` lines, the
// Events table) and `kubectl get events` rows. Wordings from kubectl's describe printer and the kubelet's
// and the scheduler's event messages (kubernetes pkg/kubelet/images, pkg/kubelet/kuberuntime,
// pkg/scheduler/framework/plugins/noderesources: "Insufficient <resource>"). Pure. The same status words and
// event reasons read from kubectl's JSON (kube-facts.ts) go through statusOf/eventOf below: one table.
import type { BelowMatch } from "./below-engine.js";

export interface KubeMatch {
  /** oom: the container's memory limit (OOMKilled); crash-loop: only the restart pattern is known */
  kind: "oom" | "crash-loop" | "runtime-error";
  /** as the engine's signatures: 5 names its cause, 4 a generic state, 1 a wrapper the container's own log beats */
  priority: number;
  below: BelowMatch;
}

/** `kubectl get pods` (and `-o wide`): NAME READY STATUS RESTARTS AGE … */
const POD_ROW =
  /^(?<pod>[a-z0-9][-a-z0-9.]*)\s+(?<ready>\d+\/\d+)\s+(?:Init:)?(?<status>[A-Za-z]+)\s+(?<restarts>\d+)(?:\s+\([^)]*\))?\s+\S+/;
/** `kubectl describe pod`: a container's `State:`/`Last State:` reason, on its own line */
const REASON = /^\s*Reason:\s+(?<status>[A-Za-z]+)\s*$/;
/**
 * The kubelet's own journal line about a pod it cannot run (pod_workers.go `Error syncing pod …, skipping: …`): its
 * SyncResult error reads `failed to "StartContainer" for "NAME" with STATUS: "MESSAGE"` (kubelet
 * container/sync_result.go)
 */
const KUBELET_SYNC = /failed to \\?"StartContainer\\?" for \\?"[^"\\]+\\?" with (?<status>[A-Za-z]+): /;
/** The reason an event row carries: a describe `Events:` row or a `kubectl get events` row */
const EVENT = /(?:^|\s)(?:Warning|Normal)\s+(?<reason>[A-Z][A-Za-z]+)\s/;

const by = (kind: KubeMatch["kind"], priority: number, what: string, extra: Partial<BelowMatch["facts"]> = {}) => ({
  kind,
  priority,
  below: {
    // the class comes from KubeMatch.kind; below carries the layer and the facts the fix names
    kind: "runtime-error" as const,
    layer: "kubernetes" as const,
    priority,
    facts: { what, ...extra },
  },
});

/** A container status word (STATUS column, `Reason:`, or a containerStatus reason): what it says alone. */
export function statusOf(status: string): KubeMatch | null {
  switch (status) {
    case "OOMKilled":
      return by("oom", 5, "kube-oom-killed");
    case "CrashLoopBackOff":
    case "Error":
      return by("crash-loop", 1, "kube-crash-loop");
    case "ImagePullBackOff":
    case "ErrImagePull":
    case "InvalidImageName":
    case "ErrImageNeverPull":
      return by("runtime-error", 4, "kube-image");
    case "Evicted":
      return by("runtime-error", 4, "kube-evicted");
    case "CreateContainerConfigError":
    case "CreateContainerError":
    case "RunContainerError":
    case "ContainerCannotRun":
    case "StartError":
      return by("runtime-error", 4, "kube-container-config");
    default:
      return null;
  }
}

/** Event messages that name their cause (the kubelet's and the scheduler's wordings). */
export function eventOf(reason: string, line: string): KubeMatch | null {
  if (reason === "FailedScheduling") {
    const res = /Insufficient (?<resource>[\w./-]*\w)/.exec(line)?.groups?.resource;
    return by("runtime-error", 5, "kube-unschedulable", res ? { argument: res } : {});
  }
  if (reason === "Failed" || reason === "BackOff") {
    const pull = /Failed to pull image "(?<image>[^"]+)"/.exec(line);
    if (pull) return by("runtime-error", 5, "kube-image", { image: pull.groups!.image! });
    const back = /Back-off pulling image "(?<image>[^"]+)"/.exec(line);
    if (back) return by("runtime-error", 4, "kube-image", { image: back.groups!.image! });
    const missing = /Error: (?<kindOf>secret|configmap) "(?<name>[^"]+)" not found/.exec(line);
    if (missing)
      return by("runtime-error", 5, "kube-missing-ref", {
        argument: `${missing.groups!.kindOf} ${missing.groups!.name}`,
      });
    if (/Back-off restarting failed container/.test(line)) return by("crash-loop", 1, "kube-crash-loop");
    return null;
  }
  if (reason === "FailedMount" || reason === "FailedAttachVolume") {
    const vol = /for volume "(?<vol>[^"]+)"/.exec(line)?.groups?.vol;
    return by("runtime-error", 5, "kube-mount", vol ? { path: vol } : {});
  }
  // the eviction manager names the resource the node ran low on ("The node was low on resource: X.")
  if (reason === "Evicted") return evictionOf(line);
  // the kubelet killing a container that loads for longer than its probe allows: the engine was not failing
  if (reason === "Killing" && /failed (?:startup|liveness) probe/.test(line))
    return by("runtime-error", 4, "kube-probe-kill");
  return null;
}

function evictionOf(line: string): KubeMatch {
  const res = /low on resource: (?<resource>[\w-]+)/.exec(line)?.groups?.resource;
  if (res === "memory") return by("oom", 5, "kube-evicted-memory");
  return by("runtime-error", 5, "kube-evicted", res ? { argument: res } : {});
}

/** The scheduler's FitError (`0/36 nodes are available: 33 Insufficient nvidia.com/gpu. preemption: …`). */
const NODES_AVAILABLE = /\b\d+\/\d+ nodes are available: /;

/** The scheduler placed the pod (a `Scheduled` event): a FailedScheduling before it is over. */
export function isScheduled(text: string): boolean {
  return EVENT.exec(text)?.groups?.reason === "Scheduled" || /\bSuccessfully assigned \S+ to \S/.test(text);
}

/** Cheap test before the patterns: every shape above holds one of these. */
const MAYBE = /Reason:|Warning|Normal|\d\/\d|low on resource|StartContainer/;

export function kubeOf(text: string): KubeMatch | null {
  if (!MAYBE.test(text)) return null;
  const sync = text.includes("StartContainer") ? KUBELET_SYNC.exec(text)?.groups?.status : undefined;
  if (sync) return statusOf(sync);
  const reason = REASON.exec(text)?.groups?.status;
  if (reason) return statusOf(reason);
  const row = POD_ROW.exec(text.trim())?.groups;
  if (row) return statusOf(row.status!);
  const ev = EVENT.exec(text)?.groups?.reason;
  if (ev) return eventOf(ev, text);
  // the scheduler's message without its event row (quoted alone, or from a controller's log): FailedScheduling's text
  if (NODES_AVAILABLE.test(text)) return eventOf("FailedScheduling", text);
  // describe pod's `Message:` under `Reason: Evicted`
  return /^\s*Message:\s+The node was low on resource: /.test(text) ? evictionOf(text) : null;
}
