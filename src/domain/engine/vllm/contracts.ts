// Client contracts of an OpenAI-compatible chat completion (reference §2, llama.cpp §3): the verdict on
// one HTTP result. The thinking contract needs a reasoning parser; the tool contract needs auto tool choice.

export interface HttpResult {
  status: number;
  body: string;
}

export type ContractGap = "tools-not-enabled" | "reasoning-parser-missing";

export interface ContractVerdict {
  ok: boolean;
  /** A server flag missing, as opposed to a model or transport fault. */
  gap: ContractGap | null;
  reason: string;
}

interface ChatMessage {
  content?: unknown;
  reasoning?: unknown;
  reasoning_content?: unknown;
  tool_calls?: unknown;
}

/** vLLM ≥0.10.1 / <0.10.1 / via a gateway, and llama.cpp without `--jinja`. */
const TOOL_CONFIG_GAPS = [
  /"?auto"? tool choice requires --enable-auto-tool-choice and --tool-call-parser/,
  /tool_choice=.*? requires --tool-call-parser to be set/,
  /tools param requires --jinja flag/,
  /Unsupported param: tool_choice/,
];

export function isToolConfigGap(body: string): boolean {
  return TOOL_CONFIG_GAPS.some((re) => re.test(body.replace(/\\"/g, '"')));
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function errorMessage(body: string): string {
  const json = parseJson(body) as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const fromJson = typeof json?.error === "object" ? json.error.message : (json?.error ?? json?.message);
  return typeof fromJson === "string" ? fromJson : body.slice(0, 300);
}

function firstChoice(body: string): { message: ChatMessage; finishReason: unknown } | null {
  const json = parseJson(body) as { choices?: Array<{ message?: ChatMessage; finish_reason?: unknown }> } | undefined;
  const choice = json?.choices?.[0];
  if (!choice?.message) return null;
  return { message: choice.message, finishReason: choice.finish_reason };
}

function httpFailure(result: HttpResult): ContractVerdict | null {
  if (result.status >= 200 && result.status < 300) return null;
  const msg = errorMessage(result.body);
  if (isToolConfigGap(result.body)) {
    return {
      ok: false,
      gap: "tools-not-enabled",
      reason: `HTTP ${result.status}: ${msg} (a server config gap, not a model fault)`,
    };
  }
  return { ok: false, gap: null, reason: `HTTP ${result.status}: ${msg}` };
}

/** Pass = `reasoning ?? reasoning_content` non-empty and no `</think>` left in content. */
export function checkThinking(result: HttpResult): ContractVerdict {
  const failed = httpFailure(result);
  if (failed) return failed;
  const choice = firstChoice(result.body);
  if (!choice) return { ok: false, gap: null, reason: "the response has no choices[0].message" };
  const { message } = choice;
  const reasoning = message.reasoning ?? message.reasoning_content;
  const content = typeof message.content === "string" ? message.content : "";
  if (content.includes("</think>")) {
    return {
      ok: false,
      gap: "reasoning-parser-missing",
      reason: "thinking arrived inline in content (a </think> tag): the server runs no --reasoning-parser",
    };
  }
  if (typeof reasoning !== "string" || reasoning.trim() === "") {
    return {
      ok: false,
      gap: "reasoning-parser-missing",
      reason: "reasoning (and reasoning_content) is empty or null: start the server with --reasoning-parser",
    };
  }
  return { ok: true, gap: null, reason: `reasoning present (${reasoning.length} chars), content free of </think>` };
}

/** Pass = tool_calls with JSON-parseable arguments and finish_reason "tool_calls". */
export function checkTools(result: HttpResult): ContractVerdict {
  const failed = httpFailure(result);
  if (failed) return failed;
  const choice = firstChoice(result.body);
  if (!choice) return { ok: false, gap: null, reason: "the response has no choices[0].message" };
  const calls = Array.isArray(choice.message.tool_calls)
    ? (choice.message.tool_calls as Array<{ function?: { name?: unknown; arguments?: unknown } }>)
    : [];
  if (calls.length === 0) {
    return {
      ok: false,
      gap: null,
      reason: `no tool_calls (finish_reason ${JSON.stringify(choice.finishReason)}): the tool parser extracted nothing`,
    };
  }
  for (const call of calls) {
    const args = call.function?.arguments;
    if (typeof args !== "string" || parseJson(args) === undefined) {
      return {
        ok: false,
        gap: null,
        reason: `tool call ${String(call.function?.name)} has arguments that are not JSON: ${String(args).slice(0, 120)}`,
      };
    }
  }
  if (choice.finishReason !== "tool_calls") {
    return {
      ok: false,
      gap: null,
      reason: `finish_reason is ${JSON.stringify(choice.finishReason)}, expected "tool_calls"`,
    };
  }
  return {
    ok: true,
    gap: null,
    reason: `${calls.length} tool call(s) with JSON arguments, finish_reason "tool_calls"`,
  };
}
