#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  SHELLS,
  VERSION,
  parseDuration,
  traceOn
} from "./chunks/chunk-RVIN33HA.js";
import {
  COMMANDS,
  COMMAND_SPECS,
  OPTION_SPECS,
  UsageError,
  appliesTo,
  parseHostList,
  parseInstant,
  parseUrl,
  sanitizeValue
} from "./chunks/chunk-5RGKNVFB.js";
import "./chunks/chunk-7ICKPVQF.js";
import {
  closest
} from "./chunks/chunk-ZMUO5JYW.js";

// src/cli/bin.ts
import * as nodeModule from "node:module";

// src/cli/args.ts
import { parseArgs } from "node:util";
var optionLine = (o) => {
  const flag = `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.arg ? ` ${o.arg}` : ""}`;
  return `  ${flag.padEnd(26)} ${o.help}`;
};
var commandLine = (c) => `  ${`${c.name}${c.args ? ` ${c.args}` : ""}`.padEnd(20)} ${c.summary}`;
var FOOTER = `environment: DEPLOY_GATE_SSH_KEY (the SSH private key when the config names no identityFile) and
  DEPLOY_GATE_SSH_PASSPHRASE (its passphrase); never pass keys in argv. DEPLOY_GATE_API_KEY holds the endpoint's API key
  (vLLM --api-key), sent by the readiness probe and verify. DEPLOY_GATE_TRACE=1 prints every command run.

exit codes: 0 pass, 1 a check failed, 2 usage or config error, or the gate could not judge (verify --url)`;
var USAGE = `usage: deploy-gate <command> [options]     (deploy-gate <command> --help for its options)

commands:
${COMMAND_SPECS.map(commandLine).join("\n")}

options:
${OPTION_SPECS.map(optionLine).join("\n")}

${FOOTER}`;
var SHORT_USAGE = `usage: deploy-gate <command> [options]

${COMMAND_SPECS.map(commandLine).join("\n")}

deploy-gate help COMMAND for its options and examples; deploy-gate --help for everything`;
function commandHelp(command) {
  const c = COMMAND_SPECS.find((s) => s.name === command);
  return [
    `usage: deploy-gate ${c.name}${c.args ? ` ${c.args}` : ""} [options]`,
    "",
    c.summary,
    ...c.details ? [c.details] : [],
    "",
    "options:",
    ...OPTION_SPECS.filter((o) => appliesTo(o, command)).map(optionLine),
    "",
    "examples:",
    ...(c.examples ?? []).map((e) => `  ${e}`),
    "",
    FOOTER
  ].join("\n");
}
var didYouMean = (word, among) => {
  const guess = closest(word, among);
  return guess ? ` (did you mean "${guess}"?)` : "";
};
function unknownOption(message, command) {
  const ambiguous = /^Option '(-{1,2}[^' ]+)[^']*' argument is ambiguous/.exec(message)?.[1];
  if (ambiguous)
    return new UsageError(
      `${ambiguous} needs a value, and the next argument starts with "-": write ${ambiguous}=VALUE if the value really starts with "-"`
    );
  const bad = /option '(-{1,2}[^']+)'/.exec(message)?.[1];
  if (!bad)
    return new UsageError(
      `${message.split("\n")[0]}; see ${command ? `deploy-gate ${command} --help` : "deploy-gate --help"}`
    );
  const names = OPTION_SPECS.filter((o) => !command || appliesTo(o, command)).map((o) => `--${o.name}`);
  const hint = command ? `deploy-gate ${command} --help` : "deploy-gate --help";
  return new UsageError(`unknown option ${bad}${didYouMean(bad, names)}; see ${hint}`);
}
function parseCli(argv, cwd) {
  if (argv.length === 0) return "usage";
  if (argv[0] === "help") {
    const [, topic, extra] = argv;
    if (extra !== void 0) throw new UsageError(`help takes one command, got "${topic} ${extra}"`);
    if (topic === void 0) return "help";
    if (!COMMANDS.includes(topic))
      throw new UsageError(
        `unknown command "${topic}"${didYouMean(topic, COMMANDS)}; commands: ${COMMANDS.join(", ")}`
      );
    return { help: topic };
  }
  const first = argv.find((a) => !a.startsWith("-"));
  const command = COMMANDS.includes(first ?? "") ? first : null;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        OPTION_SPECS.map((o) => [o.name, { type: o.type, ...o.short ? { short: o.short } : {} }])
      )
    });
  } catch (e) {
    throw unknownOption(e.message, command);
  }
  const { values, positionals } = parsed;
  const v = values;
  const str = (k) => v[k];
  const flag = (k) => v[k] === true;
  const [cmd, ...rest] = positionals;
  if (v.version) return "version";
  if (v.help) return command ? { help: command } : "help";
  if (!cmd) throw new UsageError(`missing command

${SHORT_USAGE}`);
  if (!command || cmd !== command)
    throw new UsageError(`unknown command "${cmd}"${didYouMean(cmd, COMMANDS)}; commands: ${COMMANDS.join(", ")}`);
  const spec = COMMAND_SPECS.find((s) => s.name === command);
  if (rest.length !== spec.positionals) {
    if (spec.positionals === 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (command === "lock")
      throw new UsageError("lock needs status, release or acquire: deploy-gate lock status --endpoint NAME");
    if (command === "completion")
      throw new UsageError("completion needs a shell: deploy-gate completion bash|zsh|fish");
    throw new UsageError(`${command} needs exactly one ${spec.args} (or - for stdin)`);
  }
  const LOCK_ACTIONS = ["status", "release", "acquire"];
  if (command === "lock" && !LOCK_ACTIONS.includes(rest[0]))
    throw new UsageError(`lock ${rest[0]}: expected status, release or acquire${didYouMean(rest[0], LOCK_ACTIONS)}`);
  if (command === "lock" && rest[0] === "acquire" !== (str("message") !== void 0))
    throw new UsageError(
      rest[0] === "acquire" ? 'lock acquire needs -m MESSAGE, the reason every deploy is refused with: deploy-gate lock acquire --endpoint NAME -m "swapping GPU 2"' : "-m is for lock acquire (the reason of a hold by hand)"
    );
  if (command === "completion" && !SHELLS.includes(rest[0]))
    throw new UsageError(`completion ${rest[0]}: expected bash, zsh or fish${didYouMean(rest[0], SHELLS)}`);
  for (const o of OPTION_SPECS) {
    if (v[o.name] === void 0 || v[o.name] === false || appliesTo(o, command)) continue;
    const where = o.commands === "all" ? [] : o.commands;
    throw new UsageError(
      `--${o.name} does not apply to ${command} (it applies to ${where.join(", ")}); see deploy-gate ${command} --help`
    );
  }
  for (const k of ["endpoint", "ref", "base", "config", "report", "summary", "model"]) {
    const val = str(k);
    if (val !== void 0 && (val === "" || val.startsWith("-")))
      throw new UsageError(`--${k} needs a value, got "${val}"`);
  }
  const duration = (k) => {
    const raw = str(k);
    if (raw === void 0) return null;
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
    file: command === "explain" || command === "completion" ? rest[0] : null,
    dryRun: flag("dry-run"),
    lockWaitMs: duration("lock-wait") ?? 0,
    skipPreflight: flag("skip-preflight"),
    hostOverride: null,
    connectTimeoutMs: duration("connect-timeout"),
    quiet: flag("quiet"),
    verbose: flag("verbose"),
    hosts: parseHostList(str("hosts")),
    ...command === "verify" ? {
      url: parseUrl(str("url")),
      model: str("model") ?? null,
      selector: str("selector") ?? null,
      rolloutStartMs: parseInstant(str("rollout-start"), Date.now(), parseDuration)
    } : {},
    ...command === "webhook" ? {
      listen: str("listen") ?? null,
      deadlineMs: duration("deadline"),
      namespaces: str("namespaces")?.split(",").filter(Boolean) ?? null
    } : {},
    ...command === "logs" ? {
      boot: str("boot") ?? null,
      since: str("since") ?? null,
      follow: flag("follow"),
      lines: str("lines") ?? null,
      grep: str("grep") ?? null
    } : {},
    ...command === "init" ? { commit: flag("commit") } : {},
    ...command === "lock" ? {
      lockAction: rest[0],
      force: flag("force"),
      ...str("message") !== void 0 ? { message: str("message") } : {}
    } : {}
  };
}

// src/cli/main.ts
async function main(argv, io) {
  try {
    const opts = parseCli(argv, io.cwd);
    if (opts === "help") return io.out(USAGE + "\n"), 0;
    if (opts === "usage") return io.out(SHORT_USAGE + "\n"), 0;
    if (opts === "version") return io.out(`deploy-gate ${VERSION}
`), 0;
    if ("help" in opts) return io.out(commandHelp(opts.help) + "\n"), 0;
    if (opts.verbose) traceOn();
    return await (await handlerOf(opts.command))(opts, io);
  } catch (e) {
    const { ConfigError } = await import("./chunks/errors-PC6QSBZK.js");
    if (e instanceof ConfigError) {
      io.err(`deploy-gate: invalid config
${sanitizeValue(e.render(io.cwd))}
`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.err(`deploy-gate: ${sanitizeValue(e.message)}
`);
      return 2;
    }
    io.err(
      `deploy-gate: internal error: ${sanitizeValue(e.stack ?? String(e))}
please report it with the command you ran
`
    );
    return 2;
  }
}
async function handlerOf(command) {
  if (command === "explain") return (await import("./chunks/explain-FONOG6U4.js")).explainCommand;
  const [{ HANDLERS }, { reportCommand }] = await Promise.all([
    import("./chunks/commands-SR7RKTF4.js"),
    import("./chunks/report-output-QJR7FL2S.js")
  ]);
  return HANDLERS[command] ?? reportCommand;
}

// src/cli/bin.ts
nodeModule.enableCompileCache?.();
process.stdout.on("error", (e) => {
  if (e.code !== "EPIPE" && e.code !== "ERR_STREAM_DESTROYED") throw e;
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, () => {
    void import("./chunks/lifecycle-YNQJXGB4.js").then(({ shutdown }) => shutdown(sig, sig === "SIGINT" ? 130 : 143, (line) => process.stderr.write(`${line}
`))).then((code) => process.exit(code));
  });
}
main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: Boolean(process.stdout.isTTY),
  env: process.env,
  cwd: process.cwd()
}).then((code) => {
  process.exitCode = code;
});
