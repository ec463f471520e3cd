// A Flux HelmRelease of bjw-s's app-template chart (the homelab form: the chart is fetched from its OCI repository
// at apply time, the containers are written in the release's `values:`), read as the containers the chart renders:
// `values.controllers.<controller>.containers.<container>` with `image.repository`/`tag`, `command` and `args` (a
// string is one argument: the chart's container template quotes it whole), `env` as a map or a list,
// `resources` GPUs, and each probe written `custom: true` with its `spec` as kubelet gets it. A probe the chart
// fills from its own defaults is not judged here: its values are the chart's, not the file's. Pure.
import type { Node } from "yaml";
import type { PodmanRun, Word, WorkloadFacts } from "./model.js";
import { readPodmanRun } from "./podman.js";
import { probeBudget } from "./probe-budget.js";
import { optionWord, YamlReader, yamlCommand, yamlWord } from "./yaml-node.js";

/** (kube.ts's KubeContainer: the same shape, not imported, so kube.ts can call this file) */
type KubeContainer = { name: string; run: PodmanRun };

/** The containers of an app-template HelmRelease (none for another kind or chart shape). */
export function appTemplateContainers(
  y: YamlReader,
  release: string,
  doc: unknown,
  lines: readonly string[],
): KubeContainer[] {
  if (y.str(y.get(doc, "kind")) !== "HelmRelease") return [];
  const controllers = y.get(y.get(y.get(doc, "spec"), "values"), "controllers");
  const out: KubeContainer[] = [];
  for (const ctl of y.keys(controllers)) {
    const containers = y.get(y.get(controllers, ctl), "containers");
    for (const name of y.keys(containers)) {
      const c = y.get(containers, name);
      // the chart's shape: an image map; a release of another chart has no such key
      // a controller other than the release's own or the chart's default `main` is part of the name: two
      // controllers' `app` containers are two parts, each compared with its own earlier version
      const own = ctl === release || ctl === "main";
      if (c && y.get(y.get(c, "image"), "repository"))
        out.push(container(y, `HelmRelease/${release}/${own ? "" : `${ctl}/`}${name}`, c, lines));
    }
  }
  return out;
}

function container(y: YamlReader, full: string, c: Node, lines: readonly string[]): KubeContainer {
  const at = y.line(c);
  const words: Word[] = [optionWord("--name", at), optionWord(full.split("/").at(-1)!, at)];
  const env = y.get(c, "env");
  for (const k of y.keys(env)) {
    const v = y.get(env, k);
    const value = y.str(v) ?? y.str(y.get(v, "value"));
    const line = y.keyLine(env, k);
    words.push(optionWord("--env", line), optionWord(value === null ? k : `${k}=${value}`, line));
  }
  for (const e of y.items(env)) {
    const n = y.str(y.get(e, "name"));
    const v = y.str(y.get(e, "value"));
    if (n) words.push(optionWord("--env", y.line(e)), optionWord(v === null ? n : `${n}=${v}`, y.line(e)));
  }
  const limits = y.get(y.get(c, "resources"), "limits");
  const gpuKey = y.keys(limits).find((k) => /(^|\/)gpu$/.test(k));
  const gpus = gpuKey ? { value: y.str(y.get(limits, gpuKey)) ?? "", line: y.keyLine(limits, gpuKey) } : null;
  if (gpus) words.push(optionWord("--gpus", gpus.line), optionWord(gpus.value, gpus.line));
  const image = y.get(c, "image");
  const repo = y.str(y.get(image, "repository")) ?? "";
  const tag = y.str(y.get(image, "tag"));
  words.push(optionWord(tag ? `${repo}:${tag}` : repo, y.line(image)));
  const literal = (t: string) => t;
  for (const key of ["command", "args"]) {
    const node = y.get(c, key);
    const one = y.str(node);
    if (one !== null) words.push(yamlWord(one, y.textLine(node), literal));
    else words.push(...y.words(node, literal));
  }
  const to = Math.max(...words.map((w) => w.line));
  const run = readPodmanRun(yamlCommand(words, at, to, lines), words, "kubernetes");
  run.workload = { form: "kubernetes", name: full, restart: null, gpus, shm: null, probes: customProbes(y, c) };
  return { name: full, run };
}

const PROBES = { startup: "startupProbe", readiness: "readinessProbe", liveness: "livenessProbe" } as const;

/**
 * Probes written whole (`enabled: true`, `custom: true`, `spec:`): kubelet's budget, at the probe's key. A startup
 * probe enabled without `custom` is still rendered (the common library's `_probes.tpl` fills it from the chart's
 * defaults and the spec): its budget is the chart version's, not judged, but liveness waits for it all the same.
 */
function customProbes(y: YamlReader, c: Node): WorkloadFacts["probes"] {
  const probes = y.get(c, "probes");
  const out: WorkloadFacts["probes"] = [];
  for (const [key, kind] of Object.entries(PROBES)) {
    const p = y.get(probes, key);
    if (y.str(y.get(p, "enabled")) !== "true") continue;
    const line = y.keyLine(probes, key);
    if (y.str(y.get(p, "custom")) === "true") out.push({ kind, budgetSeconds: probeBudget(y, y.get(p, "spec")), line });
    else if (kind === "startupProbe") out.push({ kind, budgetSeconds: Number.POSITIVE_INFINITY, line });
  }
  return out;
}
