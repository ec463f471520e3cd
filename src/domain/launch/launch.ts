// How a file launches an engine, whatever the file is: a serve script, a systemd unit (ExecStart= runs the
// engine directly or through podman/docker run) or a podman quadlet (.container). Each parses into the
// same ServeScript model (commands, container runs, engine), so every check reads one shape. A compose file or a
// Kubernetes manifest holds several launches (a service, a container): each is a part, checked as its own file. Pure.
import type { Engine, PodmanRun, ServeScript, Word } from "./model.js";
import type { EngineKind } from "../engine/kind.js";
import { parseCompose } from "./compose.js";
import { parseKube } from "./kube.js";
import { yamlError } from "./yaml-node.js";
import { parseServeScript, runEngine, runEngines } from "./parse.js";
import { quadletRun } from "./quadlet.js";
import { parseUnit, type UnitFile } from "./unit.js";
import { NestingTooDeep } from "./lexer.js";
import { execScripts } from "./unit-exec.js";
import { misspeltContainerKey } from "./quadlet-keys.js";
import { placeFlags } from "./place.js";
import { launcherEngine } from "./unit-launcher.js";
import { launchedEngine } from "./python-launcher.js";

export type FileKind = "script" | "unit" | "quadlet" | "compose" | "kubernetes";

/** Without a byte-order mark before the first key (editors on Windows write one): YAML and kubectl read past it. */
const noBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** A YAML file by name and content: a compose file (top-level services:) or a Kubernetes manifest; null otherwise. */
export function yamlKind(path: string, withBom: string): "compose" | "kubernetes" | null {
  if (!/\.ya?ml$/.test(path)) return null;
  const text = noBom(withBom);
  if (/^services\s*:/m.test(text)) return "compose";
  if (/^apiVersion\s*:/m.test(text) && /^kind\s*:/m.test(text)) return "kubernetes";
  return null;
}

/** A unit the repository ships as a template its setup fills in (`llm.service.template`, `.service.in`, `.j2`). */
export const UNIT_FILE = /\.(service|socket|timer|target|mount|path)(\.(template|tmpl|tpl|in|j2|example))?$/;

/** By name first (.container, .service...), then by content ([Container] / [Service] sections). */
export function fileKind(path: string, text: string): FileKind {
  const yaml = yamlKind(path, text);
  if (yaml) return yaml;
  if (/\.container$/.test(path)) return "quadlet";
  if (UNIT_FILE.test(path)) return /^\s*\[Container\]\s*$/m.test(text) ? "quadlet" : "unit";
  if (/\.(sh|bash|zsh)$/.test(path) || /^#!/.test(text)) return "script";
  if (/^\s*\[Container\]\s*$/m.test(text)) return "quadlet";
  if (/^\s*\[Service\]\s*$/m.test(text) && /^\s*ExecStart=/m.test(text)) return "unit";
  return "script";
}

export interface LaunchOptions {
  /** the part to read (a compose service, a Kubernetes Kind/name/container); the first with an engine when absent */
  part?: string | null;
  /** the engine parts the file has now, when the text read is an earlier version (renamed parts pair in order) */
  headParts?: readonly string[];
  /** compose: the .env beside the file, for ${VAR:-default} */
  env?: ReadonlyMap<string, string>;
  /** compose: the files its services' `extends: {file: ...}` name (see extendedFiles), by repository path */
  extended?: ReadonlyMap<string, string>;
  /** compose: the file's directory in the repository ("" for the root) */
  dir?: string;
  /** compose: the Dockerfiles and scripts its services' builds name (see buildFiles), by repository path */
  builds?: ReadonlyMap<string, string>;
  /** compose: the values its builds' context and dockerfile are filled from (see compose-inputs.ts) */
  buildEnv?: ReadonlyMap<string, string>;
  /** script: the words a unit's ExecStart= passes it (its "$@"), each at the unit's line and file */
  positional?: readonly Word[];
}

// Helm's own objects and functions: a bare `{{ if .Spec... }}` inside a string is text another controller fills
// (KServe's LLMInferenceServiceConfig), and the YAML around it is plain
const HELM_TEMPLATE =
  /\{\{-?[^}]*?(\.Values\b|\.Release\b|\.Chart\b|\.Capabilities\b|\.Files\b|\binclude\b|\btemplate\b|\btoYaml\b|\btpl\b)/;

/**
 * A Flux HelmRelease whose `{{ }}` are only inside quoted values (`- "{{ .Release.Name }}.example.org"`): strings the
 * chart fills with `tpl` when it renders, in a file that is plain YAML itself.
 */
function releaseValuesOnly(text: string): boolean {
  if (!/^kind:\s*HelmRelease\s*$/m.test(text) || yamlError(text) !== null) return false;
  return text
    .split("\n")
    .filter((l) => l.includes("{{"))
    .every((l) => /^\s*(-\s+)?([\w.-]+:\s+)?(["'])[^"']*\{\{[^"']*\3\s*(#.*)?$/.test(l));
}

/** One launch in a file: a compose service or a Kubernetes container (a script, unit or quadlet is one part, ""). */
export interface LaunchPart {
  name: string;
  script: ServeScript;
}

/** Every launch the file holds; for a compose file or a manifest, one part per service or container. */
export function parseLaunchParts(kind: FileKind, withBom: string, options: LaunchOptions = {}): LaunchPart[] {
  const yaml = kind === "compose" || kind === "kubernetes";
  const text = yaml ? noBom(withBom) : withBom;
  // Helm's template language outside a chart: the values it would fill are unknown, even where the YAML parses
  const templated = yaml && HELM_TEMPLATE.test(text) && !releaseValuesOnly(text);
  const bad = !yaml ? null : templated ? "a Helm template (its {{ }} are filled only by helm)" : yamlError(text);
  // one part that says why the file cannot be read (a template outside a chart, a broken indent)
  if (bad) {
    const what = kind === "compose" ? "a compose file" : "a Kubernetes manifest";
    return [
      {
        name: "",
        script: {
          ...empty(text),
          unreadable: `${what} that is ${bad}`,
          unreadableFix: templated
            ? "it holds {{ }} template expressions: keep it in a Helm chart (with its Chart.yaml) so preflight renders it with helm template, or render it and commit the result"
            : `fix the YAML (\`${kind === "compose" ? "docker compose config" : "kubectl apply --dry-run=client -f"} FILE\` shows the same error)`,
        },
      },
    ];
  }
  if (kind === "compose")
    return (parseCompose(text, options.env, options.extended, options.dir, options.builds, options.buildEnv) ?? []).map(
      (s) => containerPart(s.name, withMountedEngine(withScriptEngine(s.run)), text, s.argvFrom),
    );
  if (kind === "kubernetes") return (parseKube(text) ?? []).flatMap((c) => podParts(c.name, c.run, text));
  const script = parseLaunch(kind, text, options.positional ? { positional: options.positional } : {});
  // a script that starts two engines: each is a part, named by its engine and its place among that engine's
  // launches in the file (stable across commits, whichever has more flags)
  if (!script.engines) return [{ name: "", script }];
  const seen = new Map<string, number>();
  // (one launcher function's calls share its line: each call's own words, where they are written, order them)
  const written = (e: Engine) => e.command.words.find((w) => w.line !== e.command.line)?.line ?? e.command.line;
  return [...script.engines]
    .sort((a, b) => a.command.line - b.command.line || written(a) - written(b))
    .map((engine) => {
      const n = (seen.get(engine.kind) ?? 0) + 1;
      seen.set(engine.kind, n);
      return { name: `${engine.kind} #${n}`, script: { ...script, engine, engines: undefined } };
    });
}

/** A built image whose program is a script of the repository: what that script starts (read as any script). */
function withScriptEngine(run: PodmanRun): PodmanRun {
  const script = run.build?.script;
  if (script && run.build!.scriptEngine === undefined)
    run.build!.scriptEngine = scriptEngine(script.path, script.text, script.modules);
  return run;
}

/** A service running a script it mounts from the repository: the same. */
function withMountedEngine(run: PodmanRun): PodmanRun {
  const m = run.mounted;
  if (m && m.scriptEngine === undefined) m.scriptEngine = scriptEngine(m.path, m.text);
  return run;
}

function scriptEngine(
  path: string,
  text: string,
  modules: readonly { text: string }[] = [],
): { kind: EngineKind; passesArgs: boolean } | null {
  // a Python program: the engine its source (or a module it imports) starts as a process, if any (python-launcher.ts)
  if (/\.py$/.test(path)) {
    const kind = launchedEngine(text) ?? modules.map((m) => launchedEngine(m.text)).find((k) => k) ?? null;
    return kind ? { kind, passesArgs: false } : null;
  }
  const engine = parseLaunch("script", text).engine;
  // (`exec vllm serve "$@"`: the arguments the image is given are the engine's too)
  if (engine) return { kind: engine.kind, passesArgs: /\$\{?[@*]/.test(engine.command.source) };
  // an entrypoint that hands off to the repository's serve script: the engine at the end of the chain
  const handed = modules.map((m) => parseLaunch("script", m.text).engine).find((e) => e);
  return handed ? { kind: handed.kind, passesArgs: false } : null;
}

/** A container's parts: one, or one per launch of a role switch (leader, then `#2` for the worker branch, ...). */
function podParts(name: string, run: PodmanRun, text: string): LaunchPart[] {
  const engines = runEngines(run, text);
  if (engines.length < 2) return [containerPart(name, run, text)];
  return engines.map((engine, i) => {
    const script = { ...empty(text), podmanRuns: [run], engine };
    placeFlags(engine.flags, script.lines);
    return { name: i === 0 ? name : `${name} #${i + 1}`, script };
  });
}

function containerPart(
  name: string,
  run: PodmanRun,
  text: string,
  argvFrom?: { file: string; lines: readonly string[] },
): LaunchPart {
  const script = { ...empty(text), podmanRuns: [run], engine: runEngine(run, text) };
  const flags = script.engine?.flags ?? [];
  placeFlags(flags, argvFrom?.lines ?? script.lines);
  // (a `bash -c` string of the other file is read again as a script: its flags keep that file too)
  if (argvFrom) for (const f of flags) f.file ??= argvFrom.file;
  return { name, script };
}

/**
 * The part of the same name; else (the file at another commit, where the service, workload or container was
 * renamed) the one with the same last name segment, else the file's only engine part.
 */
function samePart(parts: readonly LaunchPart[], name: string, head?: readonly string[]): LaunchPart | undefined {
  const last = (n: string) => n.split("/").at(-1);
  const engines = parts.filter((p) => p.script.engine);
  return (
    parts.find((p) => p.name === name) ??
    engines.find((p) => last(p.name) === last(name)) ??
    // (a script's second engine is no renamed first one)
    (engines.length === 1 && !name.includes("#") ? engines[0] : undefined) ??
    renamedPart(engines, name, head)
  );
}

/**
 * Every engine service renamed in one change (`vllm` -> `vllm-gpu`, `vllm-embedded-llm` -> `vllm-embedding`): the
 * parts gone since and the parts new now, as many of each, pair in the file's order.
 */
function renamedPart(engines: readonly LaunchPart[], name: string, head?: readonly string[]): LaunchPart | undefined {
  if (!head) return undefined;
  const gone = engines.filter((p) => !head.includes(p.name));
  const added = head.filter((h) => !engines.some((p) => p.name === h));
  const i = added.indexOf(name);
  return i >= 0 && gone.length === added.length ? gone[i] : undefined;
}

/**
 * A part added by the change: no part of that name at the base, while another part of the file now holds the
 * base's only launch under its old name (a service added beside the old one is no rename of it).
 */
export function isNewPart(kind: FileKind, baseText: string, headText: string, part: string): boolean {
  if (kind !== "compose" && kind !== "kubernetes") return false;
  const last = (n: string) => n.split("/").at(-1);
  const base = parseLaunchParts(kind, baseText).filter((p) => p.script.engine);
  if (base.some((p) => p.name === part || last(p.name) === last(part))) return false;
  const head = parseLaunchParts(kind, headText).filter((p) => p.script.engine && p.name !== part);
  return head.some((h) => base.some((b) => b.name === h.name || last(b.name) === last(h.name)));
}

export function parseLaunch(kind: FileKind, text: string, options: LaunchOptions = {}): ServeScript {
  if (kind === "compose" || kind === "kubernetes" || (kind === "script" && options.part)) {
    const parts = parseLaunchParts(kind, text, options);
    const part = options.part
      ? samePart(parts, options.part, options.headParts)
      : (parts.find((p) => p.script.engine) ?? parts[0]);
    return part?.script ?? empty(text);
  }
  try {
    if (kind === "script") return parseServeScript(text, { positional: [...(options.positional ?? [])] });
    const unit = parseUnit(text);
    return kind === "unit" ? unitLaunch(unit, text) : quadletLaunch(unit, text);
  } catch (e) {
    // one file nested past the bound is reported as unread; the run goes on with the others
    if (e instanceof NestingTooDeep) return { ...empty(text), unreadable: e.message };
    throw e;
  }
}

const empty = (text: string): ServeScript => ({
  text,
  lines: text.split("\n"),
  commands: [],
  assignments: [],
  podmanRuns: [],
  engine: null,
});

/** A unit: the commands of its Exec*= lines; the engine is the one its ExecStart= starts. */
function unitLaunch(unit: UnitFile, text: string): ServeScript {
  const out = empty(text);
  const scripts = execScripts(unit, out.lines);
  for (const e of scripts) {
    out.commands.push(...e.script.commands);
    out.podmanRuns.push(...e.script.podmanRuns);
    if (e.key === "ExecStart" && e.script.engine && !out.engine) out.engine = e.script.engine;
  }
  // (a Python launcher of the team's: the engine its Description= names)
  const start = scripts.find((e) => e.key === "ExecStart");
  const pre = scripts.filter((e) => e.key === "ExecStartPre").flatMap((e) => e.script.commands);
  if (!out.engine && start) out.engine = launcherEngine(unit, start.script.commands[0], pre);
  return out;
}

/** A quadlet: the podman run it generates, plus the commands of its [Service] Exec*= lines. */
function quadletLaunch(unit: UnitFile, text: string): ServeScript {
  const typo = misspeltContainerKey(unit);
  // podman's generator rejects the whole file: no service, no container, nothing to read as a launch
  if (typo)
    return {
      ...empty(text),
      unreadable: `[Container] key ${typo.key}= (line ${typo.line}) is not one quadlet knows (did you mean ${typo.meant}=?): podman's quadlet generator rejects the file with "unsupported key" and no service is generated`,
      unreadableFix: `rename ${typo.key}= to ${typo.meant}= on line ${typo.line}; \`/usr/libexec/podman/quadlet -dryrun\` lists what the generator makes of the file`,
    };
  const out = unitLaunch(unit, text);
  const run = quadletRun(unit, out.lines);
  if (run) {
    out.podmanRuns.unshift(run);
    out.engine = runEngine(run, text);
  }
  return out;
}
