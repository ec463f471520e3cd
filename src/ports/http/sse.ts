// A streamed response as the routes hand it over: Server-Sent Events, each stamped with the milliseconds
// since the request was sent. The stages read the events (verify's decode-stream.ts); the routes make them.

export interface StreamEvent {
  atMs: number;
  data: string;
}
export interface StreamResult {
  status: number | null;
  events: StreamEvent[];
  wallMs: number;
  error: string | null;
  body?: string;
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

/** The events' JSON payloads (`[DONE]` left out), and how many were not JSON. */
export function jsonEvents<T>(events: readonly StreamEvent[]): { chunks: { atMs: number; chunk: T }[]; bad: number } {
  const chunks: { atMs: number; chunk: T }[] = [];
  let bad = 0;
  for (const e of events) {
    if (e.data === "[DONE]") continue;
    try {
      chunks.push({ atMs: e.atMs, chunk: JSON.parse(e.data) as T });
    } catch {
      bad++;
    }
  }
  return { chunks, bad };
}
