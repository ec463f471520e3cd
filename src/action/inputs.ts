// The action's inputs -> the Options the CLI also builds. Every input is read and validated here, once,
// and an error names the input (never a CLI flag). Booleans read as the toolkit reads them.
import { pullRequestBase } from "./pull-request-base.js";
import * as core from "@actions/core";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { parseDuration } from "../lib/duration.js";
import { pinOverride, type HostOverride, type JumpTarget } from "../ports/host/target.js";
import { UsageError, type Command, type Options } from "../commands/options.js";
import { parseHostList } from "../commands/options.js";

export const ACTION_COMMANDS = ["preflight", "run", "verify", "rollback"] as const;

const inputError = (name: string, what: string) => new UsageError(`input ${name}: ${what}`);
const ADDRESS = /^[A-Za-z0-9.:_\-[\]]+$/;
const USER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}=?$/;

/** true/True/TRUE and false/False/FALSE (YAML 1.2 core schema, as core.getBooleanInput); empty: the default. */
export function booleanInput(name: string, fallback = false): boolean {
  if (core.getInput(name) === "") return fallback;
  try {
    return core.getBooleanInput(name);
  } catch {
    throw inputError(name, `"${core.getInput(name)}" is not a boolean: use true or false`);
  }
}

function durationInput(name: string, example: string): number | null {
  const raw = core.getInput(name);
  if (!raw) return null;
  const ms = parseDuration(raw);
  if (ms === null) throw inputError(name, `"${raw}" is not a duration such as ${example}`);
  return ms;
}

function portInput(name: string): number | undefined {
  const raw = core.getInput(name);
  if (!raw) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65535) throw inputError(name, `"${raw}" is not a port (1-65535)`);
  return n;
}

function matching(name: string, re: RegExp, what: string): string | undefined {
  const raw = core.getInput(name);
  if (!raw) return undefined;
  if (!re.test(raw)) throw inputError(name, `expected ${what}`);
  return raw;
}

/** `user@address[:port]`, `[v6]:port` allowed; pinned by jump-host-key. */
export function parseJumpHost(raw: string, pin: string): JumpTarget {
  const m = /^([^@\s]+)@(\[[^\]]+\]|[^:\s]+)(?::(\d+))?$/.exec(raw);
  if (!m || !USER.test(m[1]!) || !ADDRESS.test(m[2]!))
    throw inputError("jump-host", `"${raw}" is not user@address or user@address:port`);
  const port = m[3] ? Number(m[3]) : 22;
  if (port < 1 || port > 65535) throw inputError("jump-host", `port ${m[3]} is out of range (1-65535)`);
  if (!pin)
    throw inputError(
      "jump-host-key",
      "required with jump-host: the jump host's key is pinned like every host's (SHA256:... fingerprint or known_hosts line)",
    );
  return { address: m[2]!.replace(/^\[|\]$/g, ""), port, user: m[1]!, ...pinOverride(pin) } as JumpTarget;
}

function hostOverride(): HostOverride | null {
  const o: HostOverride = {
    address: matching("host", ADDRESS, "a host name or IP address"),
    port: portInput("port"),
    user: matching("user", USER, "a user name (letters, digits, _ . -)"),
  };
  const hostKey = matching("host-key", FINGERPRINT, 'an OpenSSH fingerprint "SHA256:..." (ssh-keygen -lf KEY)');
  const knownHosts = core.getInput("known-hosts");
  if (hostKey && knownHosts) throw inputError("known-hosts", "give host-key or known-hosts, not both");
  if (hostKey) Object.assign(o, { hostKey });
  if (knownHosts) Object.assign(o, { knownHosts });
  const jump = core.getInput("jump-host");
  if (jump) o.jump = parseJumpHost(jump, core.getInput("jump-host-key"));
  else if (core.getInput("jump-host-key")) throw inputError("jump-host-key", "given without jump-host");
  const set = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  return Object.keys(set).length ? (set as HostOverride) : null;
}

/** Secrets go to the gate through the environment, masked line by line (GitHub masks per line). */
function secretToEnv(input: string, envName: string, env: NodeJS.ProcessEnv, withNewline: boolean): void {
  const value = core.getInput(input, { trimWhitespace: false });
  if (!value) return;
  for (const line of value.split(/\r?\n/)) if (line.trim()) core.setSecret(line.trim());
  env[envName] = withNewline && !value.endsWith("\n") ? `${value}\n` : withNewline ? value : value.trim();
}

export function actionOptions(env: NodeJS.ProcessEnv = process.env): Options {
  const command = core.getInput("command") || "preflight";
  if (!(ACTION_COMMANDS as readonly string[]).includes(command))
    throw inputError("command", `"${command}" is not one of ${ACTION_COMMANDS.join(", ")}`);
  secretToEnv("ssh-key", "DEPLOY_GATE_SSH_KEY", env, true);
  secretToEnv("ssh-key-passphrase", "DEPLOY_GATE_SSH_PASSPHRASE", env, false);
  // The runner's "debug logging" re-run sets RUNNER_DEBUG=1: show every command the gate runs.
  if (env.RUNNER_DEBUG === "1") env.DEPLOY_GATE_TRACE = "1";
  return {
    command: command as Command,
    cwd: env.GITHUB_WORKSPACE ?? process.cwd(),
    config: core.getInput("config") || null,
    endpoint: core.getInput("endpoint") || null,
    ref: core.getInput("ref") || null,
    // on a pull request the PR's base commit, so a flag dropped in any of its commits is found
    base: core.getInput("base") || pullRequestBase(env),
    json: false,
    report: join(env.RUNNER_TEMP ?? process.cwd(), reportName(command, env)),
    summary: null,
    noColor: true,
    failOnWarn: booleanInput("fail-on-warn"),
    file: null,
    dryRun: booleanInput("dry-run"),
    lockWaitMs: durationInput("lock-wait", "90s or 10m") ?? 0,
    skipPreflight: booleanInput("skip-preflight"),
    hostOverride: hostOverride(),
    connectTimeoutMs: durationInput("connect-timeout", "20s or 1m"),
    quiet: false,
    hosts: hostsInput(),
  };
}

/** One report file per step: two steps of one job with the same command (verify, then verify --ref TAG)
 *  must not overwrite each other's. GITHUB_ACTION is the step's id, unique in the job. */
export function reportName(command: string, env: NodeJS.ProcessEnv): string {
  const step =
    env.GITHUB_ACTION?.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[._]+/, "") || randomBytes(4).toString("hex");
  return `deploy-gate-${command}-${step}-report.json`;
}

/** The hosts input: a fleet's host names, comma-separated, like --hosts. */
function hostsInput(): string[] | null {
  try {
    return parseHostList(core.getInput("hosts") || undefined);
  } catch (e) {
    throw inputError("hosts", (e as Error).message.replace(/^--hosts /, ""));
  }
}
