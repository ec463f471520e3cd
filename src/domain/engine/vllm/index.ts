import type { Engine } from "../engine.js";
import { checkThinking, checkTools } from "./contracts.js";
import { bootPhase, isReadyMarker } from "./phase.js";
import { readPlan } from "../plan.js";

export const vllm: Engine = { name: "vllm", bootPhase, isReadyMarker, readPlan, checkThinking, checkTools };
