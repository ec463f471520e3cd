// The serve-script model: what a bash serve script runs, read the way bash reads it.
// Pure data; produced by parse.ts, consumed by preflight checks and verify.argv.
import type { EngineKind } from "../engine/kind.js";

/** One shell word after quote removal. `line` is the 1-based line where the word starts. */
export interface Word {
  text: string;
  line: number;
  /** true when the word comes from an optional expansion such as ${VAR:+--flag "$VAR"} */
  optional: boolean;
  /** true when the word is added only in an if-branch that does not run by default */
  offDefault?: boolean;
  /** true when the word holds an unexpanded parameter expansion ($VAR, ${VAR:-x}) */
  dynamic: boolean;
  /** the text with $VAR / ${VAR:-default} filled from the script's own assignments and defaults; absent when unknown */
  resolved?: string;
  /** `"$CMD"` quoted: the words CMD held there when they are known (`bash -c "$CMD"` runs them) */
  held?: Word[];
  /** written in another file than the launch file (a compose service's `extends: {file: ...}`); line is there */
  file?: string;
}

/** A simple command: its words, assignments in front of it, and the lines it spans. */
export interface Command {
  words: Word[];
  assignments: { name: string; value: string; line: number }[];
  line: number;
  endLine: number;
  /** the raw source of the command (all its lines), for evidence and trap rules */
  source: string;
  /** redirections attached to the command, e.g. ">", "2>&1", ">>", with their targets */
  redirects: { op: string; target: string }[];
  /** the next command in a pipeline, if this one pipes into it */
  pipeTo: Command | null;
}

/** A flag with its value (`--max-model-len 32768`, `--port=7770`, or a switch with value null). */
export interface Flag {
  name: string;
  value: string | null;
  line: number;
  optional: boolean;
  /** written only in an if-branch that does not run by default */
  offDefault?: boolean;
  /** the value with the script's own variables and ${VAR:-default} filled in; absent when unknown */
  resolvedValue?: string;
  /** set when the flag is written in another file than the launch file (a vLLM --config YAML's key) */
  file?: string;
}

/** What starts the container or process: a container runtime, a quadlet, systemd directly, or a shell. */
export type Runtime = "podman" | "docker" | "quadlet" | "systemd" | "none" | "compose" | "kubernetes";
/** compose: a compose file's service (docker compose or podman compose); kubernetes: a manifest's container */
export type ContainerRuntime = "podman" | "docker" | "quadlet" | "compose" | "kubernetes";

/** What a compose service or a Kubernetes container says beyond the run's options, each with its line. */
export interface WorkloadFacts {
  form: "compose" | "kubernetes";
  /** the service name, or Kind/name/container */
  name: string;
  restart: { value: string; line: number } | null;
  gpus: { value: string; line: number } | null;
  /** Kubernetes: the /dev/shm mount (an emptyDir), when there is one */
  shm: { line: number; sizeLimit: string | null } | null;
  /**
   * Kubernetes probes with their restart budgets (Infinity: a probe that is there but whose budget the file does
   * not set, a chart's default); compose's healthcheck start_period as a startupProbe
   */
  /** (`file`: a chart helper that wrote the probe, when not the container's own file) */
  probes: { kind: string; budgetSeconds: number; line: number; file?: string }[];
}

/** A container launch (`podman|docker run|create`, or a quadlet's [Container] section). */
export interface PodmanRun {
  command: Command;
  /**
   * which runtime starts the container: their behaviours differ (docker creates bind sources, accepts --ipc=host with
   * --shm-size)
   */
  runtime: ContainerRuntime;
  /** `create` rather than `run`: the container is started later (docker start) */
  create: boolean;
  /** --rm given: a helper that removes itself, not a long-running engine */
  rm: boolean;
  /** --replace given: podman removes an existing container of the same name first */
  replace: boolean;
  /** podman options before the image, in order */
  options: Flag[];
  env: { name: string; value: string | null; line: number }[];
  /** -v/--volume and --mount binds; resolvedSource is the host path with the script's own variables filled in */
  volumes: { source: string; target: string; options: string | null; line: number; resolvedSource?: string }[];
  devices: { path: string; line: number }[];
  ulimits: { value: string; line: number }[];
  ipc: string | null;
  shmSize: string | null;
  name: string | null;
  publish: string[];
  /** the image (or the --rootfs directory) */
  image: Word | null;
  /** every word after the image: the engine argv */
  engineArgs: Word[];
  /** engineArgs read as flags (positionals such as the model path are in `positional`) */
  engineFlags: Flag[];
  positional: Word[];
  /** set for a compose service or a Kubernetes container */
  workload?: WorkloadFacts;
  /** a compose service built from the repository: what its Dockerfile makes the image run */
  build?: BuiltImage;
  /** a compose service whose program is a script the file bind-mounts from the repository (compose-mount.ts) */
  mounted?: MountedScript;
}

/** A repository script a compose service mounts and runs. */
export interface MountedScript {
  path: string;
  text: string;
  /** where the container runs it */
  target: string;
  /** what the script starts, read where scripts are parsed (launch.ts); unset until then */
  scriptEngine?: { kind: EngineKind; passesArgs: boolean } | null;
}

/** What a Dockerfile's image runs (dockerfile.ts). */
export interface DockerImage {
  /** the Dockerfile's repository path (its words carry it as their `file`) */
  path: string;
  /** the image the final stage builds on, outside this file (ARG defaults filled); null when none is known */
  base: { text: string; line: number } | null;
  /** ENTRYPOINT and CMD of the final stage, inherited through the file's own stages as BuildKit does */
  entrypoint: Word[] | null;
  cmd: Word[] | null;
  /** every COPY/ADD from the build context into the image (not `--from` another stage), in order */
  copies: { src: string; dest: string }[];
  /** the final stage's WORKDIR: where a relative ENTRYPOINT (`./start.sh`) is found */
  workdir: string;
}

/** A compose service's image built from the repository (compose-build.ts). */
export interface BuiltImage {
  image: DockerImage;
  /**
   * the repository script the image's program is, when a COPY put it there; modules: a Python program's imported
   * modules, or the scripts a shell entrypoint hands off to
   */
  script: { path: string; text: string; modules?: { path: string; text: string }[] } | null;
  /** what the script starts, read where scripts are parsed (launch.ts); unset until then */
  scriptEngine?: { kind: EngineKind; passesArgs: boolean } | null;
}

export interface ServeScript {
  text: string;
  lines: string[];
  /** every simple command in source order, including those inside if/case/loop/function bodies and $( ... ),
   *  and each stage of a pipeline (a stage is also reachable from the previous one's pipeTo) */
  commands: Command[];
  /** top-level VAR=value assignments (no command after them) */
  assignments: { name: string; value: string; line: number }[];
  podmanRuns: PodmanRun[];
  /** the engine the file launches, and how: see Engine */
  engine: Engine | null;
  /**
   * every engine the file starts one after another, `engine` first (two servers in one script); launches in
   * other branches of one if/case are alternatives, not more engines. Absent when there is one.
   */
  engines?: Engine[];
  /** the launches of a role switch (a LeaderWorkerSet's leader and worker branches) in source order; else absent */
  roles?: Engine[];
  /** why the file could not be read at all (nested past the lexer's bound); nothing in it was checked */
  unreadable?: string;
  /** what to do about it, when the reason has its own fix */
  unreadableFix?: string;
}

/**
 * How a file launches an inference engine: which engine with which argv (`args`/`flags`, each with its line),
 * started by which runtime (`podmanRun` holds the container's options, mounts, env, devices and image).
 * Scripts, units and quadlets all parse into it; every check reads it.
 */
export interface Engine {
  kind: EngineKind;
  runtime: Runtime;
  flags: Flag[];
  args: Word[];
  /** "podman" when a container starts it (podman, docker or a quadlet), "vllm" when the file runs the engine itself */
  source: "podman" | "vllm";
  line: number;
  podmanRun: PodmanRun | null;
  command: Command;
  /** the team's own program that builds the argv when it runs (`python /app/scripts/vllm_launcher.py`) */
  builtBy?: string;
}
