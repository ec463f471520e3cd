// The Kubernetes port: kubectl, as installed with its usual kubeconfig, run with argv (never a shell),
// every value validated before it reaches argv, a deadline on each call (kubectl's own --request-timeout
// and a kill past it). No API server runs on the gate's machines: tests put a kubectl-shaped stub on PATH.
import {
  parseEvents,
  parsePods,
  validName,
  validSelector,
  type EventFacts,
  type PodFacts,
} from "../../domain/kube/pods.js";
import { runLocal } from "../local/run-local.js";

export interface KubeTarget {
  namespace: string;
  selector: string;
  container: string;
}

export class KubectlError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** Throws KubectlError naming the bad value: nothing unvalidated reaches kubectl's argv. */
export function checkTarget(t: KubeTarget): void {
  if (!validName(t.namespace))
    throw new KubectlError(
      `namespace "${t.namespace}" is not a Kubernetes name`,
      "use the namespace as kubectl get ns prints it",
    );
  if (!validName(t.container))
    throw new KubectlError(
      `container "${t.container}" is not a Kubernetes name`,
      "use the container's name from the pod template",
    );
  if (!validSelector(t.selector))
    throw new KubectlError(
      `selector "${t.selector.slice(0, 80)}" is not a label selector`,
      "write it as kubectl -l takes it, e.g. app=chat,pod-template-hash=7d9c5b6f4",
    );
}

export interface Kubectl {
  pods(t: KubeTarget): Promise<PodFacts[]>;
  events(namespace: string, pod: string): Promise<EventFacts[]>;
  /** the container's log (its previous run's with previous), the last `tail` lines */
  logs(namespace: string, pod: string, container: string, previous: boolean, tail?: number): Promise<string>;
}

export function kubectl(timeoutMs = 20_000, bin = "kubectl"): Kubectl {
  const run = async (args: string[]): Promise<string> => {
    const r = await runLocal(bin, [`--request-timeout=${Math.ceil(timeoutMs / 1000)}s`, ...args], {
      timeoutMs: timeoutMs + 5000,
    });
    if (r.spawnError)
      throw new KubectlError(
        r.spawnError.code === "ENOENT"
          ? "kubectl is not installed here (not on PATH)"
          : `kubectl could not start: ${r.spawnError.message}`,
        "install kubectl where the gate runs, with the kubeconfig that reaches the cluster (KUBECONFIG), or drop kubernetes: from the endpoint",
      );
    if (r.timedOut)
      throw new KubectlError(
        `kubectl ${args[0]} did not answer within ${timeoutMs} ms`,
        "check that the API server is reachable from here (kubectl cluster-info)",
      );
    if (r.code !== 0)
      throw new KubectlError(
        `kubectl ${args[0]} exited ${r.code}: ${r.stderr.trim().split("\n")[0]?.slice(0, 300) ?? ""}`,
        "check the kubeconfig's context and that its user may get, list and watch pods and events and read pod logs in this namespace",
      );
    return r.stdout;
  };
  return {
    async pods(t) {
      checkTarget(t);
      return parsePods(
        await run(["get", "pods", "--namespace", t.namespace, "--selector", t.selector, "--output", "json"]),
        t.container,
      );
    },
    async events(namespace, pod) {
      if (!validName(namespace) || !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(pod)) return [];
      return parseEvents(
        await run([
          "get",
          "events",
          "--namespace",
          namespace,
          "--field-selector",
          `involvedObject.name=${pod}`,
          "--output",
          "json",
        ]),
      );
    },
    async logs(namespace, pod, container, previous, tail = 400) {
      if (!validName(namespace) || !validName(container) || !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(pod))
        return "";
      return run([
        "logs",
        "--namespace",
        namespace,
        pod,
        "--container",
        container,
        `--tail=${tail}`,
        ...(previous ? ["--previous"] : []),
      ]);
    },
  };
}
