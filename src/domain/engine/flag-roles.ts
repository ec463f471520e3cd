// What losing an engine flag costs, said per engine and per flag, and a contract example in each engine's
// own flags: a dropped --trust-remote-code is a model that no longer loads, not a client feature lost. Pure.
import type { EngineKind } from "./kind.js";

const TEMPLATE = "prompts are rendered with another chat template (tool calls and thinking change with it)";
const CONTEXT =
  "the context length falls back to the model's default (long prompts refused, or more memory than planned)";
const NAME = "clients asking for the model by this model name get 404 (it serves under its path instead)";

/** Shared by vLLM and SGLang, which spell these flags alike. */
const OPENAI_SERVER: Record<string, string> = {
  "--reasoning-parser": "reasoning arrives mixed into content instead of its own reasoning field",
  "--enable-auto-tool-choice": 'requests with tool_choice "auto" are refused (HTTP 400)',
  "--tool-call-parser": "tool calls arrive as plain text, not as tool_calls",
  "--chat-template": TEMPLATE,
  "--default-chat-template-kwargs": "the template's defaults (e.g. enable_thinking) change for every request",
  "--served-model-name": NAME,
  "--max-model-len": CONTEXT,
  "--kv-cache-memory-bytes": "the KV cache is sized another way (fewer concurrent tokens, or out of memory)",
  "--speculative-config": "speculative decoding turns off (slower decode)",
  "--trust-remote-code": "a model that ships custom code no longer loads (the engine refuses to run it)",
  "--port": "clients and the readiness probe find nothing on the old port",
};

const LOSS: Record<EngineKind, Record<string, string>> = {
  vllm: OPENAI_SERVER,
  sglang: { ...OPENAI_SERVER, "--context-length": CONTEXT },
  "llama.cpp": {
    "--port": OPENAI_SERVER["--port"]!,
    "-c": CONTEXT,
    "--ctx-size": CONTEXT,
    "--jinja": `llama-server stops using the model's Jinja template: ${TEMPLATE}`,
    "-a": NAME,
    "--alias": NAME,
    "--chat-template": TEMPLATE,
    "--chat-template-file": TEMPLATE,
    "--reasoning-format": "reasoning arrives mixed into content instead of reasoning_content",
    "--reasoning-budget": "the thinking budget returns to the default (unlimited, or thinking off)",
  },
};

/** What clients (or the boot) lose without this flag; null for a flag whose loss is a tuning change. */
export function lossOf(engine: EngineKind, flag: string): string | null {
  return LOSS[engine][flag] ?? null;
}

const EXAMPLES: Record<EngineKind, string> = {
  vllm: '["--reasoning-parser qwen3", "--enable-auto-tool-choice", "--tool-call-parser hermes", "--served-model-name chat"]',
  sglang:
    '["--reasoning-parser qwen3", "--tool-call-parser qwen25", "--context-length 32768", "--served-model-name chat"]',
  "llama.cpp": '["--jinja", "--alias chat", "-c 32768", "--reasoning-format deepseek"]',
};

/** contracts.flags as that engine's users write them. */
export function contractExample(engine: EngineKind): string {
  return EXAMPLES[engine];
}

/**
 * Which of verify's client checks an argv turns on, in each engine's own flags: vLLM parses reasoning with
 * --reasoning-parser and tools with --enable-auto-tool-choice; SGLang tools with --tool-call-parser alone;
 * llama-server reasoning with --reasoning-format (not none) and tools with --jinja.
 */
export function clientChecks(
  engine: EngineKind,
  flags: readonly { name: string; value: string | null }[],
): { thinking: boolean; tools: boolean } {
  const has = (n: string) => flags.some((f) => f.name === n);
  const value = (n: string) => flags.find((f) => f.name === n)?.value ?? null;
  if (engine === "llama.cpp")
    return { thinking: has("--reasoning-format") && value("--reasoning-format") !== "none", tools: has("--jinja") };
  return {
    thinking: has("--reasoning-parser"),
    tools: engine === "sglang" ? has("--tool-call-parser") : has("--enable-auto-tool-choice"),
  };
}
