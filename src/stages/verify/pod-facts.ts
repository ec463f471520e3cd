// The I/O half of verify's pod checks: one `kubectl get pods`, then for a pod that restarted or is not
// ready its log (--previous after a restart) and its events; pod-checks.ts judges them. A kubectl that
// cannot answer makes those checks undecided (the gate could not judge), never pass.
import type { Contracts } from "../../domain/config/schema.js";
import { fail, type Finding } from "../../domain/report/finding.js";
import { KubectlError, type Kubectl, type KubeTarget } from "../../ports/kube/kubectl.js";
import { diagnosePods, manifestArgs, podArgv, podContainer, podEnv, podRestarts } from "./pod-checks.js";

export interface PodSource {
  kubectl: Kubectl;
  target: KubeTarget;
  /** the repository's manifest (path for the report, its text) */
  manifest: { path: string; text: string } | null;
  /** epoch ms: a pod started before it is the old version */
  rolloutStartMs: number | null;
}

const CHECKS = ["verify.restarts", "verify.container", "verify.argv", "verify.env"];

export async function podFindings(src: PodSource, contracts: Contracts): Promise<Finding[]> {
  const { kubectl, target: t } = src;
  let pods;
  try {
    pods = await kubectl.pods(t);
  } catch (e) {
    const fix = e instanceof KubectlError ? e.fix : "see the message";
    return CHECKS.map((c) =>
      fail(c, `kubectl could not read the pods (${t.namespace}, ${t.selector}): ${(e as Error).message}`, {
        fix,
        data: { undecided: true },
      }),
    );
  }
  const want = src.manifest ? manifestArgs(src.manifest.text, t.container) : null;
  const findings = [
    podRestarts(pods, contracts.restarts),
    podContainer(pods, t.selector, src.rolloutStartMs),
    podArgv(pods, want, want ? src.manifest!.path : null, contracts),
    podEnv(pods, contracts),
  ];
  const sick = pods.find((p) => !p.ready || (p.container?.restartCount ?? 0) > 0);
  if (sick) {
    const previous = (sick.container?.restartCount ?? 0) > 0;
    const [logs, events] = await Promise.all([
      sick.container && (previous || sick.container.startedAt)
        ? kubectl.logs(t.namespace, sick.name, t.container, previous).catch(() => "")
        : Promise.resolve(""),
      kubectl.events(t.namespace, sick.name).catch(() => []),
    ]);
    const d = diagnosePods(pods, { logs, events });
    if (d) findings.push(d);
  }
  return findings;
}
