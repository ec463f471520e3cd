// Boots, finds and stops the sandbox host: systemd-nspawn from its own cgroups, on a veth pair,
// with a volatile root, so every boot is clean and `down` leaves nothing behind.
import { spawn, spawnSync } from "node:child_process";
import { mkdir, open, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildRoot } from "./build.js";
import { cgroupDirs, enterCgroupsScript, removeCgroups } from "./cgroups.js";
import { hostProblem, TOOLS } from "./gate.js";
import { makeKeys } from "./keys.js";
import { exists, sh, sleep } from "./proc.js";
import * as S from "./settings.js";
import { sshArgs } from "./ssh-args.js";

export interface SandboxStatus {
  address: string;
  sshPort: number;
  user: string;
  identityFile: string;
  knownHosts: string;
  hostKeyFingerprint: string;
  image: string;
  engineUrl: string;
}
interface State {
  pid: number;
  root: string;
  cgroups: string[];
  status: SandboxStatus;
  bootMs: number;
}

async function readState(dir: string): Promise<State | null> {
  const text = await readFile(S.statePaths(dir).json, "utf8").catch(() => null);
  return text ? (JSON.parse(text) as State) : null;
}

/** Alive and still our systemd-nspawn (a recycled PID is not ours). */
async function nspawnAlive(pid: number, machine: string): Promise<boolean> {
  const args = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0");
  // Exact argument match: --machine=dgsandbox is a prefix of --machine=dgsandbox1.
  return args[0]?.endsWith("systemd-nspawn") === true && args.includes(`--machine=${machine}`);
}

/** Host 0's status (the one-host harness): `dir` is its state dir. */
export async function status(dir = S.stateDir()): Promise<SandboxStatus | null> {
  return hostStatus(S.hostSpec(0, dir));
}

export async function hostStatus(spec: S.HostSpec): Promise<SandboxStatus | null> {
  const st = await readState(spec.dir);
  return st && (await nspawnAlive(st.pid, spec.machine)) ? st.status : null;
}

export async function bundleEngine(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [fileURLToPath(new URL("./engine/main.ts", import.meta.url))],
    outfile: `${outDir}/engine.mjs`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
  });
  // `/app/vllm serve MODEL …`: vLLM's CLI, a script with an interpreter line as a venv's bin/vllm is, for a
  // unit that runs the engine without a container (extensionless, so CommonJS: it loads the ESM bundle beside it)
  await writeFile(`${outDir}/vllm`, '#!/bin/node\nimport(require("node:path").join(__dirname, "engine.mjs"));\n', {
    mode: 0o755,
  });
}

async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>, logFile: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe()) return;
    await sleep(200);
  }
  const tail = (await readFile(logFile, "utf8").catch(() => "")).split("\n").slice(-30).join("\n");
  throw new Error(
    `sandbox host: ${what} not reached within ${timeoutMs / 1000}s. Last machine console lines:\n${tail}`,
  );
}

/** Why this machine cannot host the sandbox, or null. */
export function preconditions(): string | null {
  const missing =
    TOOLS.find((t) => spawnSync("sh", ["-c", `command -v ${t}`], { stdio: "ignore" }).status !== 0) ?? null;
  return hostProblem(process.platform, process.getuid?.(), missing);
}

/** Boots host 0 (the one-host harness): `dir` is its state dir. */
export async function up(log: (s: string) => void = () => {}, dir = S.stateDir()): Promise<SandboxStatus> {
  return upHost(S.hostSpec(0, dir), log);
}

export async function upHost(spec: S.HostSpec, log: (s: string) => void = () => {}): Promise<SandboxStatus> {
  const why = preconditions();
  if (why) throw new Error(why);
  const running = await hostStatus(spec);
  if (running) return running;
  await downHost(spec); // leftovers of a machine that died: cgroups, state
  const { root, built, ms } = await buildRoot(log);
  if (built) log(`built ${root} in ${(ms / 1000).toFixed(1)}s`);
  const { dir } = spec;
  const p = S.statePaths(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const keys = await makeKeys(dir, spec.hostAddress);
  await bundleEngine(p.engine);
  const cgroups = cgroupDirs(undefined, spec.cgroupName);
  const nspawn = [
    "systemd-nspawn",
    "-D",
    root,
    "--boot",
    `--machine=${spec.machine}`,
    "--register=no",
    "--keep-unit",
    "--console=read-only",
    "--network-veth",
    "--volatile=overlay",
    "--tmpfs=/var/lib/containers",
    `--bind-ro=${p.keys}:/etc/ssh/sandbox-keys`,
    `--bind-ro=${p.engine}:/var/lib/engine/app`,
  ];
  if (spec.index > 0) {
    // The cached root carries host 0's address: this machine gets its own through a bound network file.
    await writeFile(p.network, S.networkFile(spec.hostAddress), { mode: 0o644 });
    nspawn.push(`--bind-ro=${p.network}:/etc/systemd/network/10-host0.network`);
  }
  const logFd = await open(p.log, "w");
  const t0 = Date.now();
  const child = spawn("sh", ["-c", `${enterCgroupsScript(cgroups)} && exec "$@"`, "launcher", ...nspawn], {
    detached: true,
    stdio: ["ignore", logFd.fd, logFd.fd],
  });
  child.unref();
  await logFd.close();
  const pid = child.pid!;
  const info: SandboxStatus = {
    address: spec.hostAddress,
    sshPort: S.SSH_PORT,
    user: S.USER,
    ...keys,
    image: S.ENGINE_IMAGE,
    engineUrl: `http://${spec.hostAddress}:${S.ENGINE_PORT}`,
  };
  await writeFile(p.json, JSON.stringify({ pid, root, cgroups, status: info, bootMs: 0 } satisfies State, null, 2));
  try {
    await waitFor(`the ${spec.vethOuter} link`, 15_000, () => exists(`/sys/class/net/${spec.vethOuter}`), p.log);
    await sh("ip", ["addr", "add", `${spec.outerAddress}/24`, "dev", spec.vethOuter]);
    await sh("ip", ["link", "set", spec.vethOuter, "up"]);
    const ssh = sshArgs(info, p.knownHosts);
    await waitFor(
      "ssh",
      60_000,
      async () =>
        (await sh("ssh", [...ssh, "-o", "ConnectTimeout=2", "true"], { allowFail: true, timeoutMs: 5000 })).code === 0,
      p.log,
    );
    // The image import is a oneshot at boot; `systemctl start` returns when it has finished.
    const imp = await sh(
      "ssh",
      [
        ...ssh,
        "systemctl start engine-image.service || journalctl -u engine-image.service --no-pager | tail -20; podman image exists " +
          S.ENGINE_IMAGE,
      ],
      { allowFail: true, timeoutMs: 120_000 },
    );
    if (imp.code !== 0) throw new Error(`sandbox host: the engine image was not imported:\n${imp.stdout}${imp.stderr}`);
  } catch (e) {
    await downHost(spec);
    throw e;
  }
  const bootMs = Date.now() - t0;
  await writeFile(p.json, JSON.stringify({ pid, root, cgroups, status: info, bootMs } satisfies State, null, 2));
  log(
    `sandbox host ${spec.machine} (${spec.hostAddress}) up in ${(bootMs / 1000).toFixed(1)}s (ssh and engine image ready)`,
  );
  return info;
}

/** Stops host 0 (the one-host harness) and removes its state. */
export async function down(dir = S.stateDir()): Promise<boolean> {
  return downHost(S.hostSpec(0, dir));
}

/** Stops one machine by the PID its state records (never by name) and removes its cgroups and state. */
export async function downHost(spec: S.HostSpec): Promise<boolean> {
  const { dir, machine } = spec;
  const st = await readState(dir);
  let stopped = false;
  if (st && (await nspawnAlive(st.pid, machine))) {
    process.kill(st.pid, "SIGTERM"); // systemd-nspawn turns SIGTERM into a clean shutdown of the machine
    const until = Date.now() + 20_000;
    while (Date.now() < until && (await nspawnAlive(st.pid, machine))) await sleep(100);
    if (await nspawnAlive(st.pid, machine)) process.kill(st.pid, "SIGKILL");
    while (await nspawnAlive(st.pid, machine)) await sleep(100);
    stopped = true;
  }
  await removeCgroups(st?.cgroups ?? cgroupDirs(undefined, spec.cgroupName));
  await rm(dir, { recursive: true, force: true });
  return stopped;
}
