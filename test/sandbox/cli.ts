// npm run sandbox -- up|down|status [--json]|ssh [COMMAND...]
import { spawnSync } from "node:child_process";
import { down, status, up, type SandboxStatus } from "./machine.js";
import { sshArgs } from "./ssh-args.js";
import { stateDir, statePaths } from "./settings.js";

function describe(s: SandboxStatus): string {
  return [
    `address:      ${s.address}`,
    `ssh port:     ${s.sshPort}`,
    `user:         ${s.user}`,
    `client key:   ${s.identityFile}`,
    `known_hosts:  ${s.knownHosts}`,
    `host key:     ${s.hostKeyFingerprint}`,
    `engine image: ${s.image}`,
    `engine url:   ${s.engineUrl}`,
    `reach it:     ssh ${sshArgs(s, statePaths(stateDir()).knownHosts).join(" ")}`,
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const log = (s: string) => process.stderr.write(`${s}\n`);
  switch (cmd) {
    case "up": {
      console.log(describe(await up(log)));
      return 0;
    }
    case "down": {
      log((await down()) ? "sandbox host stopped and cleaned up" : "no sandbox host was running; leftovers cleaned up");
      return 0;
    }
    case "status": {
      const s = await status();
      if (rest.includes("--json")) console.log(JSON.stringify(s));
      else console.log(s ? describe(s) : "not running (npm run sandbox -- up)");
      return s ? 0 : 3;
    }
    case "ssh": {
      const s = await status();
      if (!s) { log("not running: npm run sandbox -- up"); return 3; }
      const r = spawnSync("ssh", [...sshArgs(s, statePaths(stateDir()).knownHosts), ...rest], { stdio: "inherit" });
      return r.status ?? 1;
    }
    default:
      log("usage: npm run sandbox -- up | down | status [--json] | ssh [COMMAND...]");
      return 2;
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e: unknown) => {
  process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
