// A compose file (compose.yaml, docker-compose*.yml, podman compose) read as one container run per service: the
// keys become the options they stand for (shm_size -> --shm-size, ulimits -> --ulimit, GPU reservations -> --gpus),
// `entrypoint` + `command` the argv after the image, `${VAR:-default}` filled from .env. Each service that starts
// an engine is its own launch part. Pure.
import type { PodmanRun, Word } from "./model.js";
import { readPodmanRun } from "./podman.js";
import { buildReads, builtImage, llamaCppStage } from "./compose-build.js";
import { mountedScriptPath } from "./compose-mount.js";
import { imageEngine } from "./engine.js";
import { optionWord, readYaml, YamlReader, yamlCommand } from "./yaml-node.js";
import { posix } from "node:path";
import { isSeq, type Node } from "yaml";
import {
  extendsRef,
  fromFile,
  mergeFacets,
  type ComposeFile,
  type ExtendsScope,
  type Facets,
} from "./compose-extends.js";

export interface ComposeService {
  name: string;
  /** the run the service stands for; its workload holds restart, GPUs and the healthcheck's start period */
  run: PodmanRun;
  /** container_name:, when the service sets it (the tools name the container otherwise) */
  containerName: string | null;
  /** the service's argv is another file's (`extends: {file: ...}`): its flags are on that file's lines */
  argvFrom?: { file: string; lines: readonly string[] };
}

/** compose's interpolation: $$ is a dollar; ${VAR}, ${VAR:-default}, ${VAR-default}, $VAR from .env; unset is empty. */
export function interpolate(text: string, env: ReadonlyMap<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, name: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
      if (all === "$$") return "$";
      const key = name ?? bare!;
      const v = env.get(key);
      const set = v !== undefined && (v !== "" || !op?.startsWith(":"));
      if (op === ":-" || op === "-") return set ? v! : interpolate(arg ?? "", env);
      if (op === ":+" || op === "+") return set ? interpolate(arg ?? "", env) : "";
      return v ?? "";
    },
  );
}

/** `.env` as compose reads it: KEY=VALUE lines, quotes removed, comments and blank lines skipped. */
export function parseDotEnv(text: string): Map<string, string> {
  const env = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2]!.trim();
    const q = v[0];
    const close = q === '"' || q === "'" ? v.indexOf(q, 1) : -1;
    if (close > 0) v = v.slice(1, close);
    else v = v.replace(/\s+#.*$/, "");
    env.set(m[1]!, v);
  }
  return env;
}

/** Is this text a compose file? A top-level `services:` map whose entries have an image, a build or a command. */
export function looksLikeCompose(text: string): boolean {
  return /^services\s*:/m.test(text);
}

/** The file's top-level `name:` (docker compose names its project with it), interpolated; null when absent. */
export function composeName(text: string, env: ReadonlyMap<string, string> = new Map()): string | null {
  const src = looksLikeCompose(text) ? readYaml(text) : null;
  const doc = src?.docs[0];
  if (!src || !doc) return null;
  const y = new YamlReader(src, doc);
  const v = y.str(y.get(doc.contents, "name"));
  return v === null ? null : interpolate(v, env);
}

/** Every service of a compose file, read as a container run; null when the text is no compose file. `extended`
 *  holds the files its services' `extends: {file: ...}` name, by repository path (extendedFiles reads them); `dir`
 *  is the compose file's own directory in the repository. */
export function parseCompose(
  text: string,
  env: ReadonlyMap<string, string> = new Map(),
  extended: ReadonlyMap<string, string> = new Map(),
  dir = "",
  builds: ReadonlyMap<string, string> = new Map(),
  buildEnv?: ReadonlyMap<string, string>,
): ComposeService[] | null {
  const file = openCompose(text);
  if (!file) return null;
  const lines = text.split("\n");
  const scope = { extended, dir, depth: 0, builds, buildEnv: buildEnv ?? env };
  const all = file.y.keys(file.services).map((name) => ({ name, f: serviceFacets(file, name, env, scope) }));
  return all.flatMap(({ name, f }) => (f ? [assemble(name, sharedBuild(f, all), lines, env)] : []));
}

/** A service running the image another service of the file builds (the same `image:` tag): that build's image. */
function sharedBuild(f: Facets, all: { f: Facets | null }[]): Facets {
  if (f.build || !f.tag) return f;
  const maker = all.find(({ f: g }) => g?.build && g.tag === f.tag)?.f;
  if (!maker) return f;
  return { ...f, build: maker.build, image: { ...f.image, text: maker.image.text, resolved: maker.image.resolved } };
}

/** A compose file's parsed YAML and its `services:` map; null when the text is no compose file. */
export function openCompose(text: string): ComposeFile | null {
  if (!looksLikeCompose(text)) return null;
  const src = readYaml(text);
  const doc = src?.docs[0];
  if (!src || !doc) return null;
  const y = new YamlReader(src, doc);
  const services = y.get(doc.contents, "services");
  return services ? { y, services } : null;
}

function assemble(name: string, f: Facets, lines: readonly string[], env: ReadonlyMap<string, string>): ComposeService {
  const words = [...f.options, f.image, ...interpolatedScript([...(f.entrypoint ?? []), ...(f.command ?? [])], env)];
  // words another file (`extends: {file: ...}`) wrote keep their own lines: the command's span is this file's
  const here = words.filter((w) => !w.file).map((w) => w.line);
  const from = Math.min(...here, f.line);
  const to = Math.max(...here);
  const command = yamlCommand(words, from, to, lines);
  // the words before the image are options podman's reader knows; the image and what follows are the argv
  const run = readPodmanRun(command, words, "compose");
  if (run.image?.text !== f.image.text) run.image = f.image;
  if (f.build) run.build = f.build;
  if (f.mounted) run.mounted = f.mounted;
  run.workload = {
    form: "compose",
    name,
    restart: f.restart,
    gpus: f.gpus,
    shm: null,
    probes: f.startPeriod
      ? [{ kind: "healthcheck.start_period", budgetSeconds: seconds(f.startPeriod.value), line: f.startPeriod.line }]
      : [],
  };
  const containerName = f.containerName === null ? null : interpolate(f.containerName, env);
  return { name, run, containerName, ...(f.argvFrom ? { argvFrom: f.argvFrom } : {}) };
}

/** A service with what its `extends:` brings (up to five levels; a loop or a missing base reads the service alone). */
function serviceFacets(
  file: ComposeFile,
  name: string,
  env: ReadonlyMap<string, string>,
  scope: ExtendsScope,
): Facets | null {
  const svc = file.y.get(file.services, name);
  if (!svc) return null;
  const own = readService(file.y, name, svc, env, scope);
  const ref = scope.depth < 5 ? extendsRef(file.y, svc, scope.dir) : null;
  if (!ref) return own;
  const next = { ...scope, depth: scope.depth + 1 };
  if (ref.file === null) {
    const base = ref.service === name ? null : serviceFacets(file, ref.service, env, next);
    return base ? mergeFacets(base, own) : own;
  }
  const text = scope.extended.get(ref.file);
  const other = text === undefined ? null : openCompose(text);
  const base = other && serviceFacets(other, ref.service, env, { ...next, dir: posix.dirname(ref.file) });
  return base ? mergeFacets(fromFile(base, ref.file, text!.split("\n"), ref.line), own) : own;
}

/** The files `extends:` brings in, through every level (at most ten files), read with `read` (a repository path;
 *  null when the file is not there) from the compose file's directory `dir`: parseCompose's `extended`. */
export function extendedFiles(text: string, read: (path: string) => string | null, dir = ""): Map<string, string> {
  const out = new Map<string, string>();
  let todo = extendsFiles(text, dir);
  while (todo.length && out.size < 10) {
    const next: string[] = [];
    for (const path of todo.filter((p) => !out.has(p) && !p.startsWith("../"))) {
      const t = read(path);
      if (t === null) continue;
      out.set(path, t);
      next.push(...extendsFiles(t, posix.dirname(path)));
    }
    todo = next;
  }
  return out;
}

/** The files a compose file's `extends: {file: ...}` name, as repository paths (it sits in `dir`). */
export function extendsFiles(text: string, dir = ""): string[] {
  const file = openCompose(text);
  if (!file) return [];
  return file.y.keys(file.services).flatMap((name) => {
    const svc = file.y.get(file.services, name);
    const ref = svc ? extendsRef(file.y, svc, dir) : null;
    return ref?.file ? [ref.file] : [];
  });
}

/** The Dockerfiles and scripts the services' builds need (see compose-build.ts), read with `read`: parseCompose's
 *  `builds`. */
export function buildFiles(
  text: string,
  read: (path: string) => string | null,
  dir = "",
  buildEnv: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const file = openCompose(text);
  const out = new Map<string, string>();
  if (!file) return out;
  const expand = (t: string) => interpolate(t, buildEnv);
  for (const name of file.y.keys(file.services)) {
    const svc = file.y.get(file.services, name);
    if (!svc) continue;
    const command = file.y.get(svc, "command");
    const words = command ? composeWords(file.y, command, (t) => t) : null;
    for (const [p, t] of buildReads(file.y, svc, dir, read, words, expand)) out.set(p, t);
    const entry = file.y.get(svc, "entrypoint");
    const mounted = mountedScriptPath(
      file.y,
      svc,
      dir,
      entry ? composeWords(file.y, entry, (t) => t) : null,
      words,
      expand,
    );
    const text = mounted ? read(mounted.path) : null;
    if (mounted && text !== null) out.set(mounted.path, text);
  }
  return out;
}

function readService(
  y: YamlReader,
  name: string,
  svc: Node,
  env: ReadonlyMap<string, string>,
  scope: ExtendsScope,
): Facets {
  const expand = (t: string) => interpolate(t, env);
  const options: Word[] = [];
  const opt = (option: string, value: string, line: number) => {
    options.push(optionWord(option, line), { ...optionWord(value, line), resolved: expand(value) });
  };
  const scalar = (key: string, option: string) => {
    const v = y.str(y.get(svc, key));
    if (v !== null) opt(option, v, y.keyLine(svc, key));
  };
  const containerName = y.str(y.get(svc, "container_name"));
  opt("--name", containerName ?? name, y.keyLine(svc, "container_name"));
  scalar("ipc", "--ipc");
  scalar("shm_size", "--shm-size");
  scalar("restart", "--restart");
  scalar("network_mode", "--network");
  scalar("runtime", "--runtime");
  scalar("user", "--user");
  scalar("gpus", "--gpus");
  if (y.str(y.get(svc, "privileged")) === "true")
    options.push(optionWord("--privileged", y.keyLine(svc, "privileged")));
  if (y.str(y.get(svc, "tty")) === "true") options.push(optionWord("--tty", y.keyLine(svc, "tty")));
  if (y.str(y.get(svc, "stdin_open")) === "true")
    options.push(optionWord("--interactive", y.keyLine(svc, "stdin_open")));
  for (const d of y.items(y.get(svc, "devices"))) {
    const v = y.str(d) ?? y.str(y.get(d, "source"));
    if (v) opt("--device", v, y.line(d));
  }
  const ulimits = y.get(svc, "ulimits");
  for (const key of y.keys(ulimits)) {
    const u = y.get(ulimits, key)!;
    const single = y.str(u);
    const soft = single ?? y.str(y.get(u, "soft")) ?? "";
    const hard = single ?? y.str(y.get(u, "hard")) ?? soft;
    opt("--ulimit", `${key}=${soft}:${hard}`, y.keyLine(ulimits, key));
  }
  for (const v of y.items(y.get(svc, "volumes"))) {
    const short = y.str(v);
    if (short !== null) opt("--volume", short, y.line(v));
    else {
      const source = y.str(y.get(v, "source")) ?? "";
      const target = y.str(y.get(v, "target")) ?? "";
      const ro = y.str(y.get(v, "read_only")) === "true" ? ":ro" : "";
      if (y.str(y.get(v, "type")) === "tmpfs") opt("--tmpfs", target, y.line(v));
      else opt("--volume", `${source}:${target}${ro}`, y.line(v));
    }
  }
  for (const f of [y.get(svc, "env_file")].flatMap((n) => (y.str(n) !== null ? [n] : y.items(n)))) {
    const path = y.str(f) ?? y.str(y.get(f, "path"));
    if (path) opt("--env-file", path, y.line(f));
  }
  const environment = y.get(svc, "environment");
  for (const item of y.items(environment)) {
    const t = y.str(item);
    if (t) opt("--env", t, y.line(item));
  }
  for (const key of y.keys(environment)) {
    const v = y.str(y.get(environment, key));
    opt("--env", v === null ? key : `${key}=${v}`, y.keyLine(environment, key));
  }
  for (const p of y.items(y.get(svc, "ports"))) {
    const t = y.str(p) ?? `${y.str(y.get(p, "published")) ?? ""}:${y.str(y.get(p, "target")) ?? ""}`;
    opt("--publish", t, y.line(p));
  }
  const gpuAsk = gpuRequest(y, svc);
  if (gpuAsk && !y.get(svc, "gpus")) opt("--gpus", gpuAsk.value, gpuAsk.line);
  const health = y.get(svc, "healthcheck");
  const test = y.get(health, "test");
  if (test)
    opt(
      "--health-cmd",
      y
        .items(test)
        .map((t) => y.str(t) ?? "")
        .join(" ") ||
        (y.str(test) ?? ""),
      y.line(test),
    );
  const start = y.str(y.get(health, "start_period"));
  if (start !== null) opt("--health-start-period", start, y.keyLine(health, "start_period"));

  const image = y.get(svc, "image");
  const entrypoint = y.get(svc, "entrypoint");
  const command = y.get(svc, "command");
  // neither image nor build: a fragment (an override file) that another compose file completes; its name is no
  // image, so `vllm-qwen3:` alone never reads as the vLLM image
  const build = y.get(svc, "build");
  const fragment = !image && !build;
  // built with the engine's image as a build argument (`args: [BASE_IMAGE=vllm/vllm-openai:latest]`, a Dockerfile's
  // `FROM ${BASE_IMAGE}`): that image is what runs
  const commandWords = command ? composeWords(y, command, expand) : null;
  const buildEnv = scope.buildEnv ?? env;
  // (llama.cpp's own image built from its tree: the stage is the image's tag, `full` runs its tools.sh)
  const stage = !image && build ? llamaCppStage(y, svc, scope.dir, expand) : null;
  const built =
    scope.builds && !stage
      ? builtImage(y, svc, scope.dir, scope.builds, commandWords, (t) => interpolate(t, buildEnv))
      : null;
  // built on an engine's image that the Dockerfile leaves running (no ENTRYPOINT of its own): that image runs,
  // whatever the `image:` tag names the result
  const builtBase =
    built?.image.base && !built.image.entrypoint && imageEngine(built.image.base.text) ? built.image.base : null;
  const base = builtBase
    ? { value: builtBase.text, line: y.keyLine(svc, "build") }
    : image
      ? null
      : baseImageArg(y, build);
  const imageText =
    base?.value ??
    y.str(image) ??
    (stage ? `ghcr.io/ggml-org/llama.cpp:${stage}` : null) ??
    (fragment ? "(no image: completed by another compose file)" : `${name} (built from this directory)`);
  const imageLine = base?.line ?? (image ? y.line(image) : y.line(svc));
  // an image that is only an unset variable keeps its name: `${STACK_LLAMACPP_IMAGE}` is the only clue to the engine
  const imageResolved = expand(imageText);
  const unsetOnly = imageResolved === "" && /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(imageText.trim());
  const entryWords = entrypoint ? composeWords(y, entrypoint, expand) : null;
  const mount = scope.builds ? mountedScriptPath(y, svc, scope.dir, entryWords, commandWords, expand) : null;
  const mountText = mount ? scope.builds?.get(mount.path) : undefined;
  const restartV = y.str(y.get(svc, "restart"));
  return {
    options,
    image: { ...optionWord(imageText, imageLine), ...(unsetOnly ? {} : { resolved: imageResolved }) },
    fragment,
    entrypoint: entryWords,
    command: commandWords,
    restart: restartV === null ? null : { value: restartV, line: y.keyLine(svc, "restart") },
    gpus: y.get(svc, "gpus") ? { value: y.str(y.get(svc, "gpus")) ?? "", line: y.keyLine(svc, "gpus") } : gpuAsk,
    startPeriod: start === null ? null : { value: start, line: y.keyLine(health, "start_period") },
    containerName,
    tag: y.str(image),
    line: y.line(svc),
    build: built,
    mounted: mount && mountText !== undefined ? { ...mount, text: mountText } : null,
  };
}

/**
 * `sh -c SCRIPT` (entrypoint and command together): compose fills the script before the container's shell reads
 * it. Its `${VAR:+--flag $VAR}` decides which words the shell gets (gone when VAR is unset), and its `$$` is the
 * shell's `$`; a `${VAR:-default}` or `$VAR` is left for the shell reader, which fills it the same way and keeps
 * that the value came from a variable (a `--api-key ${KEY:-dev-key}` is no literal key).
 */
function interpolatedScript(argv: Word[], env: ReadonlyMap<string, string>): Word[] {
  const shell = /^(?:\S*\/)?(?:ba|da|a)?sh$/.test(argv[0]?.text ?? "");
  const c = shell ? argv.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w.text)) : -1;
  const script = c > 0 ? argv[c + 1] : undefined;
  if (!script || !script.text.includes("$")) return argv;
  const text = script.text.replace(/\$\$|\$\{[A-Za-z_][A-Za-z0-9_]*:?\+(?:[^{}]|\{[^{}]*\})*\}/g, (m) =>
    m === "$$" ? "$" : interpolate(m, env),
  );
  return argv.map((w) => (w === script ? { ...w, text } : w));
}

/** A build argument whose value is an engine's image (`BASE_IMAGE=lmsysorg/sglang:latest`), with its line. */
function baseImageArg(y: YamlReader, build: Node | null | undefined): { value: string; line: number } | null {
  const args = y.get(build, "args");
  const pairs = [
    ...y.items(args).map((n) => ({ text: y.str(n) ?? "", line: y.line(n) })),
    ...y.keys(args).map((k) => ({ text: `${k}=${y.str(y.get(args, k)) ?? ""}`, line: y.keyLine(args, k) })),
  ];
  for (const p of pairs) {
    const m = /^[A-Za-z_]*IMAGE[A-Za-z_]*=(\S*(?:vllm|sglang|llama[._-]?cpp)\S*)$/i.exec(p.text.trim());
    if (m && /[/:]/.test(m[1]!)) return { value: m[1]!, line: p.line };
  }
  return null;
}

/** deploy.resources.reservations.devices with a gpu capability (or the nvidia runtime): the GPUs asked for. */
function gpuRequest(y: YamlReader, svc: Node): { value: string; line: number } | null {
  const devices = y.get(y.get(y.get(y.get(svc, "deploy"), "resources"), "reservations"), "devices");
  for (const d of y.items(devices)) {
    const caps = y.items(y.get(d, "capabilities")).map((c) => y.str(c));
    const driver = y.str(y.get(d, "driver"));
    if (!caps.includes("gpu") && driver !== "nvidia") continue;
    const ids = y.items(y.get(d, "device_ids")).map((i) => y.str(i));
    const count = y.str(y.get(d, "count"));
    return { value: ids.length ? `"device=${ids.join(",")}"` : (count ?? "all"), line: y.line(d) };
  }
  const rt = y.str(y.get(svc, "runtime"));
  return rt === "nvidia" ? { value: "all", line: y.keyLine(svc, "runtime") } : null;
}

/** compose durations: 1h30m, 90s, 5m, 500ms. */
export function seconds(text: string): number {
  let total = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)(ms|us|ns|h|m|s)/g)) {
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3600 : m[2] === "m" ? n * 60 : m[2] === "s" ? n : 0;
  }
  return /^\d+$/.test(text.trim()) ? Number(text) : total;
}

/**
 * entrypoint/command words. A string is split by compose's shell-words splitter, which drops a backslash even
 * inside double quotes: a folded `bash -c "... A=1 \ python3 ..."` (each line ending in a backslash) reaches
 * bash as plain spaces, so `\ ` is read as a space here, not as an escaped space.
 */
function composeWords(y: YamlReader, node: unknown, expand: (t: string) => string | undefined): Word[] {
  const words = y.words(node, expand, { hashIsWord: true });
  if (isSeq(y.deref(node))) return words;
  const unescape = (t: string) => t.replace(/\\([ \t])/g, "$1");
  return words.flatMap((w) => {
    // compose fills variables before it splits the string: `${EXTRA---enforce-eager --reasoning-parser qwen3}` is
    // three words when EXTRA is unset
    const pieces = /^\$\{[^{}]*\}$/.test(w.text) ? (w.resolved?.trim().split(/\s+/) ?? []) : [];
    if (pieces.length > 1) return pieces.map((p) => ({ ...w, text: p, resolved: p, dynamic: false }));
    return [{ ...w, text: unescape(w.text), ...(w.resolved !== undefined ? { resolved: unescape(w.resolved) } : {}) }];
  });
}
