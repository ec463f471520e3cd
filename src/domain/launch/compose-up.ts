// Which compose service a unit or a serve script starts (`podman-compose up`, `podman compose up`, `docker compose
// up`, `docker-compose up`), and the name of that service's container, by each tool's own rule:
// - podman-compose 1.0.3 (Debian 12, podman_compose.py): `<project>_<service>_1`; the project is -p, else the
//   directory of the first compose file, lowercased with every character outside [-_a-z0-9] removed (no
//   COMPOSE_PROJECT_NAME, no top-level name:). `podman compose` on Debian runs this provider.
// - docker compose v2 (compose-go): `<project>-<service>-1`; the project is -p, COMPOSE_PROJECT_NAME, the file's
//   top-level name:, else the directory, lowercased, characters outside [a-z0-9_-] removed, leading - and _ trimmed.
// - docker-compose v1: `<project>_<service>_1`, its project named like compose-go's.
// container_name: wins in every tool. Pure.
import { basename, dirname, isAbsolute, join, normalize } from "node:path/posix";
import type { ContainerCli } from "./container-cli.js";
import type { Command, ServeScript } from "./model.js";
import { parseServeScript } from "./parse.js";
import { execScripts } from "./unit-exec.js";
import { parseUnit, unitValue } from "./unit.js";

export type ComposeTool = "podman-compose" | "docker compose" | "docker-compose";

export interface ComposeUp {
  tool: ComposeTool;
  /** the CLI that holds the containers it makes */
  cli: ContainerCli;
  /** -f/--file values in order (compose merges them; the first one's directory names the project) */
  files: string[];
  /** -p/--project-name */
  project: string | null;
  /** docker compose --project-directory */
  projectDirectory: string | null;
  /** the services named after `up` (none: every service) */
  services: string[];
  /** --force-recreate: the containers are made anew even when the compose file did not change */
  forceRecreate: boolean;
  /** the line of the command in its file */
  line: number;
}

/** The files each tool looks for in its working directory when no -f is given (podman-compose 1.0.3's list first). */
export const DEFAULT_COMPOSE_FILES = [
  "compose.yaml",
  "compose.yml",
  "podman-compose.yaml",
  "podman-compose.yml",
  "docker-compose.yml",
  "docker-compose.yaml",
] as const;

// global options of the tools that take a value (podman-compose's --podman-*-args too)
const GLOBAL_VALUE =
  /^(-f|--file|-p|--project-name|--project-directory|--env-file|--profile|--ansi|--parallel|--progress|--podman-path|--podman-[a-z]+-args|--podman-args)$/;
// `up` options that take a value; every other option of `up` is a switch
const UP_VALUE =
  /^(-t|--timeout|--scale|--exit-code-from|--pull|--wait-timeout|--attach|--no-attach|--attach-dependencies-timeout)$/;

function toolOf(words: readonly string[]): { tool: ComposeTool; rest: number } | null {
  const first = basename(words[0] ?? "");
  if (first === "podman-compose") return { tool: "podman-compose", rest: 1 };
  if (first === "docker-compose") return { tool: "docker-compose", rest: 1 };
  if ((first === "podman" || first === "docker") && words[1] === "compose")
    return { tool: first === "docker" ? "docker compose" : "podman-compose", rest: 2 };
  return null;
}

/** A command's `compose up`, read option by option; null when the command is no compose up. */
export function readComposeUp(command: Pick<Command, "words" | "line">): ComposeUp | null {
  let words = command.words.map((w) => w.resolved ?? w.text);
  while (words[0] === "exec" || words[0] === "sudo" || words[0] === "nohup") words = words.slice(1);
  const t = toolOf(words);
  if (!t) return null;
  const up: ComposeUp = {
    tool: t.tool,
    cli: t.tool === "podman-compose" ? "podman" : "docker",
    files: [],
    project: null,
    projectDirectory: null,
    services: [],
    forceRecreate: false,
    line: command.line,
  };
  let i = t.rest;
  // global options up to the subcommand
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith("-")) break;
    const eq = w.indexOf("=");
    const [name, inline] = w.startsWith("--") && eq > 0 ? [w.slice(0, eq), w.slice(eq + 1)] : [w, null];
    if (!GLOBAL_VALUE.test(name)) continue;
    const value = inline ?? words[++i] ?? "";
    if (name === "-f" || name === "--file") up.files.push(value);
    else if (name === "-p" || name === "--project-name") up.project = value;
    else if (name === "--project-directory") up.projectDirectory = value;
  }
  if (words[i] !== "up") return null;
  for (i++; i < words.length; i++) {
    const w = words[i]!;
    if (w === "--force-recreate") up.forceRecreate = true;
    if (w.startsWith("-")) {
      if (UP_VALUE.test(w)) i++;
      continue;
    }
    up.services.push(w);
  }
  return up;
}

/** The compose up a unit's ExecStart= (or a serve script) runs, with the unit's WorkingDirectory=. */
export function composeUpIn(kind: "unit" | "script", text: string): { up: ComposeUp; workdir: string | null } | null {
  if (kind === "script") {
    for (const c of parseServeScript(text).commands) {
      const up = readComposeUp(c);
      if (up) return { up, workdir: null };
    }
    return null;
  }
  const unit = parseUnit(text);
  const wd = unitValue(unit, "Service", "WorkingDirectory")?.value.replace(/^-/, "") ?? null;
  for (const e of execScripts(unit, text.split("\n"))) {
    if (e.key !== "ExecStart") continue;
    for (const c of e.script.commands) {
      const up = readComposeUp(c);
      if (up) return { up, workdir: wd && isAbsolute(wd) ? wd : null };
    }
  }
  return null;
}

/**
 * The first compose file's path on the host: an absolute -f, or one relative to --project-directory or the
 * working directory; null when it depends on a directory the file does not say (no -f: the tool's default names).
 */
export function composeHostFile(up: ComposeUp, workdir: string | null): string | null {
  const f = up.files[0];
  if (!f) return null;
  if (isAbsolute(f)) return normalize(f);
  const base = up.projectDirectory && isAbsolute(up.projectDirectory) ? up.projectDirectory : workdir;
  return base ? join(base, f) : null;
}

/** The directory that names the project: --project-directory, the first file's, else the working directory. */
export function composeProjectDir(up: ComposeUp, hostFile: string | null, workdir: string | null): string | null {
  if (up.tool !== "podman-compose" && up.projectDirectory && isAbsolute(up.projectDirectory))
    return normalize(up.projectDirectory);
  return hostFile ? dirname(hostFile) : workdir;
}

/** The project name each tool derives (see the header); null when it has nothing to derive it from. */
export function composeProject(up: ComposeUp, dir: string | null, topLevelName: string | null = null): string | null {
  if (up.project) return up.project;
  if (up.tool === "podman-compose") {
    const name =
      dir === null
        ? ""
        : basename(dir)
            .toLowerCase()
            .replace(/[^-_a-z0-9]/g, "");
    return name || null;
  }
  const normal = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, "")
      .replace(/^[-_]+/, "");
  const name = topLevelName ? normal(topLevelName) : dir === null ? "" : normal(basename(dir));
  return name || null;
}

/** The first container of a service: container_name: when set, else `<project><sep><service><sep>1`. */
export function composeContainerName(
  tool: ComposeTool,
  project: string,
  service: string,
  containerName: string | null,
): string {
  if (containerName) return containerName;
  const sep = tool === "docker compose" ? "-" : "_";
  return `${project}${sep}${service}${sep}1`;
}

/** Is this launch file's engine a compose service's (so its container is named by the compose tool)? */
export function isComposeRun(script: Pick<ServeScript, "engine"> | null): boolean {
  return script?.engine?.podmanRun?.runtime === "compose";
}
