// npm run sandbox -- up [--hosts N] | down [--host I] | status [--json] | ssh [--host I] [COMMAND...]
import { spawnSync } from "node:child_process";
import { downHosts, extraIndexes, fleetStatus, upFleet } from "./fleet.js";
import { down, hostStatus, type SandboxStatus } from "./machine.js";
import { sshArgs } from "./ssh-args.js";
import { hostSpec, stateDir, statePaths } from "./settings.js";

function describe(s: SandboxStatus, index: number): string {
  return [
    `host ${index} (${hostSpec(index).machine})`,
    `address:      ${s.address}`,
    `ssh port:     ${s.sshPort}`,
    `user:         ${s.user}`,
    `client key:   ${s.identityFile}`,
    `known_hosts:  ${s.knownHosts}`,
    `host key:     ${s.hostKeyFingerprint}`,
    `engine image: ${s.image}`,
    `engine url:   ${s.engineUrl}`,
    `reach it:     ssh ${sshArgs(s, statePaths(hostSpec(index).dir).knownHosts).join(" ")}`,
  ].join("\n");
}

/** The integer after `flag` (e.g. --hosts 3), or `dflt` when the flag is absent. */
function intFlag(args: string[], flag: string, dflt: number): number {
  const i = args.indexOf(flag);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`${flag} needs a whole number, got "${args[i + 1] ?? ""}"`);
  args.splice(i, 2);
  return v;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const log = (s: string) => process.stderr.write(`${s}\n`);
  switch (cmd) {
    case "up": {
      const { hosts } = await upFleet(intFlag(rest, "--hosts", 1), log);
      console.log(hosts.map((s, i) => describe(s, i)).join("\n\n"));
      return 0;
    }
    case "down": {
      // --host I stops that machine alone; plain `down` stops every sandbox machine.
      const one = intFlag(rest, "--host", -1);
      const extras = one >= 0 ? [one].filter((i) => i > 0) : await extraIndexes();
      const stopped = await downHosts(extras);
      if (one <= 0) stopped.unshift(...((await down()) ? [0] : []));
      log(
        stopped.length
          ? `stopped and cleaned up: host ${stopped.join(", host ")}`
          : "no sandbox host was running; leftovers cleaned up",
      );
      return 0;
    }
    case "status": {
      const all = await fleetStatus();
      const s = all[0] ?? null;
      // The one-host shape stays as it was (host 0's fields at the top); `hosts` lists every machine.
      if (rest.includes("--json")) console.log(JSON.stringify(s ? { ...s, hosts: all } : null));
      else
        console.log(
          all
            .map((h, i) =>
              h
                ? describe(h, i)
                : `host ${i} (${hostSpec(i).machine}): not running (npm run sandbox -- up${i ? ` --hosts ${i + 1}` : ""})`,
            )
            .join("\n\n"),
        );
      return s ? 0 : 3;
    }
    case "ssh": {
      const i = intFlag(rest, "--host", 0);
      const s = await hostStatus(hostSpec(i));
      if (!s) {
        log(`host ${i} is not running: npm run sandbox -- up --hosts ${i + 1}`);
        return 3;
      }
      const r = spawnSync("ssh", [...sshArgs(s, statePaths(hostSpec(i, stateDir()).dir).knownHosts), ...rest], {
        stdio: "inherit",
      });
      return r.status ?? 1;
    }
    default:
      log("usage: npm run sandbox -- up [--hosts N] | down [--host I] | status [--json] | ssh [--host I] [COMMAND...]");
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
