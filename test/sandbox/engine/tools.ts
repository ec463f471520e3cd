// The double's tool calling, as vLLM's chat serving decides it (vllm-project/vllm,
// vllm/entrypoints/openai/chat_completion/serving.py at 5e918640, and the reference's §2.2-2.3): which
// tool_choice needs which flag, what the "model" calls, and the finish_reason each choice ends with.
// FAKE_BREAK names the one contract to break (see BREAKS), so each verify case can be shown to fail. Pure.

export const BREAKS = [
  "tool-required", // required answers in text (guided decoding ignored)
  "tool-named", // a named tool_choice calls the first tool instead of the named one
  "tool-none", // tool_choice none still parses the model's calls out
  "tool-parallel", // two calls in the output come back as one (the parser stops at the first)
  "tool-stream", // streamed argument deltas repeat the first piece: they do not join into JSON
  "tool-roundtrip", // the chat template refuses a `tool` message
  "think-stream", // streamed replies skip the reasoning parser: thinking inline in content
  "think-off", // enable_thinking false: the answer comes twice (reasoning and content)
  "wedged", // /health 200, completions never answer
  "metrics-off", // no /metrics route (vLLM run with its metrics endpoint unreachable): 404
  "structured", // response_format ignored: prose instead of JSON
] as const;
export type Break = (typeof BREAKS)[number];

export function breaksOf(env: Record<string, string | undefined>): Set<Break> {
  const names = (env.FAKE_BREAK ?? "").split(",").filter(Boolean);
  for (const n of names)
    if (!(BREAKS as readonly string[]).includes(n)) throw new Error(`FAKE_BREAK: unknown contract ${n}`);
  return new Set(names as Break[]);
}

export interface Schema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}
type Prop = Schema;
export interface Tool {
  type: string;
  function: { name: string; parameters?: { properties?: Record<string, Prop>; required?: string[] } };
}
export type ToolChoice = "auto" | "required" | "none" | { type: "function"; function: { name: string } };
export interface Call {
  name: string;
  arguments: string;
}

/** vLLM's 400s for a tool_choice the flags do not allow (serving.py: "auto" needs both flags; PR #30613:
 *  required and a named function need the parser). null when allowed. */
export function refusalOf(choice: ToolChoice, auto: boolean, parser: string | null): string | null {
  if (choice === "auto" && !(auto && parser))
    return '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
  if (choice === "required" && !parser) return 'tool_choice="required" requires --tool-call-parser to be set';
  if (typeof choice === "object" && !parser)
    return `tool_choice=function "${choice.function.name}" requires --tool-call-parser to be set`;
  return null;
}

/** Values for an object schema: enums take their first value, strings the city asked about (or k-value). */
export function valuesFor(schema: Schema | undefined, city: string | null): Record<string, unknown> {
  const props = schema?.properties ?? {};
  const out: Record<string, unknown> = {};
  let cityUsed = false;
  for (const k of schema?.required ?? Object.keys(props)) {
    const p = props[k] ?? {};
    if (p.enum?.length) out[k] = p.enum[0];
    else if (p.type === "number" || p.type === "integer") out[k] = 1;
    else if (p.type === "boolean") out[k] = true;
    else if (p.type === "array") out[k] = [];
    else if (p.type === "object") out[k] = valuesFor(p, null);
    else if (city && !cityUsed) {
      out[k] = city;
      cityUsed = true;
    } else out[k] = `${k}-value`;
  }
  return out;
}

/** The fake model: one call per city the prompt asks about ("in Paris and in Tokyo": two), else one. */
export function modelCalls(prompt: string, tool: Tool): Call[] {
  const cities = [...prompt.matchAll(/\bin ([A-Z][a-z]+)/g)].map((m) => m[1]!);
  return (cities.length ? cities : [null]).map((c) => ({
    name: tool.function.name,
    arguments: JSON.stringify(valuesFor(tool.function.parameters, c)),
  }));
}

export interface ToolOutcome {
  calls: Call[];
  /** text the model wrote instead of calls (tool_choice none, a broken required) */
  text: string | null;
  finish: "tool_calls" | "stop";
}

/** What comes back for tools with this choice: auto and required end "tool_calls", a named function
 *  "stop" (serving.py: "tool_calls" for auto or required, "stop" for named tool calls). */
export function toolOutcome(prompt: string, tools: Tool[], choice: ToolChoice, breaks: Set<Break>): ToolOutcome {
  const calls = modelCalls(prompt, tools[0]!);
  const asText = `<tool_call>\n${JSON.stringify({ name: calls[0]!.name, arguments: JSON.parse(calls[0]!.arguments) })}\n</tool_call>`;
  if (choice === "none")
    return breaks.has("tool-none")
      ? { calls, text: null, finish: "tool_calls" }
      : { calls: [], text: `I would call ${tools[0]!.function.name} to answer that.`, finish: "stop" };
  if (choice === "required")
    return breaks.has("tool-required")
      ? { calls: [], text: asText, finish: "stop" }
      : { calls, text: null, finish: "tool_calls" };
  if (typeof choice === "object") {
    const named = tools.find((t) => t.function.name === choice.function.name) ?? tools[0]!;
    const tool = breaks.has("tool-named") ? tools[0]! : named;
    return { calls: modelCalls(prompt, tool).slice(0, 1), text: null, finish: "stop" };
  }
  return { calls: breaks.has("tool-parallel") ? calls.slice(0, 1) : calls, text: null, finish: "tool_calls" };
}

/** The answer after a `tool` message: text built from the tool's result, no call. */
export function afterToolResult(result: string): string {
  return `According to the tool: ${result.slice(0, 120)}`;
}
