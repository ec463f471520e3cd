// How long a Kubernetes probe lets a container start before kubelet acts: initialDelaySeconds + failureThreshold x
// periodSeconds, with kubelet's defaults (0, 3, 10) for what the probe leaves out. Pure.
import type { YamlReader } from "./yaml-node.js";

export function probeBudget(y: YamlReader, probe: unknown): number {
  const num = (k: string, d: number) => Number(y.str(y.get(probe, k)) ?? d);
  return num("initialDelaySeconds", 0) + num("failureThreshold", 3) * num("periodSeconds", 10);
}
