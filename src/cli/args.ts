// Command-line arguments -> Options, and the help texts, both from the tables in commands.ts.
// Pure: no process access beyond what is passed in.
import { parseArgs } from "node:util";
import {
  COMMAND_SPECS,
  COMMANDS,
  OPTION_SPECS,
  appliesTo,
  type Command,
  type CommandSpec,
  type OptionSpec,
} from "../commands/spec.js";
import { parseDuration } from "../lib/duration.js";
import { parseHostList, parseInstant, parseUrl, UsageError, type Options } from "../commands/options.js";
import { closest } from "../lib/did-you-mean.js";
import { SHELLS } from "../commands/completion.js";

const optionLine = (o: OptionSpec) => {
  const flag = `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.arg ? ` ${o.arg}` : ""}`;
  return `  ${flag.padEnd(26)} ${o.help}`;
};
const commandLine = (c: CommandSpec) => `  ${`${c.name}${c.args ? ` ${c.args}` : ""}`.padEnd(20)} ${c.summary}`;

const FOOTER = `environment: DEPLOY_GATE_SSH_KEY (the SSH private key when the config names no identityFile) and
  DEPLOY_GATE_SSH_PASSPHRASE (its passphrase); never pass keys in argv. DEPLOY_GATE_API_KEY holds the endpoint's API key
  (vLLM --api-key), sent by the readiness probe and verify. DEPLOY_GATE_TRACE=1 prints every command run.

exit codes: 0 pass, 1 a check failed, 2 usage or config error, or the gate could not judge (verify --url)`;

export const USAGE = `usage: deploy-gate <command> [options]     (deploy-gate <command> --help for its options)

commands:
${COMMAND_SPECS.map(commandLine).join("\n")}

options:
${OPTION_SPECS.map(optionLine).join("\n")}

${FOOTER}`;

/** What a bare `deploy-gate` prints: the commands and where the rest is. */
export const SHORT_USAGE = `usage: deploy-gate <command> [options]

${COMMAND_SPECS.map(commandLine).join("\n")}

deploy-gate help COMMAND for its options and examples; deploy-gate --help for everything`;

export function commandHelp(command: Command): string {
  const c: CommandSpec = COMMAND_SPECS.find((s) => s.name === command)!;
  return [
    `usage: deploy-gate ${c.name}${c.args ? ` ${c.args}` : ""} [options]`,
    "",
    c.summary,
    ...(c.details ? [c.details] : []),
    "",
    "options:",
    ...OPTION_SPECS.filter((o) => appliesTo(o, command)).map(optionLine),
    "",
    "examples:",
    ...(c.examples ?? []).map((e) => `  ${e}`),
    "",
    FOOTER,
  ].join("\n");
}

const didYouMean = (word: string, among: readonly string[]) => {
  const guess = closest(word, among);
  return guess ? ` (did you mean "${guess}"?)` : "";
};

/** parseArgs' "Unknown option '--josn'" with the nearest option of that command. */
function unknownOption(message: string, command: Command | null): UsageError {
  // "Option '--ref' argument is ambiguous": a value that starts with "-" (--ref -x); node suggests --ref=-x
  const ambiguous = /^Option '(-{1,2}[^' ]+)[^']*' argument is ambiguous/.exec(message)?.[1];
  if (ambiguous)
    return new UsageError(
      `${ambiguous} needs a value, and the next argument starts with "-": write ${ambiguous}=VALUE if the value really starts with "-"`,
    );
  const bad = /option '(-{1,2}[^']+)'/.exec(message)?.[1];
  if (!bad)
    return new UsageError(
      `${message.split("\n")[0]}; see ${command ? `deploy-gate ${command} --help` : "deploy-gate --help"}`,
    );
  const names = OPTION_SPECS.filter((o) => !command || appliesTo(o, command)).map((o) => `--${o.name}`);
  const hint = command ? `deploy-gate ${command} --help` : "deploy-gate --help";
  return new UsageError(`unknown option ${bad}${didYouMean(bad, names)}; see ${hint}`);
}

export type CliRequest = Options | "help" | "usage" | "version" | { help: Command };

export function parseCli(argv: readonly string[], cwd: string): CliRequest {
  if (argv.length === 0) return "usage";
  // `deploy-gate help [COMMAND]`, as git and gh take it
  if (argv[0] === "help") {
    const [, topic, extra] = argv;
    if (extra !== undefined) throw new UsageError(`help takes one command, got "${topic} ${extra}"`);
    if (topic === undefined) return "help";
    if (!(COMMANDS as readonly string[]).includes(topic))
      throw new UsageError(
        `unknown command "${topic}"${didYouMean(topic, COMMANDS)}; commands: ${COMMANDS.join(", ")}`,
      );
    return { help: topic as Command };
  }
  const first = argv.find((a) => !a.startsWith("-"));
  const command = (COMMANDS as readonly string[]).includes(first ?? "") ? (first as Command) : null;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        OPTION_SPECS.map((o) => [o.name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]),
      ),
    });
  } catch (e) {
    throw unknownOption((e as Error).message, command);
  }
  const { values, positionals } = parsed;
  const v = values as Record<string, string | boolean | undefined>;
  const str = (k: string) => v[k] as string | undefined;
  const flag = (k: string) => v[k] === true;
  const [cmd, ...rest] = positionals;
  if (v.version) return "version";
  if (v.help) return command ? { help: command } : "help";
  if (!cmd) throw new UsageError(`missing command\n\n${SHORT_USAGE}`);
  if (!command || cmd !== command)
    throw new UsageError(`unknown command "${cmd}"${didYouMean(cmd, COMMANDS)}; commands: ${COMMANDS.join(", ")}`);
  const spec: CommandSpec = COMMAND_SPECS.find((s) => s.name === command)!;
  if (rest.length !== spec.positionals) {
    if (spec.positionals === 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (command === "lock")
      throw new UsageError("lock needs status, release or acquire: deploy-gate lock status --endpoint NAME");
    if (command === "completion")
      throw new UsageError("completion needs a shell: deploy-gate completion bash|zsh|fish");
    throw new UsageError(`${command} needs exactly one ${spec.args} (or - for stdin)`);
  }
  const LOCK_ACTIONS = ["status", "release", "acquire"];
  if (command === "lock" && !LOCK_ACTIONS.includes(rest[0]!))
    throw new UsageError(`lock ${rest[0]}: expected status, release or acquire${didYouMean(rest[0]!, LOCK_ACTIONS)}`);
  if (command === "lock" && (rest[0] === "acquire") !== (str("message") !== undefined))
    throw new UsageError(
      rest[0] === "acquire"
        ? 'lock acquire needs -m MESSAGE, the reason every deploy is refused with: deploy-gate lock acquire --endpoint NAME -m "swapping GPU 2"'
        : "-m is for lock acquire (the reason of a hold by hand)",
    );
  if (command === "completion" && !(SHELLS as readonly string[]).includes(rest[0]!))
    throw new UsageError(`completion ${rest[0]}: expected bash, zsh or fish${didYouMean(rest[0]!, SHELLS)}`);
  for (const o of OPTION_SPECS) {
    if (v[o.name] === undefined || v[o.name] === false || appliesTo(o, command)) continue;
    const where = o.commands === "all" ? [] : o.commands;
    throw new UsageError(
      `--${o.name} does not apply to ${command} (it applies to ${where.join(", ")}); see deploy-gate ${command} --help`,
    );
  }
  for (const k of ["endpoint", "ref", "base", "config", "report", "summary", "model"]) {
    const val = str(k);
    if (val !== undefined && (val === "" || val.startsWith("-")))
      throw new UsageError(`--${k} needs a value, got "${val}"`);
  }
  const duration = (k: string) => {
    const raw = str(k);
    if (raw === undefined) return null;
    const ms = parseDuration(raw);
    if (ms === null) throw new UsageError(`--${k} "${raw}": expected a duration such as 90s, 10m or 1h`);
    return ms;
  };
  return {
    command,
    cwd,
    config: str("config") ?? null,
    endpoint: str("endpoint") ?? null,
    ref: str("ref") ?? null,
    base: str("base") ?? null,
    json: flag("json"),
    report: str("report") ?? null,
    summary: str("summary") ?? null,
    noColor: flag("no-color"),
    failOnWarn: flag("fail-on-warn"),
    file: command === "explain" || command === "completion" ? rest[0]! : null,
    dryRun: flag("dry-run"),
    lockWaitMs: duration("lock-wait") ?? 0,
    skipPreflight: flag("skip-preflight"),
    hostOverride: null,
    connectTimeoutMs: duration("connect-timeout"),
    quiet: flag("quiet"),
    verbose: flag("verbose"),
    hosts: parseHostList(str("hosts")),
    ...(command === "verify"
      ? {
          url: parseUrl(str("url")),
          model: str("model") ?? null,
          selector: str("selector") ?? null,
          rolloutStartMs: parseInstant(str("rollout-start"), Date.now(), parseDuration),
        }
      : {}),
    ...(command === "webhook"
      ? {
          listen: str("listen") ?? null,
          deadlineMs: duration("deadline"),
          namespaces: str("namespaces")?.split(",").filter(Boolean) ?? null,
        }
      : {}),
    ...(command === "logs"
      ? {
          boot: str("boot") ?? null,
          since: str("since") ?? null,
          follow: flag("follow"),
          lines: str("lines") ?? null,
          grep: str("grep") ?? null,
        }
      : {}),
    ...(command === "init" ? { commit: flag("commit") } : {}),
    ...(command === "lock"
      ? {
          lockAction: rest[0] as "status" | "release" | "acquire",
          force: flag("force"),
          ...(str("message") !== undefined ? { message: str("message") } : {}),
        }
      : {}),
  };
}
