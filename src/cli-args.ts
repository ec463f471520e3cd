// Command-line arguments -> Options. Pure: no process access beyond what is passed in.
import { parseArgs } from "node:util";
import { parseDuration } from "./config/duration.js";
import { COMMANDS, UsageError, type Command, type Options } from "./options.js";

export const USAGE = `usage: deploy-gate <command> [options]

commands:
  preflight            check the serve scripts in this repository (no host needed)
  run                  preflight, deploy over SSH, verify
  verify               verify the live endpoint against the contracts (--ref TAG: rollback-tag verification)
  rollback             deploy rollback.ref, then verify
  lock status|release  who holds the endpoint's deploy lock; release it (--force when another run holds it)
  explain FILE|-       diagnose a saved journalctl -o json dump, a plain log, or a response body
  schema               print the JSON Schema of deploy-gate.yml
  logs                 the endpoint's journal, decoded, one boot at a time, with its diagnosis
                       (--endpoint NAME [--boot current|previous|N, --boot=-N] [--since 30m|DATE] [--follow] [--json])

options:
  --config FILE        deploy-gate.yml (default: deploy-gate.yml at the repository root, else discover scripts)
  --endpoint NAME      one endpoint (default: all)
  --ref REF            check the scripts at REF instead of the work tree
  --base REF           what dropped-flags compares against (default: rollback.ref, else the commit before the last change)
  --json               print exactly the JSON report on stdout
  --report FILE        also write the JSON report to FILE
  --summary FILE       also write the markdown job summary to FILE
  --no-color           no colour (also NO_COLOR=1, or when stdout is not a terminal)
  --fail-on-warn       exit 1 on warnings too
  --dry-run            run/rollback: connect, lock, show the files that would change and the commands; change nothing
  --lock-wait DURATION wait this long for a held deploy lock (default: fail at once, naming the holder)
  --skip-preflight     run: deploy even when preflight fails (to see what the host says)
  --hosts A,B          fleet endpoints (hosts:): only these hosts, e.g. to finish a halted rollout
  --force              lock release: release a lock another run holds (it names the holder)

environment: DEPLOY_GATE_SSH_KEY  the SSH private key (when the config names no identityFile); never pass keys in argv
             DEPLOY_GATE_API_KEY  the endpoint's API key (vLLM --api-key), sent by the readiness probe and verify
  -h, --help           this help;  -v, --version  the version

exit codes: 0 pass, 1 a check failed, 2 usage or config error`;

export function parseCli(argv: readonly string[], cwd: string): Options | "help" | "version" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: "string" },
        endpoint: { type: "string" },
        ref: { type: "string" },
        base: { type: "string" },
        json: { type: "boolean", default: false },
        report: { type: "string" },
        summary: { type: "string" },
        "no-color": { type: "boolean", default: false },
        "fail-on-warn": { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        "lock-wait": { type: "string" },
        "skip-preflight": { type: "boolean", default: false },
        hosts: { type: "string" },
        boot: { type: "string" },
        since: { type: "string" },
        follow: { type: "boolean", default: false },
        force: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", short: "v", default: false },
      },
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split("\n")[0]}\n\n${USAGE}`);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return "help";
  if (v.version) return "version";
  const [cmd, ...rest] = positionals;
  if (!cmd) throw new UsageError(`missing command\n\n${USAGE}`);
  if (!(COMMANDS as readonly string[]).includes(cmd)) throw new UsageError(`unknown command "${cmd}" (commands: ${COMMANDS.join(", ")})`);
  const command = cmd as Command;
  if (command === "explain" && rest.length !== 1) throw new UsageError("explain needs exactly one FILE (or - for stdin)");
  if (command !== "logs" && (v.boot !== undefined || v.since !== undefined || v.follow)) throw new UsageError("--boot, --since and --follow belong to the logs command");
  if (command === "lock" && (rest.length !== 1 || !["status", "release"].includes(rest[0]!))) throw new UsageError("lock needs status or release: deploy-gate lock status --endpoint NAME");
  if (command !== "explain" && command !== "lock" && rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  for (const k of ["endpoint", "ref", "base"] as const) {
    const val = v[k];
    if (val !== undefined && (val === "" || val.startsWith("-"))) throw new UsageError(`--${k} needs a value, got "${val}"`);
  }
  const lockWaitMs = v["lock-wait"] === undefined ? 0 : parseDuration(v["lock-wait"]);
  if (lockWaitMs === null) throw new UsageError(`--lock-wait "${v["lock-wait"]}": expected a duration such as 90s, 10m or 1h`);
  return {
    command,
    cwd,
    config: v.config ?? null,
    endpoint: v.endpoint ?? null,
    ref: v.ref ?? null,
    base: v.base ?? null,
    json: v.json,
    report: v.report ?? null,
    summary: v.summary ?? null,
    noColor: v["no-color"],
    failOnWarn: v["fail-on-warn"],
    file: command === "explain" ? rest[0]! : null,
    dryRun: v["dry-run"],
    lockWaitMs,
    skipPreflight: v["skip-preflight"],
    hostKey: null,
    knownHosts: null,
    hosts: parseHostList(v.hosts),
    ...(command === "logs" ? { boot: v.boot ?? null, since: v.since ?? null, follow: v.follow } : {}),
    ...(command === "lock" ? { lockAction: rest[0] as "status" | "release", force: v.force } : {}),
  };
}

/** --hosts a,b -> ["a", "b"]; absent -> null. */
export function parseHostList(v: string | undefined): string[] | null {
  if (v === undefined) return null;
  const names = v.split(",").map((s) => s.trim()).filter(Boolean);
  if (!names.length || names.some((n) => !/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(n))) throw new UsageError(`--hosts "${v}": expected host names from the endpoint's hosts:, comma-separated (e.g. --hosts gpu-a,gpu-b)`);
  return [...new Set(names)];
}
