// The fixes for what Kubernetes said about a pod (kube.ts): the one thing to change in the pod spec. Pure.
import type { BelowMatch } from "./below-engine.js";

export function kubeAdvice(m: BelowMatch): { summary: string; fix: string } {
  const f = m.facts;
  switch (f.what) {
    case "kube-oom-killed":
      return {
        summary:
          "Kubernetes killed the container for going over its memory limit (OOMKilled, exit 137): host RAM, not GPU memory",
        fix: "Raise the container's resources.limits.memory (vLLM holds the weights in host RAM while loading, plus --swap-space and any CPU offload per GPU), or lower the engine's host-RAM use (--swap-space 0, no --cpu-offload-gb, fewer API server processes).",
      };
    case "kube-evicted-memory":
      return {
        summary: "Kubernetes evicted the pod: its node ran low on memory (host RAM, not GPU memory)",
        fix: "Give the container a memory request that covers what the engine holds in host RAM (resources.requests.memory, close to the limit), or lower the engine's host-RAM use (--swap-space 0, no --cpu-offload-gb); pods that use more than they request are evicted first.",
      };
    case "kube-evicted":
      return {
        summary: `Kubernetes evicted the pod: its node ran low on ${f.argument ?? "a resource"}`,
        fix:
          f.argument === "ephemeral-storage"
            ? "The model download and the compile caches filled the node's disk: put the Hugging Face cache (HF_HOME) and ~/.cache on a volume (a PersistentVolumeClaim, or a hostPath with room), or request ephemeral-storage for the pod."
            : "Request the resource the node ran low on in the pod spec, or move the pod to a node with room; kubectl describe node shows the pressure.",
      };
    case "kube-crash-loop":
      return {
        summary: "Kubernetes restarts the container in a loop (CrashLoopBackOff): the engine exits at every start",
        fix: "Read why the engine exits: kubectl logs POD --previous (the log of the run that died), then explain that log; kubectl describe pod POD shows the last exit code.",
      };
    case "kube-image":
      return {
        summary: `Kubernetes could not pull the image${f.image ? ` ${f.image}` : ""}`,
        fix: "Fix the image name or tag in the pod spec (the tag must exist in the registry), or give the pod an imagePullSecret for a private registry; kubectl describe pod shows the registry's answer under Events.",
      };
    case "kube-container-config":
      return {
        summary: "Kubernetes could not create or start the container from its spec",
        fix: "Read the Events of kubectl describe pod POD for the missing secret, configmap or volume, or the wrong command, and fix the pod spec.",
      };
    case "kube-missing-ref":
      return {
        summary: `the pod refers to a ${f.argument} that does not exist in its namespace`,
        fix: `Create the ${f.argument} in the pod's namespace (kubectl create secret generic … / kubectl create configmap …), or fix the name in the pod spec's env/envFrom/volumes.`,
      };
    case "kube-unschedulable":
      return {
        summary: `no node can take the pod${f.argument ? `: not enough ${f.argument} free on any node` : ""}`,
        fix:
          f.argument && /gpu/i.test(f.argument)
            ? `Free a GPU (another pod holds them: kubectl get pods -A -o wide), lower resources.limits["${f.argument}"] in the pod spec (tensor parallel size must match it), or add a GPU node; a node without the device plugin (nvidia-device-plugin / GPU operator) advertises no ${f.argument} at all.`
            : "Read the scheduler's message (taints, node selectors, resources) and fix the pod spec or add capacity.",
      };
    case "kube-mount":
      return {
        summary: `Kubernetes could not mount the volume${f.path ? ` ${f.path}` : ""} into the pod`,
        fix: "Check that the PersistentVolumeClaim, secret or host path the volume names exists and is bound in the pod's namespace (kubectl get pvc), then restart the pod.",
      };
    case "kube-probe-kill":
      return {
        summary:
          "Kubernetes killed the container because a startup or liveness probe failed while the engine was still loading",
        fix: "Give the engine time to load: add a startupProbe on /health with failureThreshold x periodSeconds longer than the boot (weights download, torch.compile, CUDA graphs), or raise the liveness probe's initialDelaySeconds.",
      };
    default:
      return {
        summary: "Kubernetes could not run the pod",
        fix: "Read kubectl describe pod POD's Events and fix what they name.",
      };
  }
}
