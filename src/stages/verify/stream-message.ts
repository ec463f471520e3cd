// A streamed chat completion joined into the message a client ends with: content, reasoning and tool
// calls rebuilt from their deltas by index, as OpenAI clients do (vLLM's serving.py streams a call's id,
// type and name first, then its arguments in pieces; llama.cpp and SGLang send the same delta shape). Pure.
import { jsonEvents, type StreamResult } from "../../ports/http/sse.js";

export interface JoinedCall {
  id: string | null;
  name: string | null;
  arguments: string;
}
export interface JoinedMessage {
  content: string;
  reasoning: string;
  calls: JoinedCall[];
  finishReason: string | null;
  /** data: lines that were not JSON (a broken stream) */
  badEvents: number;
}

interface DeltaCall {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null };
}
interface Chunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning?: string | null;
      reasoning_content?: string | null;
      tool_calls?: DeltaCall[] | null;
    };
    finish_reason?: string | null;
  }[];
}

export function joinStream(r: StreamResult): JoinedMessage {
  const m: JoinedMessage = { content: "", reasoning: "", calls: [], finishReason: null, badEvents: 0 };
  const { chunks, bad } = jsonEvents<Chunk>(r.events);
  m.badEvents = bad;
  for (const { chunk: c } of chunks) {
    for (const ch of c.choices ?? []) {
      const d = ch.delta ?? {};
      m.content += d.content ?? "";
      // vLLM 0.11.2-0.15 sends reasoning twice (`reasoning` and `reasoning_content`): one of them counts
      m.reasoning += d.reasoning ?? d.reasoning_content ?? "";
      for (const tc of d.tool_calls ?? []) {
        const call = (m.calls[tc.index ?? 0] ??= { id: null, name: null, arguments: "" });
        call.id ??= tc.id ?? null;
        call.name ??= tc.function?.name ?? null;
        call.arguments += tc.function?.arguments ?? "";
      }
      if (ch.finish_reason) m.finishReason = ch.finish_reason;
    }
  }
  m.calls = m.calls.filter(Boolean);
  return m;
}
