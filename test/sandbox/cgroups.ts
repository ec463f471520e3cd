// The launcher's own cgroups (see the reference's "Never do this"): systemd-nspawn starts from a
// cgroup made for it under each mounted hierarchy, and those directories are removed after it stops.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CGROUP_NAME } from "./settings.js";
import { sh } from "./proc.js";

export function cgroupDirs(base = "/sys/fs/cgroup", name = CGROUP_NAME): string[] {
  const named = ["systemd", "unified"].map((h) => join(base, h)).filter((d) => existsSync(join(d, "cgroup.procs")));
  const roots = named.length > 0 ? named : [base];
  return roots.map((r) => join(r, name));
}

/** A shell prelude that moves the shell ($$) into each dir; `exec` after it keeps the PID. */
export function enterCgroupsScript(dirs: readonly string[]): string {
  return dirs.map((d) => `mkdir -p '${d}' && echo $$ > '${d}/cgroup.procs'`).join(" && ");
}

export async function removeCgroups(dirs: readonly string[]): Promise<void> {
  for (const d of dirs) {
    if (!existsSync(d)) continue;
    await sh("find", [d, "-depth", "-type", "d", "-exec", "rmdir", "{}", ";"], { allowFail: true, timeoutMs: 10_000 });
  }
}
