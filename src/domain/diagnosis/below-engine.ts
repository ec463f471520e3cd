// Failures under the engine, read from their own lines: the container runtime (podman, docker, crun,
// runc, conmon), systemd running the unit, the serve script's bash, and the engine's argument parser.
// Each wording was produced for real on the sandbox host (podman 4.3, systemd 252, bash 5.2) or taken
// from the newer tools' sources (noted per pattern). Pure.

export type BelowKind = "engine-args" | "runtime-error" | "unit-error" | "script-error";
export type Layer = "engine" | "podman" | "docker" | "crun" | "runc" | "systemd" | "bash" | "kubernetes";

/** What the fix names: the one thing to change. */
export interface BelowFacts {
  what: string;
  path?: string;
  image?: string;
  port?: number;
  option?: string;
  variable?: string;
  command?: string;
  executable?: string;
  errno?: string;
  unit?: string;
  step?: string;
  file?: string;
  line?: number;
  container?: string;
  argument?: string;
  /** systemctl status: which header line said it */
  status?: string;
}

export interface BelowMatch {
  kind: BelowKind;
  layer: Layer;
  /** 5: names its cause; 4: a generic error of that layer (a later specific one replaces it). */
  priority: number;
  facts: BelowFacts;
}

type Rule = readonly [RegExp, BelowKind, Layer, (g: Record<string, string>) => BelowFacts];

const PATH = String.raw`(?<path>/[^\s:"']*)`;
// podman's logrus lines: `time="…" level=error msg="…"`; the message is what counts.
const LOGRUS = /^time="[^"]*" level=(?<level>\w+) msg="(?<msg>(?:[^"\\]|\\.)*)"/;

const RULES: readonly Rule[] = [
  // podman 4.3/5.x `-v SRC:DST` with SRC absent; docker: `invalid mount config for type "bind": bind source path does
  // not exist: SRC`
  [
    new RegExp(`Error: statfs ${PATH}: no such file or directory`),
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-mount-source", path: g.path! }),
  ],
  [
    new RegExp(`Error: statfs ${PATH}: permission denied`),
    "runtime-error",
    "podman",
    (g) => ({ what: "mount-permission", path: g.path! }),
  ],
  [
    new RegExp(`bind source path does not exist: ${PATH}`),
    "runtime-error",
    "docker",
    (g) => ({ what: "missing-mount-source", path: g.path!.replace(/\.$/, "") }),
  ],
  // devices: podman `Error: stat /dev/kfd: no such file or directory`; docker `error gathering device information while
  // adding custom device "/dev/kfd": no such file or directory`
  [
    /Error: (?:stat|lstat) (?<path>\/dev\/\S+): no such file or directory/,
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-device", path: g.path! }),
  ],
  [
    /adding custom device "(?<path>[^"]+)": no such file or directory/,
    "runtime-error",
    "docker",
    (g) => ({ what: "missing-device", path: g.path! }),
  ],
  [
    /unresolvable CDI devices (?<path>\S+)|could not select device driver "[^"]*" with capabilities: \[\[gpu\]\]/,
    "runtime-error",
    "podman",
    (g) => ({ what: "missing-gpu-runtime", ...(g.path ? { path: g.path } : {}) }),
  ],
  // images: local-only name (podman tries https://localhost/v2/), short names, pulls refused
  [
    /Error: initializing source docker:\/\/(?<image>\S+?): /,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image! }),
  ],
  [
    /Error: short-name "(?<image>[^"]+)" did not resolve to an alias/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image! }),
  ],
  [
    /Error: (?:unable to find image ')?(?<image>[^\s':]+(?::[\w.-]+)?)'?: image not known/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: g.image! }),
  ],
  [
    /reading manifest (?<tag>\S+) in (?<repo>\S+): (?:manifest unknown|requested access to the resource is denied|unauthorized)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "image-not-found", image: `${g.repo}:${g.tag}` }),
  ],
  // (docker's `Unable to find image 'X' locally` is the pull starting, not a failure)
  [
    /pull access denied for (?<image>[^\s,]+), repository does not exist|manifest for (?<image2>\S+) not found: manifest unknown/,
    "runtime-error",
    "docker",
    (g) => ({ what: "image-not-found", image: (g.image ?? g.image2)! }),
  ],
  // ports: podman rootful (4.3 here), rootless (rootlessport / pasta), docker
  [
    /cannot listen on the (?:TCP|UDP) port: listen (?:tcp|udp)[46]? [\w.[\]:]*?:(?<port>\d+): bind: address already in use/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) }),
  ],
  [
    /rootlessport listen (?:tcp|udp) [\w.[\]:]*?:(?<port>\d+): bind: address already in use/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) }),
  ],
  [
    /pasta failed with exit code \d+:.*?Failed to bind port (?<port>\d+)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "port-in-use", port: Number(g.port) }),
  ],
  [
    /Bind for [\w.[\]:]*?:(?<port>\d+) failed: port is already allocated|failed to bind host port for [\w.[\]:]*?:(?<port2>\d+):\S+ address already in use/,
    "runtime-error",
    "docker",
    (g) => ({ what: "port-in-use", port: Number(g.port ?? g.port2) }),
  ],
  // options podman (cobra) refuses: `Error: unknown flag: --memroy`, `unknown shorthand flag: 'x' in -x`, `invalid
  // argument "x" for "--memory" flag`
  [
    /(?:Error: |^)unknown (?:shorthand )?flag: (?<option>'\w' in -\S+|--?[\w-]+)/,
    "runtime-error",
    "podman",
    (g) => ({ what: "unknown-option", option: g.option! }),
  ],
  [
    /Error: invalid argument "(?<argument>[^"]*)" for "(?<option>[^"]+)" flag/,
    "runtime-error",
    "podman",
    (g) => ({ what: "bad-option-value", option: g.option!, argument: g.argument! }),
  ],
  // container name taken (a leftover without --replace/rm -f); docker says `Conflict. The container name "/X" is
  // already in use`
  [
    /the container name "\/?(?<container>[^"]+)" is already in use/i,
    "runtime-error",
    "podman",
    (g) => ({ what: "name-in-use", container: g.container! }),
  ],
  // the NVIDIA container toolkit's hook: the host driver is not loaded or not installed
  [
    /nvidia-container-cli: (?:initialization error: )?(?<msg>.*(?:driver not loaded|driver.*not found|NVML|nvml error).*)$/,
    "runtime-error",
    "docker",
    () => ({ what: "gpu-driver" }),
  ],
  // an image built for another CPU architecture (crun's JSON error line, runc's)
  [/[Ee]xec format error/, "runtime-error", "crun", () => ({ what: "exec-format" })],
  // OCI runtime: crun (podman) and runc (docker)
  [
    /executable file `(?<command>[^`]+)` not found in \$PATH|exec: "(?<command2>[^"]+)": executable file not found in \$PATH/,
    "runtime-error",
    "crun",
    (g) => ({ what: "oci-command-not-found", command: (g.command ?? g.command2)! }),
  ],
  [
    /OCI permission denied|(?:crun|runc): .*Permission denied|OCI runtime create failed: .*permission denied/i,
    "runtime-error",
    "crun",
    () => ({ what: "oci-permission-denied" }),
  ],
  [
    /(?:Error: )?(?:crun|runc)(?: create failed)?: (?<msg>.+)|OCI runtime (?:create )?(?:failed|error)/,
    "runtime-error",
    "crun",
    () => ({ what: "oci-error" }),
  ],
  // systemd running the unit (src/core/execute.c): exec, user, chdir …, and the exit status it logs
  [
    /^(?<unit>\S+\.service): Failed to locate executable (?<executable>\S+): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "exec", unit: g.unit!, executable: g.executable!, errno: g.errno! }),
  ],
  // the file was found but execve() failed: with ENOENT its #! interpreter is what is missing (systemd 252, for real)
  [
    /^(?<unit>\S+\.service): Failed to execute (?:command|(?<executable>\S+)): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({
      what: "exec",
      step: "execve",
      unit: g.unit!,
      ...(g.executable ? { executable: g.executable } : {}),
      errno: g.errno!,
    }),
  ],
  // EnvironmentFile= without its `-`: the start fails before any Exec*= runs (systemd 252: then "Failed to run
  // 'start-pre' task")
  [
    /^(?<unit>\S+\.service): Failed to load environment files: (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "environment-file", unit: g.unit!, errno: g.errno! }),
  ],
  // TimeoutStartSec= ran out (Type=notify waits for READY=1, which vLLM never sends): systemd SIGTERMs a healthy boot
  [
    /^(?<unit>\S+\.service): (?<step>start|start-pre|start-post) operation timed out\. Terminating\.$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "start-timeout", unit: g.unit!, step: g.step! }),
  ],
  [
    /^(?<unit>\S+\.service): Failed to determine user credentials: (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({ what: "user", unit: g.unit!, errno: g.errno! }),
  ],
  [
    /^(?<unit>\S+\.service): Failed at step (?<step>[A-Z_]+) spawning (?<executable>\S+): (?<errno>.+)$/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      unit: g.unit!,
      step: g.step!,
      executable: g.executable!,
      errno: g.errno!,
    }),
  ],
  [
    /^(?<unit>\S+\.service): Main process exited, code=exited, status=(?<status>2\d\d)\/(?<step>[A-Z_]+)/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      unit: g.unit!,
      step: g.step!,
    }),
  ],
  // systemctl status: the last exit in the unit's header, `Process: 1234 ExecStart=/x … (code=exited, status=203/EXEC)`
  // (and `Main PID: 1234 (code=exited, …)`, which names no executable: below the Process: line); systemd's own exit
  // codes (200-243, systemd exit-status.h) say the unit never ran
  [
    /^\s*(?<head>Process|Main PID): \d+ (?:ExecStart(?:Pre|Post)?=(?<executable>[^\s(]+)(?: [^(]*)?)?\(code=exited, status=(?<status>2\d\d)\/(?<step>[A-Z_]+)\)/,
    "unit-error",
    "systemd",
    (g) => ({
      what: g.step === "EXEC" ? "exec" : g.step === "USER" || g.step === "GROUP" ? "user" : "step",
      step: g.step!,
      status: g.head === "Process" ? "header" : "main-pid",
      ...(g.executable ? { executable: g.executable } : {}),
    }),
  ],
  [
    /Unit (?<unit>\S+?) not found\.?$|Unit (?<unit2>\S+) could not be found/,
    "unit-error",
    "systemd",
    (g) => ({ what: "unit-not-found", unit: (g.unit ?? g.unit2)! }),
  ],
  [
    /^(?<unit>\S+\.service): Service has no ExecStart=|Unit (?<unit2>\S+) has a bad unit file setting/,
    "unit-error",
    "systemd",
    (g) => ({ what: "bad-unit-file", unit: (g.unit ?? g.unit2)! }),
  ],
  // the serve script's bash: `FILE: line N: MSG` (unbound variable, command not found, runtime syntax errors)
  [
    /^(?<file>\S+): line (?<line>\d+): (?<variable>\$?[\w[\]@*#?-]+): unbound variable$/,
    "script-error",
    "bash",
    (g) => ({ what: "unbound-variable", file: g.file!, line: Number(g.line), variable: g.variable! }),
  ],
  [
    // (a command that is a terminal's escape code, `$'\E[01'`, is a coloured message bash was made to run: NOISE)
    /^(?<file>\S+): line (?<line>\d+): (?<command>\S+): command not found$/,
    "script-error",
    "bash",
    (g) => ({ what: "command-not-found", file: g.file!, line: Number(g.line), command: g.command! }),
  ],
  [
    /^(?<file>\S+): line (?<line>\d+): (?<command>\S+): (?<errno>No such file or directory|Permission denied)$/,
    "script-error",
    "bash",
    (g) => ({ what: "script-path", file: g.file!, line: Number(g.line), path: g.command!, errno: g.errno! }),
  ],
  [
    /^(?<file>\S+): line (?<line>\d+): .*(?:syntax error|bad substitution|unexpected EOF|division by 0|invalid arithmetic operator|bad array subscript|ambiguous redirect|parameter null or not set|readonly variable)/,
    "script-error",
    "bash",
    (g) => ({ what: "runtime-syntax", file: g.file!, line: Number(g.line) }),
  ],
  // a script saved with CRLF line endings: its #! line asks for `bash\r`. GNU env quotes the name it could not run
  // (coreutils quote(): `'bash\r'`, `‘bash\r’` in a UTF-8 locale; a paste may show the CR as a space: the kernel
  // strips a #! line's trailing spaces, so only a CR leaves one there); bash says `/bin/bash^M: bad interpreter`
  [
    /^(?:\S+: )?['‘"](?<interpreter>[^'’"\s]+?)(?:\\r|\^M| )['’"]: No such file or directory|(?<interpreter2>\/\S+?)\^M: bad interpreter/,
    "script-error",
    "bash",
    (g) => ({ what: "crlf", command: (g.interpreter ?? g.interpreter2)! }),
  ],
  // bash 5.2 running a script whose #! interpreter does not exist (a CRLF file's `bash\r`, a wrong path):
  // `bash: line 1: ./serve.sh: cannot execute: required file not found`
  [
    /^(?:\S+: )?(?:line \d+: )?(?<file>\S+): cannot execute: required file not found$/,
    "script-error",
    "bash",
    (g) => ({ what: "interpreter-missing", file: g.file! }),
  ],
  // a script's own ERR trap (`trap 'echo "[ERROR] in line $LINENO: exit code $?"' ERR`): what failed is the line
  // before it, so this decides only when nothing said more (priority 1.5, under every engine line)
  [
    /^`?\[?(?:ERROR|FATAL|Error)\]?:? .{0,60}?\bline (?<line>\d+)\b.{0,60}?\bexit (?:code|status)[:= ]*(?<status>\d+)/,
    "script-error",
    "bash",
    (g) => ({ what: "trapped-error", line: Number(g.line), errno: g.status! }),
  ],
  // the engine's argparse (`{prog}: error: …`, exit 2) and newer vLLM's config validation before any boot line
  [
    /^(?:usage: )?(?<prog>[\w./ -]*?): error: (?<msg>(?:argument |unrecognized arguments|the following arguments are required|ambiguous option|expected one argument|invalid choice).*)$/,
    "engine-args",
    "engine",
    (g) => ({
      what: "usage",
      argument: /argument (\S+?):/.exec(g.msg!)?.[1] ?? /unrecognized arguments: (.+)/.exec(g.msg!)?.[1] ?? g.msg!,
    }),
  ],
  // pydantic's own line under that header names what is wrong (`Value error, User-specified max_model_len …`)
  // (an architecture it does not know is not a flag problem: engine-init-failed, engine/vllm/failures.ts)
  [
    /^Value error, (?!Model architectures? \[)(?<msg>.+?)(?: \[type=value_error\b.*)?$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg! }),
  ],
  [
    /ValidationError: \d+ validation errors? for (?<cls>\w*(?:Config|Args))\b/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-validation", argument: g.cls! }),
  ],
  // a value a flag sets that the model or GPU cannot take, said in a plain exception (vLLM's LoRA and dtype checks,
  // SGLang's context length)
  [
    /^(?:\w+\.)*NotImplementedError: (?<msg>(?:Prefix caching|Chunked prefill|Speculative decoding|LoRA|CUDA graphs?) (?:is|are) not (?:yet )?supported.*)$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg! }),
  ],
  [
    /^(?:\w+\.)*(?:ValueError|RuntimeError): (?<msg>(?:User-specified (?:max_model_len|context_length) \(\d+\) is greater than|LoRA rank \d+ is greater than max_lora_rank|Bfloat16 is only supported on GPUs with compute capability).*)$/,
    "engine-args",
    "engine",
    (g) => ({ what: "config-value", argument: g.msg! }),
  ],
  // a model that ships its own code: transformers and vLLM both name the flag
  [
    /\b\w{1,100}Error: .*(?:trust_remote_code=True|--trust-remote-code)|Please pass the argument `trust_remote_code=True`/,
    "engine-args",
    "engine",
    () => ({ what: "missing-flag", argument: "--trust-remote-code" }),
  ],
  // llama-server's argument parser (common/arg.cpp): an unknown flag, a value it cannot take (builds before
  // common/arg.cpp, common.cpp's gpt_params_parse: `error: unknown argument: %s`)
  [
    /^(?:E )?error: (?:invalid|unknown) argument: (?<argument>\S+)/,
    "engine-args",
    "engine",
    (g) => ({ what: "usage", argument: g.argument! }),
  ],
  [
    /^(?:E )?error while handling (?:argument|environment variable) "(?<argument>[^"]+)"/,
    "engine-args",
    "engine",
    (g) => ({ what: "usage", argument: g.argument! }),
  ],
  // the engine's own listen socket taken (host network, or a second server in the container): llama-server, uvicorn
  [
    /[Cc]ouldn't bind HTTP server socket, hostname: \S+, port: (?<port>\d+)/,
    "runtime-error",
    "engine",
    (g) => ({ what: "port-in-use", port: Number(g.port) }),
  ],
  [
    /error while attempting to bind on address \('[^']*', (?<port>\d+)\)/,
    "runtime-error",
    "engine",
    (g) => ({ what: "port-in-use", port: Number(g.port) }),
  ],
  // vLLM's own server socket (create_server_socket, before the engine starts): the port is in its argv, not here
  [/^OSError: \[Errno 98\] Address already in use$/, "runtime-error", "engine", () => ({ what: "port-in-use" })],
];

/** Runtime errors said in general terms: `Error: …` from podman/docker when nothing specific matched. */
const GENERIC_RUNTIME = /^(?:Error: |docker: Error response from daemon: |Error response from daemon: )(?<msg>.+)$/;

/**
 * Lines that come after the real error and must never win: podman's signal proxy and an attached
 * `podman run` whose container was removed under it (the wait loop judges a vanished container), Python's
 * shutdown warnings, teardown chatter.
 */
export const NOISE =
  /forwarding signal \d+ to container|no container with (?:name or )?ID .* found|: no such container$|resource_tracker|leaked (?:semaphore|shared_memory) objects?|Exception ignored in|KeyboardInterrupt|asyncio\.exceptions\.CancelledError|^CancelledError|Shutting down|Waiting for application shutdown|Application shutdown complete|Finished server process|Terminated$|See '(?:podman|docker) \w+ --help'|: \$'[^']*\\E[^']*': command not found$/;

export function isNoise(msg: string): boolean {
  return NOISE.test(msg);
}

/** Generic lines of their layer: a later specific one (crun's cause, pydantic's `Value error,` line) replaces them. */
const PRIORITY: Record<string, number> = { "oci-error": 4, "config-validation": 4, "trapped-error": 1.5 };

export function belowOf(text: string): BelowMatch | null {
  let msg = text.trim();
  const logrus = LOGRUS.exec(msg);
  if (logrus) {
    // warnings (pull retries) are not the answer; the final `Error:` line follows them
    if (logrus.groups!.level !== "error" && logrus.groups!.level !== "fatal") return null;
    msg = logrus.groups!.msg!.replace(/\\"/g, '"');
  }
  if (msg === "" || isNoise(msg)) return null;
  for (const [re, kind, layer, facts] of RULES) {
    const m = re.exec(msg);
    if (!m) continue;
    const f = facts(m.groups ?? {});
    // a generic line of its layer: a later specific one (crun's cause, pydantic's `Value error,` line) replaces it
    // systemctl status's header: the Process: line names the executable, Main PID: repeats it without
    // an ERR trap whose failed command ran a nested shell (`bash -c "$(curl … install.sh)"`) only says that shell
    // failed: the nested script's own trap report, when pasted, is the cause (1.4 under it, still a cause alone)
    const nested = f.what === "trapped-error" && /\b(?:ba)?sh -c /.test(msg);
    const priority = f.status === "header" ? 4 : f.status === "main-pid" ? 3.9 : nested ? 1.4 : (PRIORITY[f.what] ?? 5);
    return { kind, layer, priority, facts: f };
  }
  const g = GENERIC_RUNTIME.exec(msg);
  if (g)
    return {
      kind: "runtime-error",
      layer: msg.includes("daemon") ? "docker" : "podman",
      priority: 4,
      facts: { what: "runtime" },
    };
  return null;
}
