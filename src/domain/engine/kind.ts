// Which engine: its own file because engine.ts imports the engines' parsers, and they (peers.ts) need the kind.

/** The inference engines deploy-gate knows: the launch model reads their argv, diagnosis their logs. */
export type EngineKind = "vllm" | "sglang" | "llama.cpp";
