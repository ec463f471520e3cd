// Which CLI reads the engine's container on the host: docker when the launch file starts it with
// `docker run`, else podman (podman run, a quadlet). Both answer `container inspect`, `inspect`, `exec`
// and `images` alike; docker's journald log driver writes the same CONTAINER_* fields. Pure.
import type { ServeScript } from "./model.js";

export type ContainerCli = "podman" | "docker";

export function containerCli(script: Pick<ServeScript, "engine"> | null): ContainerCli {
  return script?.engine?.podmanRun?.runtime === "docker" ? "docker" : "podman";
}

/**
 * The engine runs straight under the unit (`ExecStart=vllm serve …`, a script that runs it without a
 * container): the unit's current run (its InvocationID and main process) plays the container's part.
 */
export function runsDirect(script: Pick<ServeScript, "engine"> | null): boolean {
  return script?.engine != null && script.engine.podmanRun === null;
}
