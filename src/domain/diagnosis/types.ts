// The words a diagnosis is made of: its classes and the facts its advice is written from.
// Their own module so advice.ts and the helpers it calls (auth-mismatch, peer-advice) share them without a circle.
import type { OomGap } from "./oom.js";
import type { Attempt } from "./unit-events.js";
import type { EngineKind } from "../engine/kind.js";

export type DiagnosisClass =
  | "ready"
  | "booting"
  | "oom"
  | "kv-insufficient"
  | "dynamo-shape"
  | "engine-init-failed"
  | "clean-exit"
  | "container-removed"
  | "crash-loop"
  | "tools-not-enabled"
  | "unknown"
  | "auth-mismatch"
  // failures under the engine (below-engine.ts)
  | "engine-args"
  | "runtime-error"
  | "unit-error"
  | "script-error";

export interface AdviceFacts {
  decisive: string | null;
  oom: OomGap | null;
  phase: string | null;
  attempts: Attempt[];
  /** failed exits systemd logged in the window (a window may start after the unit's `Started` line) */
  failedExits?: number;
  startLimit: boolean;
  unit: string | null;
  kv: {
    neededGiB: number | null;
    availableGiB: number | null;
    estimatedMaxLen: number | null;
    maxModelLen?: number | null;
    capacityTokens?: number | null;
  } | null;
  dynamo: { symbol: string | null; constant: number | null } | null;
  /** the engine that wrote the log, when a line said (null: vLLM's flags are named) */
  engine?: EngineKind | null;
}
