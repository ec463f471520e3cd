// The OpenAI-compatible surface as vLLM serves it (reference §2): pure request -> response.
import { createHash } from "node:crypto";
import { askedWords, longAnswer } from "./decode.js";
import type { Plan } from "./plan.js";
import {
  afterToolResult,
  refusalOf,
  toolOutcome,
  valuesFor,
  type Break,
  type Schema,
  type Tool,
  type ToolChoice,
} from "./tools.js";

/** timed: a streamed body's pieces with the ms after the request each is written at (main.ts plays them) */
export interface Reply {
  status: number;
  body: string;
  type?: string;
  timed?: { atMs: number; text: string }[];
}
export interface Counters {
  prompt: number;
  generation: number;
  requests: number;
  drafts: number;
  draftTokens: number;
  accepted: number;
  acceptedPerPos: number[];
}

const json = (status: number, o: unknown): Reply => ({ status, body: JSON.stringify(o), type: "application/json" });
const error = (status: number, type: string, message: string, param: string | null = null): Reply =>
  json(status, { error: { message, type, param, code: status } });
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const hex = (s: string, n: number) => createHash("sha256").update(s).digest("hex").slice(0, n);

export const ACCEPT_RATES = [0.76, 0.55, 0.33, 0.2, 0.1];

export function models(plan: Plan, created: number): Reply {
  return json(200, {
    object: "list",
    data: [
      {
        id: plan.servedName,
        object: "model",
        created,
        owned_by: "vllm",
        root: plan.model,
        parent: null,
        max_model_len: plan.maxModelLen,
        permission: [
          {
            id: `modelperm-${hex(plan.servedName, 32)}`,
            object: "model_permission",
            created,
            allow_create_engine: false,
            allow_sampling: true,
            allow_logprobs: true,
            allow_search_indices: false,
            allow_view: true,
            allow_fine_tuning: false,
            organization: "*",
            group: null,
            is_blocking: false,
          },
        ],
      },
    ],
  });
}

interface ChatRequest {
  model?: string;
  messages?: { role: string; content?: unknown }[];
  tools?: Tool[];
  tool_choice?: ToolChoice;
  chat_template_kwargs?: { enable_thinking?: boolean };
  response_format?: { type?: string; json_schema?: { schema?: Schema } };
  temperature?: number;
  max_tokens?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

export function chat(plan: Plan, bodyText: string, counters: Counters, now: number): Reply {
  let req: ChatRequest;
  try {
    req = JSON.parse(bodyText) as ChatRequest;
  } catch {
    return error(400, "BadRequestError", "Expecting value: line 1 column 1 (char 0)");
  }
  if (req.model !== undefined && req.model !== plan.servedName)
    return error(404, "NotFoundError", `The model \`${req.model}\` does not exist.`, "model");
  if (!Array.isArray(req.messages) || req.messages.length === 0)
    return error(400, "BadRequestError", "messages: Field required");
  if (Array.isArray(req.tools) && req.tools.length === 0)
    return error(
      400,
      "BadRequestError",
      "tools must not be an empty array. Either provide at least one tool or omit the field entirely.",
    );
  const hasTools = Array.isArray(req.tools) && req.tools.length > 0;
  const choice: ToolChoice = req.tool_choice ?? (hasTools ? "auto" : "none");
  const refused = hasTools ? refusalOf(choice, plan.autoToolChoice, plan.toolCallParser) : null;
  if (refused) return error(400, "BadRequestError", refused);
  // a chat template that cannot render a tool result raises; vLLM answers its message as a 400
  if (plan.breaks.has("tool-roundtrip") && req.messages.some((m) => m.role === "tool"))
    return error(400, "BadRequestError", "Conversation roles must alternate user/assistant/user/assistant/...");
  const last = req.messages[req.messages.length - 1]!;
  const prompt = typeof last.content === "string" ? last.content : JSON.stringify(last.content ?? "");
  // Temperature 0 (or absent seedless randomness) is deterministic: output depends on the prompt only.
  const salt = (req.temperature ?? 1) > 0 ? String(Math.random()) : "";
  const id = `chatcmpl-${hex(prompt + salt + now, 32)}`;
  const promptTokens = req.messages.reduce((n, m) => n + words(typeof m.content === "string" ? m.content : "") + 4, 0);
  // vLLM refuses a request longer than its context before it runs (one word is one token here)
  const asked = promptTokens + (req.max_tokens ?? 16);
  if (asked > plan.maxModelLen) {
    return error(
      400,
      "BadRequestError",
      `This model's maximum context length is ${plan.maxModelLen} tokens. However, you requested ${asked} tokens (${promptTokens} in the messages, ${req.max_tokens ?? 16} in the completion). Please reduce the length of the messages or completion.`,
    );
  }
  const message: Record<string, unknown> = {
    role: "assistant",
    content: null,
    refusal: null,
    annotations: null,
    audio: null,
    function_call: null,
    tool_calls: [],
    reasoning: null,
  };
  let finish = "stop";
  let completionTokens: number;
  const outcome = hasTools && last.role !== "tool" ? toolOutcome(prompt, req.tools!, choice, plan.breaks) : null;
  if (outcome && outcome.calls.length) {
    message.tool_calls = outcome.calls.map((c, i) => ({
      id: `chatcmpl-tool-${hex(id + c.name + i, 32)}`,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
    finish = outcome.finish;
    completionTokens = 12 * outcome.calls.length;
  } else {
    const thinking = `The user wrote ${words(prompt)} words. Reply ${hex(prompt + salt, 6)} fits.`;
    const asked = askedWords(prompt);
    // Asked for a long answer (verify.decode), write one: 10% over what was asked, so max_tokens stops it.
    // response_format json_schema: vLLM's structured outputs constrain the answer to the schema
    const schema = req.response_format?.type === "json_schema" ? req.response_format.json_schema?.schema : undefined;
    const structured = schema && !plan.breaks.has("structured") ? JSON.stringify(valuesFor(schema, "Paris")) : null;
    const answer =
      structured ??
      outcome?.text ??
      (last.role === "tool"
        ? afterToolResult(prompt)
        : asked
          ? longAnswer(prompt + salt, Math.ceil(asked * 1.1), plan.decode.loop)
          : `Answer ${hex(prompt + salt, 8)}: ${prompt.slice(0, 60)}`);
    // enable_thinking false: the template opens and closes an empty think block, the model only answers
    const thinks = req.chat_template_kwargs?.enable_thinking !== false;
    if (!thinks) {
      message.content = answer;
      if (plan.breaks.has("think-off")) message.reasoning = answer;
    } else if (plan.reasoningParser) {
      message.reasoning = thinking;
      message.content = answer;
    } else message.content = `<think>\n${thinking}\n</think>\n\n${answer}`;
    completionTokens = (thinks ? words(thinking) : 0) + words(answer);
  }
  if (req.max_tokens !== undefined && completionTokens > req.max_tokens) {
    completionTokens = req.max_tokens;
    finish = finish === "stop" ? "length" : finish;
    cut(message, completionTokens);
  }
  counters.requests++;
  counters.prompt += promptTokens;
  counters.generation += completionTokens;
  if (plan.speculative) {
    const n = plan.speculative.numSpeculativeTokens;
    const drafts = Math.ceil(completionTokens / 2);
    counters.drafts += drafts;
    counters.draftTokens += drafts * n;
    for (let i = 0; i < n; i++) {
      const acc = Math.round(drafts * (ACCEPT_RATES[i] ?? 0.05));
      counters.acceptedPerPos[i] = (counters.acceptedPerPos[i] ?? 0) + acc;
      counters.accepted += acc;
    }
  }
  const full = {
    id,
    object: "chat.completion",
    created: Math.floor(now / 1000),
    model: plan.servedName,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish, stop_reason: null, token_ids: null }],
    service_tier: null,
    system_fingerprint: null,
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens + completionTokens,
      completion_tokens: completionTokens,
      prompt_tokens_details: null,
    },
    prompt_logprobs: null,
    prompt_token_ids: null,
    kv_transfer_params: null,
  };
  if (!req.stream) return json(200, full);
  const ttftMs = 20 + (1000 * promptTokens) / plan.decode.prefillTokPerS;
  return sse(full, message, finish, {
    ttftMs,
    msPerToken: 1000 / plan.decode.decodeTokPerS,
    perChunk: plan.speculative ? plan.speculative.numSpeculativeTokens + 1 : 1,
    usage: req.stream_options?.include_usage === true,
    breaks: plan.breaks,
  });
}

/** Keeps the first n words of reasoning then content (one word is one token here). */
function cut(message: Record<string, unknown>, n: number): void {
  let left = n;
  for (const k of ["reasoning", "content"] as const) {
    const v = message[k];
    if (typeof v !== "string") continue;
    const ws = v.split(/(\s+)/).filter((x) => x !== "");
    const kept: string[] = [];
    for (const w of ws) {
      if (/^\s+$/.test(w)) {
        if (left > 0) kept.push(w);
        continue;
      }
      if (left <= 0) break;
      kept.push(w);
      left--;
    }
    message[k] = kept.join("").trimEnd();
  }
}

interface Timing {
  ttftMs: number;
  msPerToken: number;
  perChunk: number;
  usage: boolean;
  breaks: ReadonlySet<Break>;
}

/** `stream: true`: the same answer as chat.completion.chunk deltas (first token after the TTFT, then one
 *  token per msPerToken; with speculative decoding several tokens per chunk, as vLLM sends accepted
 *  drafts), the usage chunk when asked for, then `data: [DONE]`. */
function sse(
  full: { id: string; created: number; model: string; usage: unknown },
  message: Record<string, unknown>,
  finish: string,
  t: Timing,
): Reply {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    `data: ${JSON.stringify({ id: full.id, object: "chat.completion.chunk", created: full.created, model: full.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
  const pieces = (text: string) => {
    const ws = text.match(/\S+\s*|\s+/g) ?? [];
    const out: string[] = [];
    for (let i = 0; i < ws.length; i += t.perChunk) out.push(ws.slice(i, i + t.perChunk).join(""));
    return out;
  };
  const timed: { atMs: number; text: string }[] = [{ atMs: 0, text: chunk({ role: "assistant", content: "" }) }];
  let tokens = 0;
  const emit = (delta: Record<string, unknown>, n: number) => {
    timed.push({ atMs: Math.round(t.ttftMs + tokens * t.msPerToken), text: chunk(delta) });
    tokens += n;
  };
  const count = (p: string) => p.split(/\s+/).filter(Boolean).length;
  const reasoning = typeof message.reasoning === "string" ? message.reasoning : "";
  const content = typeof message.content === "string" ? message.content : "";
  if (t.breaks.has("think-stream") && reasoning) {
    // the stream path without the reasoning parser: the model's raw text, think tags and all
    for (const p of pieces(`<think>\n${reasoning}\n</think>\n\n${content}`)) emit({ content: p }, count(p));
  } else {
    for (const p of pieces(reasoning)) emit({ reasoning: p }, count(p));
    for (const p of pieces(content)) emit({ content: p }, count(p));
  }
  // A tool parser's stream (serving.py's parser path, e.g. hermes): the call's id, type and name first,
  // then its arguments in pieces, each delta keyed by the call's index.
  const calls = message.tool_calls as { id: string; type: string; function: { name: string; arguments: string } }[];
  calls.forEach((c, index) => {
    emit({ tool_calls: [{ index, id: c.id, type: c.type, function: { name: c.function.name } }] }, 1);
    const args = c.function.arguments.match(/.{1,8}/gs) ?? [];
    if (t.breaks.has("tool-stream") && args.length) args.splice(1, 0, args[0]!);
    for (const a of args) emit({ tool_calls: [{ index, function: { arguments: a } }] }, 1);
  });
  const end = Math.round(t.ttftMs + tokens * t.msPerToken);
  timed.push({ atMs: end, text: chunk({}, finish) });
  if (t.usage)
    timed.push({
      atMs: end,
      text: `data: ${JSON.stringify({ id: full.id, object: "chat.completion.chunk", created: full.created, model: full.model, choices: [], usage: full.usage })}\n\n`,
    });
  timed.push({ atMs: end, text: "data: [DONE]\n\n" });
  return { status: 200, body: timed.map((p) => p.text).join(""), type: "text/event-stream; charset=utf-8", timed };
}

/** A prometheus_client histogram as vLLM's /metrics prints it (every observation in the lowest bucket). */
function histogram(name: string, help: string, labels: string, n: number): string[] {
  const le = ["0.001", "0.01", "0.1", "1.0", "10.0", "+Inf"];
  return [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} histogram`,
    // prometheus_client appends le after the metric's own labels
    ...le.map((b) => `${name}_bucket{${labels},le="${b}"} ${n}.0`),
    `${name}_count{${labels}} ${n}.0`,
    `${name}_sum{${labels}} ${(n * 0.001).toFixed(3)}`,
  ];
}

export function metrics(plan: Plan, c: Counters): Reply {
  const l = `model_name="${plan.servedName}",engine="0"`;
  const lines = [
    "# HELP vllm:num_requests_running Number of requests in model execution batches.",
    "# TYPE vllm:num_requests_running gauge",
    `vllm:num_requests_running{${l}} 0.0`,
    "# HELP vllm:kv_cache_usage_perc KV-cache usage. 1 means 100 percent usage.",
    "# TYPE vllm:kv_cache_usage_perc gauge",
    `vllm:kv_cache_usage_perc{${l}} 0.0`,
    "# TYPE vllm:prompt_tokens_total counter",
    `vllm:prompt_tokens_total{${l}} ${c.prompt}.0`,
    "# TYPE vllm:generation_tokens_total counter",
    `vllm:generation_tokens_total{${l}} ${c.generation}.0`,
    "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.",
    "# TYPE vllm:num_requests_waiting gauge",
    `vllm:num_requests_waiting{${l}} 0.0`,
    ...histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", l, c.requests),
    ...histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", l, c.generation),
    ...histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", l, c.requests),
    "# TYPE vllm:cache_config_info gauge",
    // vLLM's Info gauge: every CacheConfig field as a label (text), kv_cache_size_tokens in the newest
    `vllm:cache_config_info{block_size="16",cache_dtype="auto",enable_prefix_caching="True",engine="0",gpu_memory_utilization="${plan.util}",kv_cache_size_tokens="${plan.kvTokens}",num_cpu_blocks="None",num_gpu_blocks="${plan.kvTokens / 16}"} 1.0`,
  ];
  if (plan.speculative) {
    lines.push(
      "# TYPE vllm:spec_decode_num_drafts counter",
      `vllm:spec_decode_num_drafts_total{${l}} ${c.drafts}.0`,
      "# TYPE vllm:spec_decode_num_draft_tokens counter",
      `vllm:spec_decode_num_draft_tokens_total{${l}} ${c.draftTokens}.0`,
      "# TYPE vllm:spec_decode_num_accepted_tokens counter",
      `vllm:spec_decode_num_accepted_tokens_total{${l}} ${c.accepted}.0`,
      "# TYPE vllm:spec_decode_num_accepted_tokens_per_pos counter",
      ...Array.from(
        { length: plan.speculative.numSpeculativeTokens },
        (_, i) =>
          `vllm:spec_decode_num_accepted_tokens_per_pos_total{${l},position="${i}"} ${c.acceptedPerPos[i] ?? 0}.0`,
      ),
    );
  }
  return { status: 200, body: `${lines.join("\n")}\n`, type: "text/plain; version=0.0.4; charset=utf-8" };
}

/** vLLM's periodic SpecDecoding log line (§1.5) for the counters so far. */
export function specDecodeLine(plan: Plan, c: Counters): string | null {
  if (!plan.speculative || c.drafts === 0) return null;
  const per = Array.from({ length: plan.speculative.numSpeculativeTokens }, (_, i) =>
    ((c.acceptedPerPos[i] ?? 0) / c.drafts).toFixed(3),
  );
  return `SpecDecoding metrics: Mean acceptance length: ${(1 + c.accepted / c.drafts).toFixed(2)}, Accepted throughput: ${(c.accepted / 10).toFixed(2)} tokens/s, Drafted throughput: ${(c.draftTokens / 10).toFixed(2)} tokens/s, Accepted: ${c.accepted} tokens, Drafted: ${c.draftTokens} tokens, Per-position acceptance rate: ${per.join(", ")}, Avg Draft acceptance rate: ${((100 * c.accepted) / c.draftTokens).toFixed(1)}%`;
}
