// Container-level traps on the engine's podman run: GPU device nodes, IPC/shm, memlock.
import { allRuns, engineRuns, hitAt } from "./context.js";
import type { TrapRuleDef } from "./types.js";

export const renderNodes: TrapRuleDef = {
  id: "render-nodes",
  defaultLevel: "fail",
  why: "with render nodes but not the primary card nodes, HIP enumerates the GPUs and then refuses a context on every one "
    + "(RuntimeError: No CUDA GPUs are available) while device_count() still reports them",
  check: (ctx) => allRuns(ctx).flatMap(({ source, item: run }) => {
    const nodes = run.devices.filter((d) => /^\/dev\/dri\/./.test(d.path) && d.path.replace(/\/+$/, "") !== "/dev/dri");
    if (nodes.length === 0 || run.devices.some((d) => d.path.replace(/\/+$/, "") === "/dev/dri")) return [];
    return [hitAt(ctx, source.file, nodes[0]!.line, `podman run passes ${nodes.map((d) => d.path).join(", ")} but not the whole /dev/dri`,
      "Mount the whole directory instead of single nodes: --device /dev/dri (plus --device /dev/kfd on ROCm).", nodes.map((d) => d.line))];
  }),
};

export const ipcShm: TrapRuleDef = {
  id: "ipc-shm",
  defaultLevel: "fail",
  why: "podman refuses --shm-size together with --ipc=host (the host's /dev/shm is used as is), so the container never starts",
  check: (ctx) => allRuns(ctx).flatMap(({ source, item: run }) => {
    if (run.ipc !== "host" || run.shmSize === null) return [];
    const lines = run.options.filter((o) => o.name === "--ipc" || o.name === "--shm-size").map((o) => o.line);
    const shm = run.options.filter((o) => o.name === "--shm-size").at(-1)!;
    return [hitAt(ctx, source.file, shm.line, `podman run sets both --ipc=host and --shm-size ${run.shmSize}`,
      "Keep --ipc=host (vLLM's workers share memory through it) and delete --shm-size.", lines)];
  }),
};

const UNLIMITED = /^memlock=(-1|unlimited)(:(-1|unlimited))?$/;

export const memlock: TrapRuleDef = {
  id: "memlock",
  defaultLevel: "warn",
  why: "the 8 MiB default memlock limit makes large pinned allocations fail as a misleading "
    + "'CUDA error: out of memory' from pin_memory(); expert offload pins host memory by default",
  check: (ctx) => engineRuns(ctx).flatMap(({ source, item: run }) => {
    if (run.ulimits.some((u) => UNLIMITED.test(u.value))) return [];
    const set = run.ulimits.find((u) => u.value.startsWith("memlock="));
    return [hitAt(ctx, source.file, set?.line ?? run.command.line,
      set ? `the engine's podman run limits memlock to ${set.value.slice(8)}` : "the engine's podman run does not raise the memlock limit",
      "Add --ulimit memlock=-1:-1 to the engine's podman run (and raise it for the user in /etc/security/limits.d/).")];
  }),
};
