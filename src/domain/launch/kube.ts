// A Kubernetes manifest (Deployment, StatefulSet, LeaderWorkerSet, Job, Pod, KServe...) read as one container run
// per container: `command` + `args` the argv after the image (`$(VAR)` filled from the container's env),
// resources.limits GPUs, a /dev/shm emptyDir, probes. Every `containers:` list in every document is read, so
// any workload kind that nests a pod template is covered. Pure.
import { isMap, isSeq, type Node } from "yaml";
import type { PodmanRun, Word, WorkloadFacts } from "./model.js";
import { readPodmanRun } from "./podman.js";
import { optionWord, readYaml, YamlReader, yamlCommand } from "./yaml-node.js";
import { appendedArgs, predictorModel } from "./kserve.js";
import { configMapsOf, withMountedScript, type ConfigMaps } from "./configmap-script.js";
import { appTemplateContainers } from "./app-template.js";
import { productionStackContainers } from "./production-stack.js";
import { probeBudget } from "./probe-budget.js";

export interface KubeContainer {
  /** Kind/name/container */
  name: string;
  /** the run the container stands for; its workload holds GPUs, the /dev/shm mount, probes, restartPolicy */
  run: PodmanRun;
}

export function looksLikeKube(text: string): boolean {
  return /^apiVersion\s*:/m.test(text) && /^kind\s*:/m.test(text);
}

/** Every container of every document; null when the text is no Kubernetes manifest. */
export function parseKube(text: string): KubeContainer[] | null {
  if (!looksLikeKube(text)) return null;
  const src = readYaml(text);
  if (!src) return null;
  const lines = text.split("\n");
  const out: KubeContainer[] = [];
  const readers = src.docs.map((doc) => new YamlReader(src, doc));
  const models = readers.flatMap((y) => {
    const m = predictorModel(y, y.doc.contents);
    return m ? [{ y, m }] : [];
  });
  const runtimes = new Set<string>();
  const maps = configMapsOf(readers);
  for (const y of readers) {
    const doc = y.doc;
    const kind = y.str(y.get(doc.contents, "kind")) ?? "Object";
    const name = y.str(y.get(y.get(doc.contents, "metadata"), "name")) ?? "unnamed";
    // an InferenceService's args join the kserve-container of the runtime it names
    const joined = /ServingRuntime$/.test(kind) && models.some((x) => x.m.runtime === name);
    if (joined) runtimes.add(name);
    // each InferenceService naming the runtime is a predictor pod of its own: the runtime's container, its args
    const users = models.filter((x) => x.m.runtime === name);
    walk(y, doc.contents, (pod, containers) => {
      for (const c of containers) {
        if (!joined || y.str(y.get(c, "name")) !== "kserve-container") {
          out.push(readContainer(y, `${kind}/${name}`, pod, c, lines, undefined, undefined, maps));
          continue;
        }
        for (const u of users) {
          const extra = (expand: (t: string) => string | undefined) => appendedArgs(u, expand);
          const as = users.length > 1 ? `InferenceService/${u.m.name}` : `${kind}/${name}`;
          out.push(readContainer(y, as, pod, c, lines, extra, undefined, maps));
        }
      }
    });
    const api = y.str(y.get(doc.contents, "apiVersion")) ?? "";
    if (kind === "Model" && api.startsWith("kubeai.org/")) out.push(...kubeaiModel(y, name, doc.contents, lines));
    if (kind === "HelmRelease")
      out.push(
        ...appTemplateContainers(y, name, doc.contents, lines),
        ...productionStackContainers(y, name, doc.contents, lines),
      );
  }
  // one whose runtime is elsewhere (a cluster's, another file's) is read as that container on its own
  for (const { y, m } of models) {
    if (m.runtime && runtimes.has(m.runtime)) continue;
    // a runtime's own name (`llama-32-1b-instruct`) need not name its engine; the model format it serves does
    const format = m.format && m.runtime ? ` for ${m.format}` : "";
    const image = `KServe runtime ${m.runtime ?? m.format ?? "unknown"}${format}`;
    out.push(readContainer(y, `InferenceService/${m.name}`, m.predictor, m.node, lines, undefined, image));
  }
  return out;
}

/**
 * Calls `visit` for every map that holds a `containers:` list (a pod spec, a KServe predictor...; its sidecar init
 * containers first) or a single
 * container map under `runner:` (OME-like serving runtimes: the map beside it holds the volumes).
 */
function walk(y: YamlReader, node: unknown, visit: (pod: Node, containers: Node[]) => void, depth = 0): void {
  const n = y.deref(node);
  if (!n || depth > 24) return;
  if (isMap(n)) {
    // (an init container with `restartPolicy: Always` is a sidecar: it runs for the pod's life, an engine too)
    const init = y.get(n, "initContainers");
    const sidecars = isSeq(init) ? y.items(init).filter((c) => y.str(y.get(c, "restartPolicy")) === "Always") : [];
    const main = isSeq(y.get(n, "containers")) ? y.items(y.get(n, "containers")) : [];
    if (main.length || sidecars.length) visit(n, [...sidecars, ...main]);
    const runner = y.deref(y.get(n, "runner"));
    if (isMap(runner) && (y.get(runner, "image") || y.get(runner, "command"))) visit(n, [runner]);
    for (const k of y.keys(n)) if (k !== "containers" && k !== "runner") walk(y, y.get(n, k), visit, depth + 1);
  } else if (isSeq(n)) for (const i of y.items(n)) walk(y, i, visit, depth + 1);
}

/** `$(VAR)` from the container's env, `$$(VAR)` a literal; undefined when a variable is unknown. */
export function kubeExpand(text: string, env: ReadonlyMap<string, string>): string | undefined {
  let unknown = false;
  const out = text.replace(/\$\$\(|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string | undefined) => {
    if (all === "$$(") return "$(";
    const v = env.get(name!);
    if (v === undefined) unknown = true;
    return v ?? all;
  });
  return unknown ? undefined : out;
}

const CONDITIONAL =
  /\{\{-?\s*(?:if|with|range)\b[^}]*\}\}(?:(?!\{\{-?\s*(?:if|with|range|end)\b)[\s\S])*?\{\{-?\s*end\s*-?\}\}/g;

/**
 * Go-template conditionals in a container's command (`{{ if .Spec.X }} --flag v{{ end }}`, KServe's
 * LLMInferenceServiceConfig, which its controller fills): what they add depends on values only the controller
 * knows, so it is no flag the launch always has. Blanked innermost first, line breaks kept (lines stay true).
 */
export function blankTemplateConditionals(text: string): string {
  let out = text;
  for (let prev = ""; prev !== out;) {
    prev = out;
    out = out.replace(CONDITIONAL, (m) => m.replace(/[^\n]/g, " "));
  }
  return out;
}

function readContainer(
  y: YamlReader,
  workload: string,
  pod: Node,
  c: Node,
  lines: readonly string[],
  appended?: (expand: (t: string) => string | undefined) => Word[],
  imageFor?: string,
  maps?: ConfigMaps,
): KubeContainer {
  const cname = y.str(y.get(c, "name")) ?? (imageFor ? "kserve-container" : "container");
  const env = new Map<string, string>();
  const words: Word[] = [optionWord("--name", y.line(c)), optionWord(cname, y.line(c))];
  for (const e of y.items(y.get(c, "env"))) {
    const n = y.str(y.get(e, "name"));
    const v = y.str(y.get(e, "value"));
    if (!n) continue;
    if (v !== null) env.set(n, kubeExpand(v, env) ?? v);
    words.push(optionWord("--env", y.line(e)), optionWord(v === null ? n : `${n}=${v}`, y.line(e)));
  }
  const limits = y.get(y.get(c, "resources"), "limits");
  const requests = y.get(y.get(c, "resources"), "requests");
  let gpus: WorkloadFacts["gpus"] = null;
  for (const res of [limits, requests]) {
    const key = y.keys(res).find((k) => /(^|\/)gpu$/.test(k));
    if (key && !gpus) gpus = { value: y.str(y.get(res, key)) ?? "", line: y.keyLine(res, key) };
  }
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  if (y.str(y.get(c, "tty")) === "true") words.push(optionWord("--tty", y.keyLine(c, "tty")));
  const shm = shmMount(y, pod, c);
  for (const m of y.items(y.get(c, "volumeMounts"))) {
    const path = y.str(y.get(m, "mountPath")) ?? "";
    const vol = y.str(y.get(m, "name")) ?? "";
    const ro = y.str(y.get(m, "readOnly")) === "true" ? ":ro" : "";
    words.push(optionWord("--volume", y.line(m)), optionWord(`${vol}:${path}${ro}`, y.line(m)));
  }
  const image = y.get(c, "image");
  const imageText = y.str(image) ?? imageFor ?? `${cname} (the serving runtime's image)`;
  const expand = (t: string) => kubeExpand(t, env);
  const entrypoint = y.words(y.get(c, "command"), expand);
  // `command:` replaces the image's ENTRYPOINT (`args:` its CMD): a command of flags alone has the kubelet exec a
  // program named `--model`, which starts nothing (the entrypoint override says so to the engine reader)
  if (entrypoint[0] && /^-/.test(entrypoint[0].text))
    words.push(optionWord("--entrypoint", entrypoint[0].line), optionWord(entrypoint[0].text, entrypoint[0].line));
  words.push(optionWord(imageText, image ? y.line(image) : y.line(c)));
  const argv = [...entrypoint, ...y.words(y.get(c, "args"), expand)];
  words.push(...(maps ? withMountedScript(y, pod, c, argv, maps) : argv));
  if (appended) words.push(...appended(expand));
  // a `$(VAR)` k8s fills before the shell sees it: the word text carries the value (a `sh -c` string is read filled)
  for (const w of words) if (w.resolved !== undefined && w.text.includes("$(")) w.text = w.resolved;
  for (const w of words) if (w.text.includes("{{")) w.text = blankTemplateConditionals(w.text);
  const from = y.line(c);
  const to = Math.max(...words.map((w) => w.line));
  const command = yamlCommand(words, from, to, lines);
  // (a sidecar's own `restartPolicy: Always`: the kubelet restarts it whatever the pod's policy says)
  const rp = y.get(c, "restartPolicy") ?? y.get(pod, "restartPolicy");
  const run = readPodmanRun(command, words, "kubernetes");
  const name = `${workload}/${cname}`;
  run.workload = {
    form: "kubernetes",
    name,
    restart: rp ? { value: y.str(rp) ?? "", line: y.line(rp) } : null,
    gpus,
    shm,
    probes: probes(y, c),
  };
  return { name, run };
}

/**
 * A KubeAI Model names its engine and writes only the args: KubeAI's controller (internal/modelcontroller/
 * engine_vllm.go) builds the pod, running `python3 -m vllm.entrypoints.openai.api_server` with the args after its
 * own --model/--served-model-name, a memory-backed /dev/shm emptyDir and a startupProbe of 5400 x 2 s. Read as
 * that container, the facts the controller adds placed on the `engine:` line. Other engines are not judged here.
 */
function kubeaiModel(y: YamlReader, name: string, model: unknown, lines: readonly string[]): KubeContainer[] {
  const spec = y.get(model, "spec");
  const engine = y.get(spec, "engine");
  if (!engine || (y.str(engine) ?? "").toUpperCase() !== "VLLM") return [];
  const at = y.line(engine);
  const words: Word[] = [optionWord("--name", at), optionWord(name, at)];
  const env = y.get(spec, "env");
  for (const k of y.keys(env))
    words.push(
      optionWord("--env", y.keyLine(env, k)),
      optionWord(`${k}=${y.str(y.get(env, k)) ?? ""}`, y.keyLine(env, k)),
    );
  // resourceProfile NAME:COUNT: COUNT GPUs of that profile
  const profile = y.get(spec, "resourceProfile");
  const count = /:(\d+)$/.exec(y.str(profile) ?? "")?.[1];
  const gpus = count ? { value: count, line: y.line(profile) } : null;
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  words.push(optionWord(`${name} (the vLLM image KubeAI's controller picks)`, at));
  for (const t of ["python3", "-m", "vllm.entrypoints.openai.api_server"]) words.push(optionWord(t, at));
  words.push(...y.words(y.get(spec, "args"), (t) => t));
  const to = Math.max(...words.map((w) => w.line));
  const command = yamlCommand(words, at, to, lines);
  const run = readPodmanRun(command, words, "kubernetes");
  const full = `Model/${name}/${name}`;
  run.workload = {
    form: "kubernetes",
    name: full,
    restart: null,
    gpus,
    shm: { line: at, sizeLimit: null },
    probes: [
      { kind: "startupProbe", budgetSeconds: 5400 * 2, line: at },
      { kind: "readinessProbe", budgetSeconds: 3 * 10, line: at },
      { kind: "livenessProbe", budgetSeconds: 3 * 30, line: at },
    ],
  };
  return [{ name: full, run }];
}

function shmMount(y: YamlReader, pod: Node, c: Node): WorkloadFacts["shm"] {
  const mount = y.items(y.get(c, "volumeMounts")).find((m) => y.str(y.get(m, "mountPath")) === "/dev/shm");
  if (!mount) return null;
  const vol = y.items(y.get(pod, "volumes")).find((v) => y.str(y.get(v, "name")) === y.str(y.get(mount, "name")));
  return { line: y.line(mount), sizeLimit: y.str(y.get(y.get(vol, "emptyDir"), "sizeLimit")) };
}

/** Each probe's budget: initialDelaySeconds + failureThreshold x periodSeconds (kubelet defaults 0, 3, 10). */
function probes(y: YamlReader, c: Node): WorkloadFacts["probes"] {
  const out: WorkloadFacts["probes"] = [];
  for (const kind of ["startupProbe", "readinessProbe", "livenessProbe"] as const) {
    const p = y.get(c, kind);
    if (!p) continue;
    out.push({ kind, budgetSeconds: probeBudget(y, p), line: y.keyLine(c, kind) });
  }
  return out;
}
