// With no deploy-gate.yml: find the files that start an inference server: serve scripts, systemd units
// (ExecStart= runs the engine, directly or in a container) and podman quadlets. A script that only runs
// a database in docker, or a client that calls a server, is not one. A compose file or a Kubernetes manifest
// gives one target per service or container that starts an engine.
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join, posix } from "node:path";
import { isServeScript } from "../../domain/launch/detect.js";
import { COMPOSE_UP } from "../../domain/launch/words.js";
import { composeInputsSync, type ComposeInputs } from "../compose-inputs.js";
import { fileKind, parseLaunch, parseLaunchParts, yamlKind, type FileKind } from "../../domain/launch/launch.js";
import { includedFiles } from "../../domain/launch/compose-include.js";
import {
  consoleScriptPrograms,
  consoleScripts,
  launchedEngine,
  pyprojectPaths,
  pythonPrograms,
  relativeImports,
} from "../../domain/launch/python-launcher.js";
import { NestingTooDeep } from "../../domain/launch/lexer.js";
import { launchWithLibraries, sourcedFiles } from "../../domain/launch/sourced.js";
import type { PreflightTarget } from "./targets.js";
import { pairScriptLaunchers } from "./script-launchers.js";
import { ENGINE, inChart, patchFiles, renderTargets } from "./render-targets.js";

const SHELL_SHEBANG = /^#!.*\b(ba|z|k|)sh\b/;
/** A service unit shipped as a template its setup fills in (`llama-server.service.template`, `.service.in`). */
const UNIT_TEMPLATE = /\.service\.(template|tmpl|tpl|in|j2|example)$/;
// a cheap gate first: parsing every file in a repository is not free
const MENTIONS_ENGINE = /vllm|sglang|llama|podman|docker|serve/i;

/** What kind of launch file a path may be, judged by name and first line; null for any other file. */
export function candidateKind(file: string, text: string, executable = false): FileKind | null {
  const yaml = yamlKind(file, text);
  if (yaml) return yaml;
  if (/\.container$/.test(file)) return "quadlet";
  if (/\.service$/.test(file)) return fileKind(file, text);
  // a unit template its setup fills in (`@@ROOT@@`, `{{ root }}`): a unit when it has a [Service] with ExecStart=
  if (UNIT_TEMPLATE.test(file))
    return /^\s*\[Service\]\s*$/m.test(text) && /^\s*ExecStart\s*=/m.test(text) ? "unit" : null;
  if (file.endsWith(".sh") || file.endsWith(".bash") || SHELL_SHEBANG.test(text)) return "script";
  // an executable file with no `#!` line: execve refuses it (ENOEXEC) and the shell that called it runs it itself
  if (executable && !text.startsWith("#!") && !/\.[A-Za-z0-9]+$/.test(file) && !NOT_SHELL.test(basename(file)))
    return "script";
  return null;
}

/** Files without an extension that are never shell, whatever their mode (a repository committed from Windows). */
const NOT_SHELL =
  /^(Dockerfile|Containerfile|G?Makefile|[Jj]ustfile|Procfile|Vagrantfile|Jenkinsfile|LICEN[CS]E|COPYING|README|NOTICE|AUTHORS|CHANGE(LOG|S)|VERSION|OWNERS|CODEOWNERS)\b/i;

/** The work-tree file has an execute bit (read only for a file with no extension and no `#!` line). */
function executableWithoutShebang(root: string, file: string, text: string): boolean {
  if (text.startsWith("#!") || /\.[A-Za-z0-9]+$/.test(file)) return false;
  try {
    return (statSync(join(root, file)).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** Does this file start an inference server? */
export function startsEngine(file: string, text: string, executable = false): FileKind | null {
  const kind = candidateKind(file, text, executable);
  if (!kind || text.includes("\0") || !MENTIONS_ENGINE.test(text)) return null;
  if (kind === "script") {
    try {
      return isServeScript(text) ? kind : null;
    } catch (e) {
      // a file that mentions an engine and cannot be read is no file to skip: preflight reports it
      if (e instanceof NestingTooDeep) return kind;
      throw e;
    }
  }
  const launch = parseLaunch(kind, text);
  // a file the gate cannot read but that names an engine is found, and reported as unread
  return launch.engine || (launch.unreadable && ENGINE.test(text)) ? kind : null;
}

/**
 * Launch-form files that name an engine and start none now (a launch commented out, a command deleted): the
 * files whose earlier version preflight compares, so a launch that went away whole is not missed.
 */
export function quietLaunchFiles(
  root: string,
  files: readonly string[],
  targets: readonly PreflightTarget[],
): string[] {
  const taken = new Set(targets.flatMap((t) => [t.scriptPath, t.unitPath ?? ""]));
  // a chart's templates and an overlay's patches are read through their render, never as files of their own (a
  // kustomize directory that only lists its own manifests is no overlay: they are read as written)
  const rendered = files
    .filter((f) => /(^|\/)(kustomization\.ya?ml|Chart\.yaml)$/.test(f) && !plainKustomization(root, f))
    .map((f) => (f.includes("/") ? `${dirname(f)}/` : ""));
  return files.filter((file) => {
    if (taken.has(file) || /(^|\/)(node_modules|dist|\.git)\//.test(file)) return false;
    if (/\.ya?ml$/.test(file) && rendered.some((d) => file.startsWith(d))) return false;
    // (as discovery reads them: a script without an extension, `docker/run`, too)
    if (!/\.(sh|bash|zsh|command|service|container|ya?ml)$/.test(file) && /(^|\/)[^/]*\.[A-Za-z0-9]+$/.test(file))
      return false;
    try {
      const text = readFileSync(join(root, file), "utf8");
      // (a compose file whose engine service was deleted whole may name no engine any more: it is still compared)
      const exec = executableWithoutShebang(root, file, text);
      const kind = text.includes("\0") ? null : candidateKind(file, text, exec);
      return kind !== null && (ENGINE.test(text) || kind === "compose");
    } catch {
      return false;
    }
  });
}

/** A kustomization that lists only manifests of its own directory: no base, no patch, no image rewrite. */
function plainKustomization(root: string, file: string): boolean {
  if (!/kustomization\.ya?ml$/i.test(file)) return false;
  try {
    const k = readFileSync(join(root, file), "utf8");
    return (
      !/^\s*-\s*(?:path\s*:\s*)?\.\.\//m.test(k) &&
      !/^(patches|patchesStrategicMerge|patchesJson6902|images|components)\s*:/m.test(k)
    );
  } catch {
    return false;
  }
}

/** The parts of a YAML launch file that start an engine (services, containers); [] for none. */
export function engineParts(kind: "compose" | "kubernetes", text: string, inputs?: Partial<ComposeInputs>): string[] {
  return (
    parseLaunchParts(kind, text, { env: new Map(), ...inputs })
      // an unreadable file that names an engine is found, and reported as unread
      .filter((p) => p.script.engine || (p.script.unreadable && ENGINE.test(text)))
      .map((p) => p.name)
  );
}

/** The .env and `extends:` files compose reads beside a compose file in the work tree. */
function composeFiles(root: string, file: string, text: string): ComposeInputs {
  return composeInputsSync(
    (p) => {
      try {
        return readFileSync(join(root, p), "utf8");
      } catch {
        return null;
      }
    },
    file,
    text,
  );
}

const stem = (file: string) => basename(file).replace(/\.(ba)?sh$|\.service$|\.container$|\.ya?ml$/, "");

export function discoverTargets(root: string, files: readonly string[]): PreflightTarget[] {
  const targets: PreflightTarget[] = renderTargets(root, files);
  const rendered = targets.filter((t) => t.render!.tool === "helm").map((t) => t.render!.dir);
  const patches = new Set(
    files.filter((f) => /(^|\/)kustomization\.ya?ml$/i.test(f)).flatMap((k) => patchFiles(root, k)),
  );
  const units: { file: string; text: string }[] = [];
  const launchers: string[] = [];
  const scripts: { file: string; text: string }[] = [];
  const includers: { file: string; f: string }[] = [];
  for (const file of files) {
    if (/(^|\/)(node_modules|dist|\.git)\//.test(file)) continue;
    // a chart's templates are no YAML until helm renders them; its values are no launch file
    if (rendered.some((d) => inChart(file, d)) || patches.has(file)) continue;
    // (batch-system job files and macOS's double-click `.command` files are shell scripts under another name)
    if (
      !/\.(sh|bash|zsh|command|slurm|sbatch|pbs|service|container|ya?ml)$/.test(file) &&
      /\.[A-Za-z0-9]+$/.test(file) &&
      !UNIT_TEMPLATE.test(file)
    )
      continue;
    let text: string;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue;
    }
    // a compose file that `include:`s others starts their services when its users run `docker compose up`
    if (/\.ya?ml$/.test(file)) includers.push(...includedFiles(text, posix.dirname(file)).map((f) => ({ file, f })));
    const yaml = yamlKind(file, text);
    if (yaml) {
      // (a compose file that builds its image may name no engine: its Dockerfile does)
      if (text.includes("\0") || !(MENTIONS_ENGINE.test(text) || (yaml === "compose" && /^\s+build:/m.test(text))))
        continue;
      const parts = engineParts(yaml, text, yaml === "compose" ? composeFiles(root, file, text) : undefined);
      for (const part of parts)
        targets.push({
          name: parts.length > 1 ? `${stem(file)}-${part.split("/").at(-1)}` : stem(file),
          scriptPath: file,
          unitPath: null,
          endpoint: null,
          kind: yaml,
          part,
        });
      continue;
    }
    const executable = executableWithoutShebang(root, file, text);
    const kind =
      startsEngine(file, text, executable) ??
      (startsThroughLibrary(root, file, text) || startsThroughPython(root, file, text) ? "script" : null);
    if (!kind) {
      if (/\.service$/.test(file) || UNIT_TEMPLATE.test(file)) units.push({ file, text });
      else {
        // (a starter may bring up a compose stack, a database, and run a serve script of the repository too)
        if (COMPOSE_UP.test(text)) launchers.push(file);
        if (candidateKind(file, text, executable) === "script") scripts.push({ file, text });
      }
      continue;
    }
    // a script that starts two engines one after the other: each is a target; the first checks the file
    const parts = kind === "script" ? parseLaunchParts(kind, text) : [];
    if (parts.length > 1)
      parts.forEach((p, i) =>
        targets.push({
          name: `${stem(file)}-${p.name.replace(/\W+/g, "")}`,
          scriptPath: file,
          unitPath: null,
          endpoint: null,
          kind,
          part: p.name,
          ...(i > 0 ? { sharesFile: true } : {}),
        }),
      );
    else
      targets.push({
        name: stem(file),
        scriptPath: file,
        unitPath: null,
        endpoint: null,
        kind,
      });
  }
  pairScriptLaunchers(targets, scripts);
  // (a unit whose ExecStart= is `docker compose up -d vllm` starts the compose file as a script would)
  const composeUnits = pairUnits(targets, units);
  // (`systemctl enable --now x.service` of a unit paired with its script just now)
  const unpaired = scripts.filter((s) => /\bsystemctl\b/.test(s.text) && !targets.some((t) => t.launcher === s.file));
  pairScriptLaunchers(targets, unpaired);
  pairLaunchers(targets, [...launchers, ...composeUnits]);
  for (const { file, f } of includers)
    for (const t of targets) if (t.kind === "compose" && t.scriptPath === f && !t.launcher) t.launcher = file;
  return targets.sort((a, b) => a.scriptPath.localeCompare(b.scriptPath));
}

/**
 * A unit whose ExecStart= runs a serve script of the repository (`ExecStart=/opt/llm/start-vllm.sh`, `bash
 * serve.sh`) is that script's unit: the pair is checked as a configured script and unit are (the unit's rules
 * know the engine from the script). Matched by the path's tail, the file name at least. A second unit of the same
 * script is a target of its own that shares the script's file checks.
 */
function pairUnits(targets: PreflightTarget[], units: readonly { file: string; text: string }[]): string[] {
  const composeUp: string[] = [];
  for (const u of units) {
    const exec = /^\s*ExecStart\s*=\s*[-@:+!]*(.*)$/m.exec(u.text)?.[1] ?? "";
    // (`/bin/bash -c 'exec "${ROOT}/start.sh"'`: the quoted string's words, past its `exec`)
    const words = exec
      .split(/\s+/)
      .map((w) => w.replace(/^['"]+|['"]+$/g, ""))
      .filter((w) => w && !w.startsWith("-"));
    const shell = /^(\/\S*\/)?(ba|da|z)?sh$/.test(words[0] ?? "");
    const prog = shell ? (words[1] === "exec" ? words[2] : words[1]) : words[0];
    if (!prog) continue;
    // (`uv run --directory D /srv/x/serve.sh`, `conda run -n env bash serve.sh`: the script is a later word)
    const match = [prog, ...words.filter((w) => w !== prog && SCRIPT_FILE.test(w))].reduce<PreflightTarget | undefined>(
      (m, w) => m ?? unitRuns(targets, w),
      undefined,
    );
    if (!match) {
      if (COMPOSE_UP.test(u.text)) composeUp.push(u.file);
      continue;
    }
    // two units (profiles) running one script: each unit is checked with it, the script's own checks once
    if (match.unitPath === null) match.unitPath = u.file;
    else targets.push({ ...match, name: basename(u.file), unitPath: u.file, sharesFile: true, unitOnly: true });
  }
  return composeUp;
}

const SCRIPT_FILE = /\.(ba)?sh$/;

/** The serve script (or its wrapper) a unit's ExecStart= word names. */
function unitRuns(targets: readonly PreflightTarget[], prog: string): PreflightTarget | undefined {
  const tail = (p: string, n: number) => p.split("/").slice(-n).join("/");
  const scripts = targets.filter((t) => t.kind === "script" && !t.sharesFile && !t.endpoint);
  // an installer often drops the extension (`install vllm-serve.sh /usr/local/bin/vllm-serve`)
  const bare = (p: string) => basename(p).replace(SCRIPT_FILE, "");
  return (
    scripts.find((t) => t.scriptPath.includes("/") && tail(prog, 2) === tail(t.scriptPath, 2)) ??
    scripts.find((t) => basename(prog) === basename(t.scriptPath)) ??
    scripts.find((t) => bare(prog) === bare(t.scriptPath)) ??
    // a unit that runs a wrapper of the serve script (`podman_start.sh` that execs it in a container)
    targets.find((t) => t.kind === "script" && t.launcher && basename(prog) === basename(t.launcher))
  );
}

/** `docker compose up`, `docker-compose -f x.yml up -d`, `podman compose up`, `podman-compose up` */
/**
 * A script that only runs `docker compose up` starts the compose file nearest above it (its own directory, then
 * each parent): that file's engine services name it as their launcher; the script is no engine of its own.
 */
function pairLaunchers(targets: PreflightTarget[], launchers: readonly string[]): void {
  for (const l of launchers) {
    for (let dir = dirname(l); ; dir = dirname(dir)) {
      const near = targets.filter((t) => t.kind === "compose" && !t.launcher && dirname(t.scriptPath) === dir);
      if (near.length) {
        for (const t of near) t.launcher = l;
        break;
      }
      if (dir === "." || dir === "/") break;
    }
  }
}

/** A script that runs the team's own Python program of the repository, whose source starts an engine. */
function startsThroughPython(root: string, file: string, text: string): boolean {
  if (candidateKind(file, text) !== "script" || text.includes("\0")) return false;
  const read = (f: string) => {
    try {
      return readFileSync(join(root, f), "utf8");
    } catch {
      return null;
    }
  };
  const dir = posix.dirname(file).replace(/^\.$/, "");
  const script = parseLaunch("script", text);
  // the team's program run by python, or a console script its pyproject.toml declares (`uv run inference-lab serve`)
  const declared = new Map(
    pyprojectPaths(dir)
      .reverse()
      .flatMap((p) => [...consoleScripts(read(p) ?? "")]),
  );
  const programs = [
    ...(/\bpython|\.py\b/i.test(text) ? pythonPrograms(script, dir) : []),
    ...consoleScriptPrograms(script, declared),
  ];
  // (an entry point that hands the work to a sibling module it imports: that module too)
  const starts = (c: string) => {
    const source = read(c) ?? "";
    return [source, ...relativeImports(source, c).map((m) => read(m) ?? "")].some((t) => launchedEngine(t) !== null);
  };
  return programs.some((p) => p.candidates.some(starts));
}

/** A script that starts no engine itself, but calls the function of a library it sources that does. */
function startsThroughLibrary(root: string, file: string, text: string): boolean {
  if (candidateKind(file, text) !== "script" || text.includes("\0")) return false;
  const libs = sourcedFiles(text).flatMap((s) => {
    const lib = posix.normalize(posix.join(posix.dirname(file), s.path));
    try {
      return lib.startsWith("../") ? [] : [{ ...s, file: lib, text: readFileSync(join(root, lib), "utf8") }];
    } catch {
      return [];
    }
  });
  return libs.some((l) => MENTIONS_ENGINE.test(l.text)) && launchWithLibraries(text, libs) !== null;
}
