// A streamed chat completion, timed: parseSample() reads one stream (ports/http/sse.ts) the seed's way. Pure.
import { jsonEvents, type StreamResult } from "../../ports/http/sse.js";

export interface DecodeSample {
  /** time to the first content or reasoning token */
  ttftMs: number | null;
  wallMs: number;
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  text: string;
  /** content chunks seen: reported, never used for the speed (invalid under speculative decoding) */
  chunks: number;
}

interface Chunk {
  choices?: {
    delta?: { content?: string | null; reasoning?: string | null; reasoning_content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

export function parseSample(r: StreamResult): DecodeSample {
  const s: DecodeSample = {
    ttftMs: null,
    wallMs: r.wallMs,
    promptTokens: null,
    completionTokens: null,
    finishReason: null,
    text: "",
    chunks: 0,
  };
  for (const { atMs, chunk: c } of jsonEvents<Chunk>(r.events).chunks) {
    for (const ch of c.choices ?? []) {
      // vLLM 0.11.2-0.15 sends the reasoning twice, as `reasoning` and `reasoning_content`: one of them counts.
      const piece = (ch.delta?.reasoning ?? ch.delta?.reasoning_content ?? "") + (ch.delta?.content ?? "");
      if (piece !== "") {
        s.ttftMs ??= atMs;
        s.text += piece;
        s.chunks++;
      }
      if (ch.finish_reason) s.finishReason = ch.finish_reason;
    }
    if (c.usage) {
      s.promptTokens = c.usage.prompt_tokens ?? s.promptTokens;
      s.completionTokens = c.usage.completion_tokens ?? s.completionTokens;
    }
  }
  return s;
}
