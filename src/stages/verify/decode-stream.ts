// A streamed chat completion, timed: Server-Sent Events arrive as chunks, each stamped with the
// milliseconds since the request was sent. parseSample() reads one such stream the seed's way. Pure.

export interface StreamEvent { atMs: number; data: string }
export interface StreamResult { status: number | null; events: StreamEvent[]; wallMs: number; error: string | null; body?: string }

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

/** Splits raw SSE text (as it arrived, in pieces) into `data:` payloads, each with the time its piece arrived. */
export function sseEvents(pieces: readonly { atMs: number; text: string }[]): StreamEvent[] {
  const out: StreamEvent[] = [];
  let buf = "";
  for (const p of pieces) {
    buf += p.text;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      if (line.startsWith("data:")) out.push({ atMs: p.atMs, data: line.slice(5).trim() });
    }
  }
  if (buf.startsWith("data:")) out.push({ atMs: pieces.at(-1)?.atMs ?? 0, data: buf.slice(5).trim() });
  return out;
}

interface Chunk { choices?: { delta?: { content?: string | null; reasoning?: string | null; reasoning_content?: string | null }; finish_reason?: string | null }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } | null }

export function parseSample(r: StreamResult): DecodeSample {
  const s: DecodeSample = { ttftMs: null, wallMs: r.wallMs, promptTokens: null, completionTokens: null, finishReason: null, text: "", chunks: 0 };
  for (const e of r.events) {
    if (e.data === "[DONE]") continue;
    let c: Chunk;
    try { c = JSON.parse(e.data) as Chunk; } catch { continue; }
    for (const ch of c.choices ?? []) {
      // vLLM 0.11.2-0.15 sends the reasoning twice, as `reasoning` and `reasoning_content`: one of them counts.
      const piece = (ch.delta?.reasoning ?? ch.delta?.reasoning_content ?? "") + (ch.delta?.content ?? "");
      if (piece !== "") {
        s.ttftMs ??= e.atMs;
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
