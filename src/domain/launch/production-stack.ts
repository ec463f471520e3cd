// A Flux HelmRelease of vLLM's production-stack chart (`vllm-stack`, fetched at apply time), read as the engine
// containers the chart renders: one per `servingEngineSpec.modelSpec` entry, running `vllm serve MODEL --host 0.0.0.0
// --port 8000` with the flags its template (helm/templates/deployment-vllm-multi.yaml) writes from the entry's keys,
// each on the line of the key that writes it, and `vllmConfig.extraArgs` item by item. Pure.
import type { Node } from "yaml";
import type { PodmanRun, Word, WorkloadFacts } from "./model.js";
import { readPodmanRun } from "./podman.js";
import { probeBudget } from "./probe-budget.js";
import { optionWord, YamlReader, yamlCommand } from "./yaml-node.js";

type KubeContainer = { name: string; run: PodmanRun };

/** vllmConfig keys the template turns into a flag and its value (`maxModelLen: 32768` -> `--max-model-len 32768`). */
const VALUED: ReadonlyArray<[string, string]> = [
  ["maxModelLen", "--max-model-len"],
  ["dtype", "--dtype"],
  ["tensorParallelSize", "--tensor-parallel-size"],
  ["maxNumSeqs", "--max-num-seqs"],
  ["gpuMemoryUtilization", "--gpu_memory_utilization"],
  ["maxLoras", "--max_loras"],
];

export function productionStackContainers(
  y: YamlReader,
  release: string,
  doc: unknown,
  lines: readonly string[],
): KubeContainer[] {
  if (y.str(y.get(doc, "kind")) !== "HelmRelease") return [];
  const engine = y.get(y.get(y.get(doc, "spec"), "values"), "servingEngineSpec");
  const specs = y.items(y.get(engine, "modelSpec"));
  if (!specs.length || y.str(y.get(engine, "enableEngine")) === "false") return [];
  const probes = (["startupProbe", "livenessProbe"] as const).flatMap((kind) => {
    const p = y.get(engine, kind);
    return p ? [{ kind, budgetSeconds: probeBudget(y, p), line: y.keyLine(engine, kind) }] : [];
  });
  return specs
    .filter((s) => y.str(y.get(s, "enabled")) !== "false" && y.str(y.get(s, "modelURL")))
    .map((s) => container(y, `HelmRelease/${release}/${y.str(y.get(s, "name")) ?? "model"}/vllm`, s, lines, probes));
}

function container(
  y: YamlReader,
  full: string,
  s: Node,
  lines: readonly string[],
  probes: WorkloadFacts["probes"],
): KubeContainer {
  const at = y.line(s);
  const word = (text: string, line: number) => optionWord(text, line);
  const key = (k: string) => y.keyLine(s, k);
  const words: Word[] = [word("--name", at), word("vllm", at)];
  const limits = y.get(y.get(s, "resources"), "limits");
  const gpuKey = y.keys(limits).find((k) => /(^|\/)gpu$/.test(k));
  if (gpuKey) words.push(word("--gpus", y.keyLine(limits, gpuKey)), word(y.str(y.get(limits, gpuKey)) ?? "", at));
  words.push(word(`${y.str(y.get(s, "repository")) ?? ""}:${y.str(y.get(s, "tag")) ?? "latest"}`, key("repository")));
  words.push(word("vllm", at), word("serve", at), word(y.str(y.get(s, "modelURL"))!, key("modelURL")));
  words.push(word("--host", at), word("0.0.0.0", at), word("--port", at), word("8000", at));
  if (y.str(y.get(s, "enableLoRA")) === "true") words.push(word("--enable-lora", key("enableLoRA")));
  if (y.str(y.get(s, "enableTool")) === "true") words.push(word("--enable-auto-tool-choice", key("enableTool")));
  const parser = y.str(y.get(s, "toolCallParser"));
  if (parser) words.push(word("--tool-call-parser", key("toolCallParser")), word(parser, key("toolCallParser")));
  const config = y.get(s, "vllmConfig");
  if (config) {
    const cfg = (k: string) => y.keyLine(config, k);
    const flag = (k: string) => y.str(y.get(config, k));
    if (y.keys(config).includes("enableChunkedPrefill"))
      words.push(
        word(
          flag("enableChunkedPrefill") === "true" ? "--enable-chunked-prefill" : "--no-enable-chunked-prefill",
          cfg("enableChunkedPrefill"),
        ),
      );
    const prefix = y.keys(config).includes("enablePrefixCaching") ? cfg("enablePrefixCaching") : key("vllmConfig");
    words.push(
      word(flag("enablePrefixCaching") === "true" ? "--enable-prefix-caching" : "--no-enable-prefix-caching", prefix),
    );
    for (const [k, name] of VALUED)
      if (y.keys(config).includes(k)) words.push(word(name, cfg(k)), word(flag(k) ?? "", cfg(k)));
    for (const item of y.items(y.get(config, "extraArgs")))
      if (y.str(item) !== null) words.push(word(y.str(item)!, y.line(item)));
  }
  const template = y.str(y.get(s, "chatTemplate"));
  if (template)
    words.push(word("--chat-template", key("chatTemplate")), word(`/templates/${template}`, key("chatTemplate")));
  const to = Math.max(...words.map((w) => w.line));
  const run = readPodmanRun(yamlCommand(words, at, to, lines), words, "kubernetes");
  run.workload = { form: "kubernetes", name: full, restart: null, gpus: null, shm: null, probes };
  return { name: full, run };
}
