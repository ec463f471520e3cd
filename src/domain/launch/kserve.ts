// KServe's InferenceService (v1beta1): `spec.predictor.model` names a ServingRuntime and may carry args. KServe
// appends those args to the runtime's kserve-container (pkg/controller/v1beta1/inferenceservice/components/
// predictor.go merges the model spec into the runtime's container), so a runtime in the same text gets them; an
// InferenceService alone is read as that container, its engine named by the runtime or the model format. Pure.
import { isMap, type Node } from "yaml";
import type { Word } from "./model.js";
import type { YamlReader } from "./yaml-node.js";

export interface PredictorModel {
  /** the InferenceService's name */
  name: string;
  /** the ServingRuntime it names (spec.predictor.model.runtime), or null */
  runtime: string | null;
  /** spec.predictor.model.modelFormat.name */
  format: string | null;
  /** the map holding args/command/resources, read like a container */
  node: Node;
  /** the predictor map (its volumes, as a pod's) */
  predictor: Node;
}

/** The predictor.model of an InferenceService document that writes args or a command; null otherwise. */
export function predictorModel(y: YamlReader, doc: unknown): PredictorModel | null {
  if (y.str(y.get(doc, "kind")) !== "InferenceService") return null;
  const predictor = y.get(y.get(doc, "spec"), "predictor");
  const model = y.get(predictor, "model");
  if (!predictor || !model || !isMap(model)) return null;
  const runtime = y.str(y.get(model, "runtime"));
  const format = y.str(y.get(y.get(model, "modelFormat"), "name"));
  // one that writes no args still starts the engine its runtime names (`runtime: vllm`): that engine, flags unknown
  const names = /vllm|sglang|llama/i.test(`${runtime ?? ""} ${format ?? ""}`);
  if (!y.get(model, "args") && !y.get(model, "command") && !names) return null;
  return { name: y.str(y.get(y.get(doc, "metadata"), "name")) ?? "unnamed", runtime, format, node: model, predictor };
}

/** The args an InferenceService adds to its runtime's kserve-container. */
export function appendedArgs(
  model: { y: YamlReader; m: PredictorModel },
  expand: (t: string) => string | undefined,
): Word[] {
  return model.y.words(model.y.get(model.m.node, "args"), expand);
}
