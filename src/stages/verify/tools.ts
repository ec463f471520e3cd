// verify.tools: the tool-calling matrix (tool_choice auto, required, named, none; two calls in one turn;
// the same streamed and joined from its deltas; a tool result answered in text). The auto case first: a
// refusal or a config-gap 400 there is the whole finding; else each case's verdict, with its cause.
import { checkTools as verdictOf } from "../../domain/engine/vllm/contracts.js";
import type { HttpResult } from "../../ports/http/client.js";
import type { Route } from "../../ports/http/route.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { noAnswer, refusal } from "./models.js";
import {
  judgeCase,
  TOOL_CASES,
  toolCaseBody,
  type CaseVerdict,
  type Cause,
  type ToolAnswers,
  type ToolCase,
} from "./tool-cases.js";

export const CHECK = "verify.tools";

export const toolsRequest = (model: string) => toolCaseBody("auto", model);

/** Every case at once (the engine batches them); the streamed one through the route's timed stream. */
export async function askToolCases(route: Route, model: string, timeoutMs: number): Promise<ToolAnswers> {
  const send = (c: ToolCase) => route.send("POST", "/v1/chat/completions", toolCaseBody(c, model), timeoutMs);
  const [auto, required, named, none, parallel, roundtrip, stream] = await Promise.all([
    send("auto"),
    send("required"),
    send("named"),
    send("none"),
    send("parallel"),
    send("roundtrip"),
    route.stream("/v1/chat/completions", toolCaseBody("stream", model), timeoutMs),
  ]);
  return { auto, required, named, none, parallel, roundtrip, stream };
}

interface ToolLive {
  autoToolChoice: boolean;
  toolCallParser: string | null;
  model?: string;
  sentKey?: boolean;
  /** the engine, from /v1/models' owned_by */
  engine?: "vllm" | "sglang" | "llama.cpp" | null;
}

const FIXES: Record<Cause, (live: ToolLive, cases: string) => string> = {
  flags: (l) =>
    l.engine === "sglang"
      ? "a server config gap, not a model fault: SGLang without --tool-call-parser hands the model's calls back as text; add --tool-call-parser <the model family's parser> (python -m sglang.launch_server --help lists them) to the serve script and redeploy"
      : `a server config gap, not a model fault: ${l.toolCallParser ? `--tool-call-parser ${l.toolCallParser} is set` : "add --tool-call-parser <parser> (Qwen3: qwen3_xml)"}${l.autoToolChoice ? "" : " and --enable-auto-tool-choice"} to the serve script and redeploy`,
  server: (l, c) =>
    `the server's tool handling broke ${c}: check --tool-call-parser ${l.toolCallParser ?? "<parser>"} matches the model family's tool format, and the engine version (required and named calls run through guided decoding; a parser that misreads the deltas breaks streaming)`,
  model: (l, c) =>
    `the model did not do what ${c} asked with the tools as sent: check it supports parallel calls and tool results (its chat template), or that --tool-call-parser ${l.toolCallParser ?? "<parser>"} is the one for this model (a parser that stops at the first call returns one)`,
  template: (_l, c) =>
    `the chat template refused ${c}: serve a template that renders assistant tool_calls and tool messages (--chat-template, or the model's own tool-use template)`,
  transport: (_l, c) => `${c} got no answer: see the evidence; rerun deploy-gate verify`,
};

/** verify.tools from every case's answer. */
export function checkToolMatrix(a: ToolAnswers, url: string, via: string, given: ToolLive): Finding {
  // SGLang's choices carry matched_stop (protocol.py's ChatCompletionResponseChoice); vLLM's and llama-server's do not
  const live = { ...given, engine: given.engine ?? (/"matched_stop":/.test(a.auto.body) ? "sglang" : null) };
  const auto = checkToolsResult(a.auto, url, via, live);
  const verdicts = Object.fromEntries(TOOL_CASES.map((c) => [c, judgeCase(c, a)])) as Record<ToolCase, CaseVerdict>;
  // calls left as text on SGLang with no --tool-call-parser known: its missing flag, not a parser fault
  for (const c of TOOL_CASES)
    if (verdicts[c].asText && live.engine === "sglang" && !live.toolCallParser)
      verdicts[c] = { ...verdicts[c], cause: "flags" };
  // llama-server reads tool_choice as a string (tools/server/server-common.cpp, ggml-org/llama.cpp 006639c3:
  // json_value(body, "tool_choice", std::string("auto"))): a named function is served as "auto", nothing to check
  if (live.engine === "llama.cpp" && !verdicts.named.ok && verdicts.named.cause === "server")
    verdicts.named = {
      ok: true,
      cause: null,
      unsupported: true,
      reason: `not checked: llama-server serves a named tool_choice as "auto" (${verdicts.named.reason.replace(/ \(a server that.*$/, "")})`,
    };
  const lines = TOOL_CASES.map((c) => `${c}: ${verdicts[c].reason}`);
  const failed = TOOL_CASES.filter((c) => !verdicts[c].ok);
  const data = { ...auto.data, cases: verdicts, failed };
  // a refused or unanswered auto request, or the flags gap, is what to fix first: the rest follow from it
  const autoGap = (auto.data as { gap?: unknown } | undefined)?.gap === "tools-not-enabled";
  if (auto.status === "fail" && (a.auto.status === null || a.auto.status >= 300 || autoGap))
    return { ...auto, evidence: [...(auto.evidence ?? []), ...lines], data };
  const evidence = [`POST ${url}/v1/chat/completions x ${TOOL_CASES.length} tool cases via ${via}`, ...lines];
  const unsupported = TOOL_CASES.filter((c) => verdicts[c].unsupported);
  if (!failed.length)
    return pass(
      "verify.tools",
      unsupported.length
        ? `tool calls work in every case the engine serves: ${TOOL_CASES.filter((c) => !verdicts[c].unsupported).join(", ")} (${unsupported.join(", ")}: not supported by this engine)`
        : `tool calls work in every case: ${TOOL_CASES.join(", ")}`,
      { evidence, data },
    );
  const causes = [...new Set(failed.map((c) => verdicts[c].cause!))];
  const fix = causes
    .map((cause) => FIXES[cause](live, failed.filter((c) => verdicts[c].cause === cause).join(", ")))
    .join("; ");
  return fail(
    "verify.tools",
    `tool calling broken in ${failed.length} of ${TOOL_CASES.length} cases: ${failed.map((c) => `${c} (${verdicts[c].cause}: ${verdicts[c].reason})`).join("; ")}`,
    { evidence, data, fix },
  );
}

export function checkToolsResult(
  r: HttpResult,
  url: string,
  via: string,
  live: { autoToolChoice: boolean; toolCallParser: string | null; model?: string; sentKey?: boolean },
): Finding {
  if (r.status === null) return noAnswer(CHECK, "tool-call completion", r, url, via);
  const v = verdictOf({ status: r.status, body: r.body });
  if (v.gap === null) {
    const refused = refusal(CHECK, "tool contract", r, v.reason, {
      url,
      via,
      model: live.model ?? "MODEL",
      sentKey: live.sentKey ?? false,
    });
    if (refused) return refused;
  }
  const evidence = [
    `POST ${url}/v1/chat/completions (tools, tool_choice auto) via ${via}: HTTP ${r.status} in ${Math.round(r.durationMs)} ms`,
    v.reason,
  ];
  const data = {
    status: r.status,
    gap: v.gap,
    autoToolChoice: live.autoToolChoice,
    toolCallParser: live.toolCallParser,
  };
  if (v.ok) return pass(CHECK, `tool call returned: ${v.reason}`, { evidence, data });
  const missing = [
    live.autoToolChoice ? null : "--enable-auto-tool-choice",
    live.toolCallParser ? null : "--tool-call-parser <parser>",
  ].filter(Boolean);
  // llama-server's own words for its flag: --jinja (newer builds have it on unless --no-jinja)
  const fix = /--jinja/.test(r.body)
    ? "a server config gap, not a model fault: start llama-server with --jinja (builds that default it on: drop --no-jinja) and redeploy"
    : v.gap === "tools-not-enabled" || missing.length
      ? `a server config gap, not a model fault: add ${missing.length ? missing.join(" ") : "--enable-auto-tool-choice --tool-call-parser <parser>"}${live.toolCallParser ? "" : " (Qwen3: --tool-call-parser qwen3_xml)"} to the serve script and redeploy`
      : `the server accepted tools but the parser extracted no valid call: check --tool-call-parser ${live.toolCallParser} matches the model family's tool format`;
  return fail(
    CHECK,
    v.gap === "tools-not-enabled"
      ? `tool calls refused (HTTP ${r.status}): the server is not configured for auto tool choice`
      : `tool contract broken: ${v.reason}`,
    { evidence, data, fix },
  );
}
