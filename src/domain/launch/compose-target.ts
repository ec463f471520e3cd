// An endpoint whose unit or script runs `compose up`: which repository file is the compose file it starts (the
// config's script: when that is one, else the install item that puts a file where the command reads it), which
// service is the engine, and the name of that service's container on the host. Pure.
import { join } from "node:path/posix";
import { composeName, parseCompose } from "./compose.js";
import { parseLaunchParts } from "./launch.js";
import {
  composeContainerName,
  composeHostFile,
  composeProject,
  composeProjectDir,
  composeUpIn,
  DEFAULT_COMPOSE_FILES,
  type ComposeUp,
} from "./compose-up.js";

export interface ComposeFileRef {
  /** the compose file in the repository (config-relative, as install from: is); null when none is known */
  repoFile: string | null;
  /** where the command reads it on the host; null when that depends on a directory nothing names */
  hostFile: string | null;
}

/**
 * The compose file the command starts. `scriptCompose` is the config's script: when it names a compose file: it is
 * the one (its installed path is where the host reads it). Else the install item whose `to` is the command's -f
 * path, or one of the tool's default names in the unit's working directory.
 */
export function composeFileRef(
  up: ComposeUp,
  workdir: string | null,
  install: readonly { from: string; to: string }[],
  scriptCompose: string | null,
): ComposeFileRef {
  const named = composeHostFile(up, workdir);
  if (scriptCompose) {
    // no -f: the tool reads its working directory, whatever install: says; with none known, where install puts it
    const installed = workdir ? null : (install.find((i) => i.from === scriptCompose)?.to ?? null);
    return { repoFile: scriptCompose, hostFile: named ?? installed };
  }
  const candidates = named ? [named] : workdir ? DEFAULT_COMPOSE_FILES.map((n) => join(workdir, n)) : [];
  for (const c of candidates) {
    const item = install.find((i) => i.to === c);
    if (item) return { repoFile: item.from, hostFile: c };
  }
  return { repoFile: null, hostFile: named };
}

export interface ComposeTarget {
  /** the service that runs the engine; null when it cannot be told */
  service: string | null;
  /** that service's first container, as the tool names it; null when the project or service is unknown */
  container: string | null;
  /** what is missing when container is null, said as what to set */
  gap: string | null;
}

/**
 * The engine's service and container. The service: `part:` from the config, else the one service `up` names, else
 * the compose file's first service that runs an engine (its only service when none is recognised).
 */
export function composeTarget(
  up: ComposeUp,
  workdir: string | null,
  ref: ComposeFileRef,
  compose: {
    text: string;
    env: ReadonlyMap<string, string>;
    extended?: ReadonlyMap<string, string>;
    dir?: string;
    builds?: ReadonlyMap<string, string>;
    buildEnv?: ReadonlyMap<string, string>;
  } | null,
  part: string | null,
): ComposeTarget {
  const services = compose ? (parseCompose(compose.text, compose.env, compose.extended, compose.dir) ?? []) : [];
  const engine = compose
    ? parseLaunchParts("compose", compose.text, {
        env: compose.env,
        extended: compose.extended,
        dir: compose.dir,
        builds: compose.builds,
        buildEnv: compose.buildEnv,
      }).find((p) => p.script.engine)
    : undefined;
  const named = up.services.length === 1 ? up.services[0]! : null;
  const service = part ?? named ?? engine?.name ?? (services.length === 1 ? services[0]!.name : null);
  const dir = composeProjectDir(up, ref.hostFile, workdir);
  const project = composeProject(up, dir, compose ? composeName(compose.text, compose.env) : null);
  const svc = services.find((s) => s.name === service);
  if (svc?.containerName) return { service, container: svc.containerName, gap: null };
  if (!service)
    return {
      service: null,
      container: null,
      gap: "say which service runs the engine (set part: to its name in the compose file)",
    };
  if (!project)
    return {
      service,
      container: null,
      gap: "say where the compose file is on the host (an absolute -f path, or WorkingDirectory= in the unit) or give it -p NAME",
    };
  return { service, container: composeContainerName(up.tool, project, service, null), gap: null };
}

/** The files that may run `compose up` for an endpoint, in the order they are asked: its launch file, then its unit. */
export function launcherFiles(
  ep: { unit?: string | undefined },
  launch: { path: string; kind: string },
): { path: string; kind: "unit" | "script" }[] {
  const out: { path: string; kind: "unit" | "script" }[] = [];
  if (launch.kind === "script" || launch.kind === "unit") out.push({ path: launch.path, kind: launch.kind });
  if (ep.unit && ep.unit !== launch.path && !ep.unit.endsWith(".container")) out.push({ path: ep.unit, kind: "unit" });
  return out;
}

/** The first launcher text that runs compose up (`index` in the list), and the compose file it starts. */
export function composeLaunchIn(
  launchers: readonly { kind: "unit" | "script"; text: string | null }[],
  install: readonly { from: string; to: string }[],
  scriptCompose: string | null,
): { up: ComposeUp; workdir: string | null; ref: ComposeFileRef; index: number } | null {
  for (const [index, l] of launchers.entries()) {
    const found = l.text === null ? null : composeUpIn(l.kind, l.text);
    if (found) return { ...found, ref: composeFileRef(found.up, found.workdir, install, scriptCompose), index };
  }
  return null;
}
