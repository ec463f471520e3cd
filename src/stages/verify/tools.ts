// verify.tools: a real tool schema with tool_choice "auto" comes back as tool_calls; a 400 is a config gap.
import { checkTools as verdictOf } from "../../domain/engine/vllm/contracts.js";
import type { HttpResult } from "../../ports/http/client.js";
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { noAnswer, refusal } from "./models.js";

export const CHECK = "verify.tools";

export function toolsRequest(model: string): Record<string, unknown> {
  return {
    model,
    temperature: 0,
    max_tokens: 512,
    tool_choice: "auto",
    messages: [{ role: "user", content: "What is the weather in Paris right now? Use the tool." }],
    tools: [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Current weather for a city",
          parameters: {
            type: "object",
            properties: {
              city: { type: "string", description: "City name" },
              unit: { type: "string", enum: ["celsius", "fahrenheit"] },
            },
            required: ["city"],
          },
        },
      },
    ],
  };
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
  const fix =
    v.gap === "tools-not-enabled" || missing.length
      ? `a server config gap, not a model fault: add ${missing.length ? missing.join(" ") : "--enable-auto-tool-choice --tool-call-parser <parser>"} (Qwen3: --tool-call-parser qwen3_xml) to the serve script and redeploy`
      : `the server accepted tools but the parser extracted no valid call: check --tool-call-parser ${live.toolCallParser} matches the model family's tool format`;
  return fail(
    CHECK,
    v.gap === "tools-not-enabled"
      ? `tool calls refused (HTTP ${r.status}): the server is not configured for auto tool choice`
      : `tool contract broken: ${v.reason}`,
    { evidence, data, fix },
  );
}
