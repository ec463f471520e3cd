// vLLM line anatomy (reference §1.1–1.2): parsers match the message body, never the prefix.
import { cleanLine } from "../../journal/line.js";

/**
 * All eras of the vLLM prefix after ANSI strip: optional `(NAME pid=N) ` process prefix, then an optional
 * `LEVEL MM-DD HH:MM:SS [file:line] ` record prefix (2024 had no `[`).
 */
// (numbered groups, the message is the rest: named groups cost an object per line, on every line of a long log)
const PROC = String.raw`\(([A-Za-z_][\w ]*?(?: rank=\d+)?) pid=(\d+)\) `;
const LEVEL = String.raw`(DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d \[?([^\]\s]+):\d+\] `;
const PREFIX = new RegExp(`^(?:${PROC})?(?:${LEVEL})?`);
/** PREFIX matches something (a process or a level prefix): a test, no groups kept (the diagnosis' fast path). */
const SOME_PREFIX = new RegExp(`^(?:${PROC}|${LEVEL})`);

/** Whether parseLine(line) gives a process or a level, for a line cleanLine leaves as it is. */
export function hasPrefix(line: string): boolean {
  return SOME_PREFIX.test(line);
}

export interface VllmLine {
  proc: string | null;
  pid: number | null;
  level: string | null;
  file: string | null;
  msg: string;
}

/** What PREFIX can start with: a `(NAME pid=N) ` process prefix or a level word. */
const MAY_PREFIX = /^(?:\(|DEBUG |INFO |WARNING |ERROR |CRITICAL )/;
/** The diagnosis, the traceback assembler and the plan reader each parse the same line: the last one is kept. */
let lastRaw: string | null = null;
let lastLine: VllmLine | null = null;

export function parseLine(raw: string): VllmLine {
  if (raw === lastRaw) return lastLine!;
  const line = cleanLine(raw);
  // no prefix can match: the regex would give the whole line as the message
  const parsed = MAY_PREFIX.test(line) ? prefixed(line) : { proc: null, pid: null, level: null, file: null, msg: line };
  lastRaw = raw;
  lastLine = parsed;
  return parsed;
}

function prefixed(line: string): VllmLine {
  const m = PREFIX.exec(line)!;
  return {
    proc: m[1] ?? null,
    pid: m[2] === undefined ? null : Number(m[2]),
    level: m[3] ?? null,
    file: m[4] ?? null,
    msg: m[0].length === 0 ? line : line.slice(m[0].length),
  };
}

/** The message body of a line, prefixes removed. */
export function messageOf(raw: string): string {
  return parseLine(raw).msg;
}
