// Container-level traps on the engine's container run: GPU device nodes, IPC/shm, memlock.
import { normalizeFlagName } from "../../../domain/launch/contract.js";
import type { Flag, PodmanRun } from "../../../domain/launch/model.js";
import { engineRuns, hitAt, hitIn, runsOf } from "./lookups.js";
import type { TrapRuleDef } from "./types.js";

const CONTAINERS = ["podman", "docker", "quadlet"] as const;

/** "podman run", "docker run", "the quadlet's podman run": how a message names the run. */
export function runName(run: PodmanRun): string {
  return run.runtime === "quadlet" ? "the quadlet's podman run" : `${run.runtime} ${run.create ? "create" : "run"}`;
}

export const renderNodes: TrapRuleDef = {
  id: "render-nodes",
  defaultLevel: "fail",
  runtimes: CONTAINERS,
  engines: "any",
  why:
    "with render nodes but not the primary card nodes, HIP enumerates the GPUs and then refuses a context on every one " +
    "(RuntimeError: No CUDA GPUs are available) while device_count() still reports them",
  check: (ctx) =>
    runsOf(ctx, CONTAINERS).flatMap(({ source, item: run }) => {
      const nodes = run.devices.filter(
        (d) => /^\/dev\/dri\/./.test(d.path) && d.path.replace(/\/+$/, "") !== "/dev/dri",
      );
      if (nodes.length === 0 || run.devices.some((d) => d.path.replace(/\/+$/, "") === "/dev/dri")) return [];
      return [
        hitAt(
          ctx,
          source.file,
          nodes[0]!.line,
          `${runName(run)} passes ${nodes.map((d) => d.path).join(", ")} but not the whole /dev/dri`,
          "Mount the whole directory instead of single nodes: --device /dev/dri (plus --device /dev/kfd on ROCm).",
          nodes.map((d) => d.line),
        ),
      ];
    }),
};

export const ipcShm: TrapRuleDef = {
  id: "ipc-shm",
  defaultLevel: "fail",
  // docker accepts both (it ignores --shm-size under --ipc=host); podman refuses the pair
  runtimes: ["podman", "quadlet"],
  engines: "any",
  why: "podman refuses --shm-size together with --ipc=host (the host's /dev/shm is used as is), so the container never starts",
  check: (ctx) =>
    runsOf(ctx, ["podman", "quadlet"]).flatMap(({ source, item: run }) => {
      if (run.ipc !== "host" || run.shmSize === null) return [];
      const lines = run.options.filter((o) => o.name === "--ipc" || o.name === "--shm-size").map((o) => o.line);
      const shm = run.options.filter((o) => o.name === "--shm-size").at(-1)!;
      const fix =
        run.runtime === "quadlet"
          ? "Keep --ipc=host (vLLM's workers share memory through it) and delete ShmSize=."
          : "Keep --ipc=host (vLLM's workers share memory through it) and delete --shm-size.";
      return [
        hitAt(
          ctx,
          source.file,
          shm.line,
          `${runName(run)} sets both --ipc=host and --shm-size ${run.shmSize}`,
          fix,
          lines,
        ),
      ];
    }),
};

const UNLIMITED = /^memlock=(-1|unlimited)(:(-1|unlimited))?$/;
/** Engine flags that make the engine pin host memory: CPU weight offload, swap space, CPU KV-cache offload. */
const PINNING = new Set([
  "--cpu-offload-gb",
  "--swap-space",
  "--kv-offloading-size",
  "--kv-offloading-backend",
  "--offload-backend",
]);

/**
 * vLLM's image tag as a version from 0.11 on: V0 is gone there and V1 allocates no CPU swap blocks (its engine core
 * sets num_cpu_blocks to 0), so --swap-space pins nothing. Earlier tags could still run V0; "latest" says nothing.
 */
function v1Only(image: string | undefined): boolean {
  const m = /:v?(\d+)\.(\d+)(?:\.\d+)?[^/]*$/.exec(image ?? "");
  return m !== null && (Number(m[1]) > 0 || Number(m[2]) >= 11);
}

/** The flag that pins host memory, if any (a zero size pins nothing). */
export function pinningFlag(flags: readonly Flag[], image?: string): Flag | null {
  return (
    flags.find((f) => {
      const name = normalizeFlagName(f.name);
      const value = f.resolvedValue ?? f.value;
      if (name === "--swap-space" && v1Only(image)) return false;
      if (PINNING.has(name)) return value === null || !/^0+(\.0+)?$/.test(value);
      return name === "--kv-transfer-config" && /Offloading|LMCache|CPU/i.test(value ?? "");
    }) ?? null
  );
}

/** memlock: compose runs on docker or podman, whose default limit is the rule's premise; a Kubernetes node's
 * container runtime usually runs with an unlimited memlock (containerd's unit sets LimitMEMLOCK=infinity) */
const MEMLOCK_RUNTIMES = [...CONTAINERS, "compose"] as const;

export const memlock: TrapRuleDef = {
  id: "memlock",
  defaultLevel: "warn",
  runtimes: MEMLOCK_RUNTIMES,
  engines: ["vllm", "sglang"],
  why:
    "the 8 MiB default memlock limit of a container makes large pinned allocations fail as a misleading " +
    "'CUDA error: out of memory' from pin_memory(); offload and swap space pin host memory",
  check: (ctx) =>
    engineRuns(ctx).flatMap(({ source, item: run }) => {
      if (!(MEMLOCK_RUNTIMES as readonly string[]).includes(run.runtime)) return [];
      const image = run.image ? (run.image.resolved ?? run.image.text) : undefined;
      const pin = source.script.engine?.podmanRun === run ? pinningFlag(source.script.engine.flags, image) : null;
      // a CPU image pins nothing for a GPU
      if (!pin || /cpu|openvino/i.test(run.image?.text ?? "") || run.ulimits.some((u) => UNLIMITED.test(u.value)))
        return [];
      const set = run.ulimits.find((u) => u.value.startsWith("memlock="));
      const shown = pin.value === null ? pin.name : `${pin.name} ${pin.value}`;
      const how =
        run.runtime === "quadlet"
          ? "Add Ulimit=memlock=-1:-1 to the quadlet's [Container] section"
          : `Add --ulimit memlock=-1:-1 to the engine's ${runName(run)}`;
      const summary = set
        ? `${runName(run)} limits memlock to ${set.value.slice(8)} while ${shown} pins host memory`
        : `${runName(run)} does not raise the memlock limit while ${shown} pins host memory`;
      const fix = `${how} (and raise it for the user in /etc/security/limits.d/).`;
      // a compose service has no command line of its own: the flag that pins is the cause's line, in the file that
      // writes it (a service that `extends:` another file's)
      if (!set && run.runtime === "compose") return [hitIn(ctx, source, pin, shown, summary, fix)];
      return [hitAt(ctx, source.file, set?.line ?? run.command.line, summary, fix, pin.file ? [] : [pin.line])];
    }),
};
