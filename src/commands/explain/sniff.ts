// `deploy-gate explain FILE`: a saved journal dump, a pasted log or an HTTP response body in, one
// diagnosis out, in DESIGN.md's explain JSON shape.
import { isToolConfigGap } from "../../domain/engine/vllm/contracts.js";
import { Diagnoser, type Diagnosis } from "../../domain/diagnosis/classify.js";
import { JournalDecoder } from "../../domain/journal/decoder.js";
import type { LogRecord } from "../../domain/journal/record.js";
import { readPlainLine } from "../../domain/journal/plain-log.js";
import { advice } from "../../domain/diagnosis/advice.js";
import { authMismatchAdvice } from "../../domain/diagnosis/auth-mismatch.js";
import { failureOf } from "../../domain/engine/vllm/failures.js";
import { recordLines, RecordSplitter, opensRecords } from "./json-records.js";
import { lineBatches, utf8Chunks } from "../../domain/journal/lines.js";
import { toResult, type ExplainResult } from "../../domain/diagnosis/result.js";

export type InputKind = "journal-json" | "plain-log" | "http-body";

/** A journal export line is a JSON object carrying journald's own fields. */
function isJournalLine(line: string): boolean {
  if (!line.startsWith("{")) return false;
  return /"(?:__REALTIME_TIMESTAMP|__CURSOR|MESSAGE|_TRANSPORT)"\s*:/.test(line);
}

export function detectKind(text: string): InputKind {
  const first =
    text
      .split("\n", 50)
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  if (isJournalLine(first)) return "journal-json";
  const body = stripHttpHeaders(text).trim();
  if (/^\{[\s\S]*\}$/.test(body) && /"(?:error|choices|object)"|'error'/.test(body)) return "http-body";
  return "plain-log";
}

/** The shell prompt line a pasted `curl -i` often starts with (`$ curl -si URL`). */
const PROMPT = /^\s*[$#] curl\b[^\n]*\n/;

/** `curl -i` output: drop the status line and headers, keep the body. */
function stripHttpHeaders(raw: string): string {
  const text = raw.replace(PROMPT, "");
  if (!/^HTTP\/\d/.test(text)) return text;
  const at = text.search(/\r?\n\r?\n/);
  return at < 0 ? "" : text.slice(at).trim();
}

function httpStatus(text: string, body: string): number | null {
  const head = /^HTTP\/[\d.]+ (\d{3})/.exec(text.replace(PROMPT, ""))?.[1];
  if (head) return Number(head);
  const code = /"code"\s*:\s*"?(\d{3})/.exec(body)?.[1];
  return code ? Number(code) : null;
}

function explainHttp(text: string): ExplainResult {
  const body = stripHttpHeaders(text).trim();
  const status = httpStatus(text, body);
  const base = new Diagnoser().finish();
  const msg =
    /"message"\s*:\s*"((?:[^"\\]|\\.)*)"|'message'\s*:\s*'([^']*)'|"detail"\s*:\s*"((?:[^"\\]|\\.)*)"|"error"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(
      body,
    );
  const message = (msg?.[1] ?? msg?.[2] ?? msg?.[3] ?? msg?.[4] ?? body).replace(/\\"/g, '"').replace(/\\n/g, " ");
  const facts = (decisive: string) => ({
    decisive,
    oom: null,
    phase: null,
    attempts: [],
    startLimit: false,
    unit: null,
    kv: null,
    dynamo: null,
  });
  // The server wants a key the client did not send, or refused the one it sent.
  if (status === 401 || status === 403) {
    const a = authMismatchAdvice({ decisive: `HTTP ${status}: ${message.slice(0, 200)}` });
    return {
      ...toResult(base),
      class: "auth-mismatch",
      decisive: `HTTP ${status}: ${message.slice(0, 200)}`,
      summary: a.summary,
      fix: a.fix,
      evidence: [body.slice(0, 500)],
    };
  }
  if (isToolConfigGap(body)) {
    const a = advice("tools-not-enabled", facts(message));
    return {
      ...toResult(base),
      class: "tools-not-enabled",
      decisive: message,
      summary: `HTTP ${status ?? "?"}: ${a.summary}`,
      fix: a.fix,
      evidence: [body.slice(0, 500)],
    };
  }
  // A 400/500 from the chat template or a parser, an engine failure behind the API: named, never a tool-choice gap.
  const failure = failureOf(message, null);
  if (failure && failure.priority >= 5) {
    const a = advice(failure.kind, facts(message));
    return {
      ...toResult(base),
      class: failure.kind,
      decisive: message,
      summary: `HTTP ${status ?? "?"}: ${a.summary}`,
      fix: a.fix,
      evidence: [body.slice(0, 500)],
    };
  }
  return {
    ...toResult(base),
    class: "unknown",
    decisive: body.slice(0, 300),
    summary: `an HTTP body${status ? ` (status ${status})` : ""} with no known failure signature`,
    fix: base.fix,
  };
}

/** Feeds lines of one input kind into a Diagnoser. */
class Feeder {
  /** Journal input only: its WebAssembly instance and windows cost more than a short pasted log's diagnosis. */
  private readonly journal: JournalDecoder | null;
  private readonly out: LogRecord[] = [];
  constructor(
    kind: InputKind,
    readonly diagnoser: Diagnoser,
  ) {
    this.journal = kind === "journal-json" ? new JournalDecoder() : null;
  }

  push(line: string): void {
    if (this.journal) {
      for (const rec of this.journal.push(line)) this.diagnoser.pushRecord(rec);
    } else {
      const rec = readPlainLine(line);
      if (rec) this.diagnoser.pushRecord(rec);
    }
  }

  /** Journal bytes as read (any cut): decoded in place, no string made of each line. */
  pushBytes(chunk: Buffer): void {
    this.out.length = 0;
    for (const rec of this.journal!.pushBytes(chunk, this.out)) this.diagnoser.pushRecord(rec);
  }

  finish(): Diagnosis {
    if (this.journal) for (const rec of this.journal.flush()) this.diagnoser.pushRecord(rec);
    return this.diagnoser.finish();
  }
}

export interface ExplainOptions {
  unit?: string;
  nRestarts?: number;
  /** false: every pattern on every line (the prefilter's differential test) */
  prefilter?: boolean;
}

export function explain(text: string, opts: ExplainOptions = {}): ExplainResult {
  const records = journalRecords(text);
  if (records !== null) return explain(records, opts);
  const kind = detectKind(text);
  if (kind === "http-body") return explainHttp(text);
  const feeder = new Feeder(kind, new Diagnoser(opts));
  for (const line of text.split("\n")) feeder.push(line);
  return toResult(feeder.finish());
}

/**
 * Big files: the kind is judged on the first non-empty line, then every line streams through. Accepts
 * lines one by one or in batches (`lineBatches`), which saves an await per line.
 */
export async function explainStream(
  lines: AsyncIterable<string | string[]>,
  opts: ExplainOptions = {},
): Promise<ExplainResult> {
  let feeder: Feeder | null = null;
  const head: string[] = [];
  let judged = false;
  const start = (kind: InputKind): Feeder => {
    const f = new Feeder(kind, new Diagnoser(opts));
    for (const h of head) f.push(h);
    return f;
  };
  for await (const item of lines) {
    for (const line of typeof item === "string" ? [item] : item) {
      if (feeder) {
        feeder.push(line);
        continue;
      }
      head.push(line);
      if (!judged) {
        const t = line.trim();
        if (t === "") continue;
        judged = true;
        if (isJournalLine(t)) feeder = start("journal-json");
        // An HTTP response (`curl -i`: status line, headers, body) or a bare body is small: gathered and judged whole,
        // as explain does.
        else if (!t.startsWith("{") && !/^HTTP\/\d/.test(t) && !/^[$#] curl\b/.test(t)) feeder = start("plain-log");
      } else if (head.length >= MAX_GATHERED) feeder = start("plain-log");
    }
  }
  if (!feeder) return explain(head.join("\n"), opts);
  return toResult(feeder.finish());
}

/** Lines gathered to judge a response whole; past this it is read as a log. */
const MAX_GATHERED = 2000;

/** How far explainBytes looks for the first non-empty line before it leaves the judging to explainStream. */
const PEEK_BYTES = 1 << 20;

/**
 * A file's bytes (`fileChunks`): a journal dump goes to the decoder as read, with no string made of its
 * lines (that round trip cost as much as the decoding); any other input streams as lines (explainStream).
 */
export async function explainBytes(chunks: AsyncIterable<Buffer>, opts: ExplainOptions = {}): Promise<ExplainResult> {
  const it = utf8Chunks(chunks)[Symbol.asyncIterator]();
  const held: Buffer[] = [];
  let size = 0;
  let journal: FirstLine | null = null;
  let ended = false;
  while (journal === null) {
    const next = await it.next();
    if ((ended = next.done === true)) break;
    held.push(next.value);
    size += next.value.length;
    journal = judgeFirstLine(held.length === 1 ? next.value : Buffer.concat(held), size > PEEK_BYTES);
  }
  // the input ended before its first line did (one line, no newline): judged as it is
  journal ??= held.length ? judgeFirstLine(Buffer.concat(held), true) : null;
  const notALog = unreadable(held, size, ended);
  if (notALog) return { ...toResult(new Diagnoser(opts).finish()), ...notALog, evidence: [] };
  const rest: AsyncIterable<Buffer> = { [Symbol.asyncIterator]: () => it };
  if (journal === "records") return explainRecords(held, rest, opts);
  if (journal === "journal") {
    const feeder = new Feeder("journal-json", new Diagnoser(opts));
    // the decoder copies what it keeps of a chunk (a line's start), so the reader may read into one buffer
    (chunks as { reuse?: () => void }).reuse?.();
    for (const b of held) feeder.pushBytes(b);
    for await (const b of rest) feeder.pushBytes(b);
    return toResult(feeder.finish());
  }
  return explainStream(lineBatches(replay(held, rest)), opts);
}

/** Empty or binary input: said as such, instead of "no failure found" over nothing or over garbage. */
function unreadable(held: readonly Buffer[], size: number, ended: boolean): { summary: string; fix: string } | null {
  // empty: all of it read (not only the peek) and nothing but whitespace
  if (size === 0 || (ended && held.every((b) => b.every((c) => c === 10 || c === 13 || c === 32 || c === 9)))) {
    return {
      summary: "the input is empty",
      fix: 'save the log first, e.g. journalctl -u UNIT -o json --since "1 hour ago" > boot.json, then explain boot.json',
    };
  }
  // control bytes other than tab, newlines and ESC (colour): none in a text log, one in nine in random data
  const head = held[0]!.subarray(0, 8192);
  const control = head.reduce(
    (n, c) => n + ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27) || c === 127 ? 1 : 0),
    0,
  );
  if (control * 20 > head.length) {
    return {
      summary: `the input is not a text log (${control} control bytes in its first ${head.length})`,
      fix: "pass the log as text: journalctl -o json, podman logs, or the saved console output (a compressed file: unpack it first)",
    };
  }
  return null;
}

type FirstLine = "journal" | "records" | "other";

/** What the first non-empty line opens; null: not seen whole yet (and `giveUp` false). */
function judgeFirstLine(buf: Buffer, giveUp: boolean): FirstLine | null {
  const kind = (t: string): FirstLine => (isJournalLine(t) ? "journal" : opensRecords(t) ? "records" : "other");
  let a = 0;
  for (;;) {
    const nl = buf.indexOf(10, a);
    if (nl < 0) return giveUp ? kind(buf.toString("utf8", a).trim()) : null;
    const t = buf.toString("utf8", a, nl).trim();
    if (t !== "") return kind(t);
    a = nl + 1;
  }
}

/**
 * A text of journal records across lines (json-pretty, a JSON array) as one record per line; null when it is not one.
 */
function journalRecords(text: string): string | null {
  const first =
    text
      .split("\n", 50)
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  if (!opensRecords(first)) return null;
  const s = new RecordSplitter();
  const lines = Buffer.concat([...s.push(Buffer.from(text, "utf8")), ...s.end()]).toString("utf8");
  return isJournalLine(lines.slice(0, lines.indexOf("\n") + 1 || undefined).trim()) ? lines : null;
}

/**
 * Records across lines: split into one per line and decoded as a dump when the first is a journal record;
 * else (a pretty-printed response body) the input is read from its start as any other.
 */
async function explainRecords(
  held: Buffer[],
  rest: AsyncIterable<Buffer>,
  opts: ExplainOptions,
): Promise<ExplainResult> {
  const seen = [...held];
  let watching = true;
  const watched = (async function* () {
    for await (const b of rest) {
      if (watching) seen.push(b);
      yield b;
    }
  })();
  const lines = recordLines(replay(held, watched))[Symbol.asyncIterator]();
  const first = await lines.next();
  const head = first.done ? "" : first.value.toString("utf8", 0, Math.max(0, first.value.indexOf(10)));
  if (!first.done && isJournalLine(head.trim())) {
    watching = false;
    seen.length = 0;
    const feeder = new Feeder("journal-json", new Diagnoser(opts));
    feeder.pushBytes(first.value);
    for await (const b of { [Symbol.asyncIterator]: () => lines }) feeder.pushBytes(b);
    return toResult(feeder.finish());
  }
  return explainStream(lineBatches(replay(seen, watched)), opts);
}

async function* replay(held: Buffer[], rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  yield* held;
  yield* rest;
}
