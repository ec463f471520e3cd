// cache-mount-mkdir: a bind-mounted cache directory whose host path nobody creates first.
import { commandsBefore, hitAt, runsOf } from "./lookups.js";
import { runName } from "./devices.js";
import type { TrapRuleDef } from "./types.js";
import { createdDirs, samePath } from "../../../domain/launch/dirs.js";

export const cacheMountMkdir: TrapRuleDef = {
  id: "cache-mount-mkdir",
  defaultLevel: "warn",
  // docker creates a missing bind-mount source; podman (and so a quadlet) refuses it
  runtimes: ["podman", "quadlet"],
  engines: "any",
  why:
    "podman refuses a bind mount whose host directory does not exist (statfs: no such file or directory), " +
    "so the first boot on a new host or after a cleanup dies before the engine starts",
  check: (ctx) =>
    runsOf(ctx, ["podman", "quadlet"]).flatMap(({ source, item: run }) =>
      run.volumes.flatMap((v) => {
        // named volumes (no slash, no variable) are created by podman itself
        if (!/cache/i.test(v.target) || !/^[/$~.]/.test(v.source)) return [];
        const src = { text: v.source, ...(v.resolvedSource !== undefined ? { resolved: v.resolvedSource } : {}) };
        const made = commandsBefore(ctx, source, run.command.line).flatMap(createdDirs);
        if (made.some((w) => samePath(w, src))) return [];
        return [
          hitAt(
            ctx,
            source.file,
            v.line,
            `the cache mount ${v.source}:${v.target} has no mkdir -p of ${v.source} before ${runName(run)}`,
            run.runtime === "quadlet"
              ? `Create the host directory before the container starts: ExecStartPre=/usr/bin/mkdir -p ${v.source} in [Service] (or a tmpfiles.d entry).`
              : `Create the host directory before the podman run: mkdir -p "${v.source}" (keep it outside the checkout).`,
          ),
        ];
      }),
    ),
};
