// The command line as data: each command and each option once, with its help and the commands it
// applies to. Adding a command or an option is an entry here (and a handler in cli.ts for a command
// the pipeline does not run). Pure.

export interface CommandSpec {
  readonly name: string;
  /** positional arguments, as shown in usage ("FILE|-") */
  readonly args?: string;
  /** how many positionals it takes */
  readonly positionals: number;
  readonly summary: string;
  /** a few lines shown by `deploy-gate COMMAND --help` */
  readonly details?: string;
  /** command lines shown under EXAMPLES (each parses as this command; test/cli/args.test.ts names a command
   *  without any, so a merge that adds a command without examples is caught there, not by the typecheck) */
  readonly examples?: readonly string[];
}

export const COMMAND_SPECS = [
  {
    name: "preflight",
    positionals: 0,
    summary: "check the serve scripts in this repository (no host needed)",
    details:
      "bash -n, shellcheck, the contract flags (traced through history when one is gone), dropped flags, the trap rules, the rollback ref.\nWith no deploy-gate.yml it finds the serve scripts itself.",
    examples: [
      "deploy-gate preflight",
      "deploy-gate preflight --endpoint archon --base v1.4.0",
      "deploy-gate preflight --json --report preflight.json",
    ],
  },
  {
    name: "run",
    positionals: 0,
    summary: "preflight, deploy over SSH, verify",
    details:
      "A preflight failure stops here (--skip-preflight to see what the host says). One SSH connection, a host-side lock,\nthe install files at the ref, a restart, the boot watched to readiness, then verify.",
    examples: [
      "deploy-gate run --endpoint archon --dry-run",
      "deploy-gate run --endpoint archon --summary summary.md",
      "deploy-gate run --endpoint archon --hosts gpu-b,gpu-c",
    ],
  },
  {
    name: "verify",
    positionals: 0,
    summary: "verify the live endpoint against the contracts (--ref TAG: rollback-tag verification)",
    details: "Default ref: the one recorded on the host by the last deploy.",
    examples: ["deploy-gate verify --endpoint archon", "deploy-gate verify --endpoint archon --ref v1.4.0"],
  },
  {
    name: "rollback",
    positionals: 0,
    summary: "deploy rollback.ref, then verify",
    examples: ["deploy-gate rollback --endpoint archon", "deploy-gate rollback --endpoint archon --ref v1.3.2"],
  },
  {
    name: "explain",
    args: "FILE|-",
    positionals: 1,
    summary: "diagnose a saved journalctl -o json dump, a plain log, or a response body",
    details: "Exit 0 when the log shows a ready or still-booting engine, 1 on a failure.",
    examples: ["deploy-gate explain journal.json", "deploy-gate explain -"],
  },
  {
    name: "logs",
    positionals: 0,
    summary: "the endpoint's journal, decoded, one boot at a time, with its diagnosis",
    details: "--boot current|previous|N (or --boot=-N), --since 30m|DATE, --follow until Ctrl-C, --json.",
    examples: [
      "deploy-gate logs --endpoint archon",
      "deploy-gate logs --endpoint archon --boot previous",
      "deploy-gate logs --endpoint archon --since 30m --follow",
      "deploy-gate logs --endpoint archon -n 50 --grep ERROR",
    ],
  },
  {
    name: "lock",
    args: "status|release|acquire",
    positionals: 1,
    summary:
      "who holds the endpoint's deploy lock; release it (--force when another run holds it); acquire it by hand (-m why)",
    examples: [
      "deploy-gate lock status --endpoint archon",
      "deploy-gate lock acquire --endpoint archon -m maintenance",
      "deploy-gate lock release --endpoint archon --force",
    ],
  },
  {
    name: "init",
    positionals: 0,
    summary: "write deploy-gate.yml for the serve scripts found here (never overwrites)",
    details:
      "Contract flags are prefilled from each script's current engine argv; review them, then run deploy-gate preflight.",
    examples: ["deploy-gate init", "deploy-gate init --commit", "deploy-gate init --config ci/deploy-gate.yml"],
  },
  {
    name: "completion",
    args: "bash|zsh|fish",
    positionals: 1,
    summary: "print a shell completion script for commands and options",
    details:
      "bash: source <(deploy-gate completion bash); zsh: save as _deploy-gate on $fpath; fish: save in ~/.config/fish/completions/.",
    examples: ["deploy-gate completion bash", "deploy-gate completion fish"],
  },
  {
    name: "schema",
    positionals: 0,
    summary: "print the JSON Schema of deploy-gate.yml",
    examples: ["deploy-gate schema"],
  },
  {
    name: "webhook",
    positionals: 0,
    summary: "serve Flagger's pre-rollout and rollout webhooks: verify over HTTP alone per call (--listen ADDR)",
    details:
      "POST {name, namespace, phase, metadata}: 200 pass, 412 a check failed, 503 could not judge or busy, 504 past --deadline,\n400 a malformed body. metadata.endpoint picks the endpoint; {name} and {namespace} in its url: are filled in.",
    examples: [
      "deploy-gate webhook --listen 127.0.0.1:8080",
      "deploy-gate webhook --listen :8080 --namespaces llm --deadline 5m",
    ],
  },
] as const satisfies readonly CommandSpec[];

export type Command = (typeof COMMAND_SPECS)[number]["name"];
export const COMMANDS = COMMAND_SPECS.map((c) => c.name) as readonly Command[];

const REPORTING: readonly Command[] = ["preflight", "run", "verify", "rollback"];
const REMOTE: readonly Command[] = ["run", "verify", "rollback", "logs", "lock"];
const DEPLOYING: readonly Command[] = ["run", "rollback"];

export interface OptionSpec {
  readonly name: string;
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** the value's placeholder in help */
  readonly arg?: string;
  readonly help: string;
  /** the commands it applies to; "all" for every one */
  readonly commands: readonly Command[] | "all";
}

export const OPTION_SPECS: readonly OptionSpec[] = [
  {
    name: "config",
    type: "string",
    arg: "FILE",
    help: "deploy-gate.yml (default: the nearest one up to the repository root, else discover the scripts); init: where to write it",
    commands: [...REPORTING, "logs", "lock", "init", "webhook"],
  },
  {
    name: "endpoint",
    type: "string",
    arg: "NAME",
    help: "one endpoint (default: all; run/verify/rollback/logs/lock: the config's only one)",
    commands: [...REPORTING, "logs", "lock"],
  },
  {
    name: "ref",
    type: "string",
    arg: "REF",
    help: "check the scripts at REF instead of the work tree (verify: the contracts at REF; rollback: the version to go back to, instead of rollback.ref)",
    commands: REPORTING,
  },
  {
    name: "base",
    type: "string",
    arg: "REF",
    help: "what dropped-flags compares against (default: rollback.ref, else the commit before the last change)",
    commands: ["preflight", "run"],
  },
  {
    name: "json",
    type: "boolean",
    help: "print exactly the JSON report on stdout",
    commands: [...REPORTING, "explain", "logs", "lock"],
  },
  { name: "report", type: "string", arg: "FILE", help: "also write the JSON report to FILE", commands: REPORTING },
  {
    name: "summary",
    type: "string",
    arg: "FILE",
    help: "also write the markdown job summary to FILE",
    commands: REPORTING,
  },
  { name: "quiet", type: "boolean", short: "q", help: "only the verdict and the failures", commands: REPORTING },
  {
    name: "no-color",
    type: "boolean",
    help: "no colour (also NO_COLOR=1; FORCE_COLOR=1 forces it on)",
    commands: "all",
  },
  { name: "fail-on-warn", type: "boolean", help: "exit 1 on warnings too", commands: REPORTING },
  {
    name: "dry-run",
    type: "boolean",
    help: "connect, lock, show the files that would change and the commands; change nothing",
    commands: DEPLOYING,
  },
  {
    name: "lock-wait",
    type: "string",
    arg: "DURATION",
    help: "wait this long for a held deploy lock (default: fail at once, naming the holder)",
    commands: DEPLOYING,
  },
  {
    name: "skip-preflight",
    type: "boolean",
    help: "deploy even when preflight fails (to see what the host says)",
    commands: ["run"],
  },
  {
    name: "hosts",
    type: "string",
    arg: "A,B",
    help: "fleet endpoints (hosts:): only these hosts, names or globs ('gpu*'), e.g. to finish a halted rollout (logs: the one host to read)",
    commands: ["run", "verify", "rollback", "lock", "logs"],
  },
  {
    name: "boot",
    type: "string",
    arg: "WHICH",
    help: "current (default), previous, N, or --boot=-N (N before the current)",
    commands: ["logs"],
  },
  {
    name: "since",
    type: "string",
    arg: "TIME",
    help: "the window: 30m, 2h, YYYY-MM-DD[ HH:MM[:SS]], @EPOCH, today, yesterday",
    commands: ["logs"],
  },
  { name: "follow", type: "boolean", help: "stream new lines until Ctrl-C", commands: ["logs"] },
  {
    name: "lines",
    type: "string",
    short: "n",
    arg: "N",
    help: "show the boot's last N lines (--follow: of the backlog); the diagnosis still reads the whole boot",
    commands: ["logs"],
  },
  {
    name: "grep",
    type: "string",
    arg: "REGEX",
    help: "show only the lines matching REGEX (JavaScript syntax, case-sensitive)",
    commands: ["logs"],
  },
  {
    name: "force",
    type: "boolean",
    help: "release a lock another run holds (it names the holder)",
    commands: ["lock"],
  },
  {
    name: "url",
    type: "string",
    arg: "URL",
    help: "verify over HTTP alone at URL, no SSH: every check HTTP can prove; the host-only ones skip (an endpoint with url: and no host: does the same)",
    commands: ["verify"],
  },
  {
    name: "model",
    type: "string",
    arg: "NAME",
    help: "with --url: the served model name (default: the endpoint's model:, else the one /v1/models lists)",
    commands: ["verify"],
  },
  {
    name: "selector",
    type: "string",
    arg: "LABELS",
    help: "the engine's pods for kubernetes: endpoints, as kubectl -l takes it (e.g. a canary's pod-template-hash)",
    commands: ["verify"],
  },
  {
    name: "rollout-start",
    type: "string",
    arg: "TIME",
    help: "kubernetes: endpoints: when the rollout began (ISO 8601, @EPOCH, or a duration ago such as 15m); a pod whose engine started before it is the old version",
    commands: ["verify"],
  },
  {
    name: "listen",
    type: "string",
    arg: "ADDR",
    help: "HOST:PORT the webhook listens on (:8080 for every address)",
    commands: ["webhook"],
  },
  {
    name: "namespaces",
    type: "string",
    arg: "NS[,NS]",
    help: "the namespaces whose canaries the webhook judges (a payload from another gets 403); needed when url: fills {namespace}",
    commands: ["webhook"],
  },
  {
    name: "deadline",
    type: "string",
    arg: "DURATION",
    help: "the webhook's deadline per call, every request of its verify included (default 2m)",
    commands: ["webhook"],
  },
  {
    name: "message",
    type: "string",
    short: "m",
    arg: "MESSAGE",
    help: "lock acquire: why the endpoint is held; every deploy is refused with it until lock release",
    commands: ["lock"],
  },
  {
    name: "commit",
    type: "boolean",
    help: "commit the config it wrote (that file only), so the first preflight finds a clean tree",
    commands: ["init"],
  },
  {
    name: "connect-timeout",
    type: "string",
    arg: "DURATION",
    help: "SSH handshake deadline (default 20s)",
    commands: REMOTE,
  },
  {
    name: "help",
    type: "boolean",
    short: "h",
    help: "this help (deploy-gate COMMAND --help: that command's)",
    commands: "all",
  },
  {
    name: "verbose",
    type: "boolean",
    short: "v",
    help: "print every command run, locally and over SSH, with its timing (also DEPLOY_GATE_TRACE=1)",
    commands: "all",
  },
  { name: "version", type: "boolean", short: "V", help: "the version", commands: "all" },
];

export const appliesTo = (o: OptionSpec, c: Command) => o.commands === "all" || o.commands.includes(c);
