// small-shm: an engine split over several GPUs in a container that keeps the runtime's 64 MiB /dev/shm. vLLM's
// and SGLang's workers (PyTorch, NCCL) exchange tensors through shared memory; the engine's own container docs
// ask for --ipc=host or --shm-size, Kubernetes for an emptyDir (medium: Memory) at /dev/shm.
import { normalizeFlagName } from "../../../domain/launch/contract.js";
import type { PodmanRun } from "../../../domain/launch/model.js";
import { engines, hitIn } from "./lookups.js";
import type { TrapRuleDef } from "./types.js";

const PARALLEL = new Set(["--tensor-parallel-size", "--pipeline-parallel-size"]);

/** What gives the container more than the default /dev/shm, in each form. */
function hasShm(run: PodmanRun): boolean {
  if (run.workload?.form === "kubernetes") return run.workload.shm !== null;
  return run.ipc === "host" || run.shmSize !== null || run.volumes.some((v) => v.target === "/dev/shm");
}

const FIX: Record<string, string> = {
  compose: "Add ipc: host (or shm_size: 16g) to the engine's service.",
  kubernetes:
    "Mount an emptyDir with medium: Memory at /dev/shm (volumes: [{name: dshm, emptyDir: {medium: Memory}}], volumeMounts: [{name: dshm, mountPath: /dev/shm}]).",
  quadlet: "Add ShmSize=16g (or PodmanArgs=--ipc=host) to the quadlet's [Container] section.",
};

export const smallShm: TrapRuleDef = {
  id: "small-shm",
  defaultLevel: "warn",
  runtimes: ["podman", "docker", "quadlet", "compose", "kubernetes"],
  engines: ["vllm", "sglang"],
  why:
    "a container's /dev/shm is 64 MiB unless raised, and the workers of an engine split over several GPUs exchange " +
    "tensors through it: the boot dies in NCCL or PyTorch with a shared-memory error",
  check: (ctx) =>
    engines(ctx).flatMap(({ source, engine }) => {
      const run = engine.podmanRun;
      if (!run || hasShm(run)) return [];
      const split = engine.flags.find(
        (f) => PARALLEL.has(normalizeFlagName(f.name)) && Number(f.resolvedValue ?? f.value) > 1,
      );
      if (!split) return [];
      const form = run.workload?.form ?? run.runtime;
      return [
        hitIn(
          ctx,
          source,
          split,
          `${split.name} ${split.value ?? ""}`.trim(),
          `${split.name} ${split.resolvedValue ?? split.value} splits the engine over several GPUs in a container left with the default 64 MiB /dev/shm`,
          FIX[form] ?? `Add --ipc=host (or --shm-size 16g) to the engine's ${run.runtime} run.`,
        ),
      ];
    }),
};
