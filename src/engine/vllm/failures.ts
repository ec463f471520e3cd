// Failure signatures of a vLLM boot (seed 000 §2, reference §1.4), ranked: a root cause outranks the
// RPC echo of it, which outranks a generic exception, which outranks the wrappers around all of them.

export type FailureKind = "oom" | "dynamo-shape" | "kv-insufficient" | "engine-init-failed";

export interface FailureMatch {
  kind: FailureKind;
  /** 5 root cause … 1 wrapper. */
  priority: number;
}

const ROOT_CAUSES: ReadonlyArray<readonly [RegExp, FailureKind]> = [
  [/(?:CUDA|HIP) out of memory\. Tried to allocate|OutOfMemoryError|out of memory occurred when warming up sampler|Failed to load model - not enough GPU memory|(?:CUDA|HIP) error: out of memory/, "oom"],
  [/Constraints violated \(/, "dynamo-shape"],
  [/To serve at least one request with the models?'?s max seq len|No available memory for the cache blocks|is larger than the maximum number of tokens that can be stored in KV cache/, "kv-insufficient"],
  [/No (?:CUDA|HIP) GPUs are available/, "engine-init-failed"],
];

/** Lines that only say "see above": never the decisive line while anything else is known. */
export const WRAPPER = /Engine core initialization failed|EngineDeadError|WorkerProc initialization failed|Frontend process failed during engine core initialization/;
const ENGINE_FATAL = /EngineCore failed to start|EngineCore encountered a fatal error|EngineCore hit an exception|WorkerProc hit an exception|Application startup failed/;
const WORKER_FAILED = /Worker failed with error/;
const EXCEPTION = /^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)(?::|$)/;

export function failureOf(msg: string, level: string | null): FailureMatch | null {
  if (level === "DEBUG" || level === "INFO" || level === "WARNING") return null;
  for (const [re, kind] of ROOT_CAUSES) if (re.test(msg)) return { kind, priority: 5 };
  if (WORKER_FAILED.test(msg)) return { kind: "engine-init-failed", priority: 4 };
  if (WRAPPER.test(msg)) return { kind: "engine-init-failed", priority: 1 };
  if (ENGINE_FATAL.test(msg)) return { kind: "engine-init-failed", priority: 2 };
  if (EXCEPTION.test(msg.trim())) return { kind: "engine-init-failed", priority: 3 };
  return null;
}

/** A root cause is taken at its first sighting (later ones are echoes); a generic line at its last. */
export function outranks(next: Pick<FailureMatch, "priority">, held: Pick<FailureMatch, "priority"> | null): boolean {
  if (!held) return true;
  if (next.priority !== held.priority) return next.priority > held.priority;
  return next.priority < 5;
}
