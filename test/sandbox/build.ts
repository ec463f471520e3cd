// Builds the sandbox root once per recipe hash: debootstrap into a temp dir, configure, rename.
// A half-built root is never reused: only a completed build is renamed to its final name.
import { chmod, mkdir, readFile, readdir, rename, rm, symlink, writeFile, copyFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { debianMirror, lddPaths, recipe, recipeHash, type Recipe } from "./recipe.js";
import { cacheDir } from "./settings.js";
import { exists, sh } from "./proc.js";

async function aptSources(): Promise<string> {
  const parts: string[] = [];
  const dir = "/etc/apt/sources.list.d";
  for (const f of (await readdir(dir).catch(() => [])).filter((n) => n.endsWith(".sources") || n.endsWith(".list"))) {
    parts.push(await readFile(join(dir, f), "utf8"));
  }
  parts.push(await readFile("/etc/apt/sources.list", "utf8").catch(() => ""));
  return parts.join("\n\n");
}

async function suiteName(): Promise<string> {
  const osr = await readFile("/etc/os-release", "utf8");
  const m = /^VERSION_CODENAME=(\S+)/m.exec(osr);
  if (!m) throw new Error("cannot read VERSION_CODENAME from /etc/os-release: the sandbox host needs a Debian machine");
  return m[1]!;
}

export async function currentRecipe(): Promise<Recipe> {
  return recipe(await suiteName(), process.version);
}

export async function rootPath(): Promise<string> {
  return join(cacheDir(), `sandbox-${recipeHash(await currentRecipe())}`);
}

/** The engine double's container root: busybox, the outer node binary and its libraries. */
async function engineRoot(root: string): Promise<void> {
  const er = join(root, "var/lib/engine/rootfs");
  for (const d of ["bin", "app", "tmp", "models", "proc", "sys", "dev", "etc"])
    await mkdir(join(er, d), { recursive: true });
  await copyFile(join(root, "bin/busybox"), join(er, "bin/busybox"));
  await chmod(join(er, "bin/busybox"), 0o755);
  for (const app of ["sh", "cat", "ls", "sleep", "env"]) await symlink("busybox", join(er, "bin", app));
  await copyFile(process.execPath, join(er, "bin/node"));
  await chmod(join(er, "bin/node"), 0o755);
  const ldd = await sh("ldd", [process.execPath]);
  for (const lib of lddPaths(ldd.stdout)) {
    await mkdir(join(er, dirname(lib)), { recursive: true });
    await copyFile(lib, join(er, lib)); // copyFile follows symlinks: the real library lands under the soname
  }
  await mkdir(join(er, "models/qwen"), { recursive: true });
  await writeFile(join(er, "etc/passwd"), "root:x:0:0:root:/:/bin/sh\n");
}

/** Removes a directory tree, unmounting first whatever an interrupted debootstrap left mounted in it. */
async function removeTree(dir: string): Promise<void> {
  const mounts = (await readFile("/proc/mounts", "utf8"))
    .split("\n")
    .map((l) => l.split(" ")[1] ?? "")
    .filter((m) => m === dir || m.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const m of mounts) await sh("umount", ["-l", m], { allowFail: true });
  await rm(dir, { recursive: true, force: true });
}

/** Half-built roots of dead builds and roots of older recipes: never reused, so removed. */
async function removeStale(keep: string): Promise<void> {
  for (const name of await readdir(cacheDir()).catch(() => [] as string[])) {
    const m = /^sandbox-[0-9a-f]+(?:\.tmp-(\d+))?$/.exec(name);
    const path = join(cacheDir(), name);
    if (!m || path === keep) continue;
    if (m[1] && (await exists(`/proc/${m[1]}`))) continue; // another build still running
    await removeTree(path);
  }
}

export async function buildRoot(
  log: (s: string) => void = () => {},
): Promise<{ root: string; built: boolean; ms: number }> {
  const r = await currentRecipe();
  const root = join(cacheDir(), `sandbox-${recipeHash(r)}`);
  if (await exists(join(root, "etc/os-release"))) return { root, built: false, ms: 0 };
  const t0 = Date.now();
  const mirror = debianMirror(await aptSources(), r.suite);
  if (!mirror)
    throw new Error(`no apt source for suite ${r.suite} in /etc/apt/sources.list(.d): add one, then run up again`);
  const tmp = `${root}.tmp-${process.pid}`;
  const debs = join(cacheDir(), "debs");
  await mkdir(debs, { recursive: true });
  await removeStale(root);
  log(`building the sandbox root in ${tmp} (debootstrap ${r.suite}, about a minute cold)`);
  try {
    await sh(
      "debootstrap",
      ["--variant=minbase", `--include=${r.includes.join(",")}`, `--cache-dir=${debs}`, r.suite, tmp, mirror],
      { timeoutMs: 9 * 60_000 },
    );
    await configure(tmp, r);
  } catch (e) {
    await removeTree(tmp);
    throw e;
  }
  try {
    await rename(tmp, root);
  } catch (e) {
    // Another build finished first: use its root, drop ours.
    await removeTree(tmp);
    if (!(await exists(join(root, "etc/os-release")))) throw e;
  }
  return { root, built: true, ms: Date.now() - t0 };
}

async function configure(tmp: string, r: Recipe): Promise<void> {
  for (const [rel, [mode, content]] of Object.entries(r.files)) {
    await mkdir(dirname(join(tmp, rel)), { recursive: true });
    await writeFile(join(tmp, rel), content, { mode });
    await chmod(join(tmp, rel), mode);
  }
  // sshd's own keys from the package are dropped: the pinned key is made per boot by the harness.
  for (const f of await readdir(join(tmp, "etc/ssh"))) if (f.startsWith("ssh_host_")) await rm(join(tmp, "etc/ssh", f));
  await mkdir(join(tmp, "etc/ssh/sandbox-keys"), { recursive: true });
  await sh("chroot", [tmp, "systemctl", "enable", "systemd-networkd", "engine-image.service", "ssh.service"]);
  // No timers that would try to reach the network from inside the machine.
  await sh(
    "chroot",
    [tmp, "systemctl", "mask", "apt-daily.timer", "apt-daily-upgrade.timer", "systemd-timesyncd.service"],
    { allowFail: true },
  );
  await writeFile(join(tmp, "etc/machine-id"), "");
  await engineRoot(tmp);
}
