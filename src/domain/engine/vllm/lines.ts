// vLLM line anatomy (reference §1.1–1.2): parsers match the message body, never the prefix.
import { cleanLine } from "../../journal/line.js";

/**
 * All eras of the vLLM prefix after ANSI strip: optional `(NAME pid=N) ` process prefix, then an optional
 * `LEVEL MM-DD HH:MM:SS [file:line] ` record prefix (2024 had no `[`).
 */
const PREFIX =
  /^(?:\((?<proc>[A-Za-z_][\w ]*?(?: rank=\d+)?) pid=(?<pid>\d+)\) )?(?:(?<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<mm>\d\d)-(?<dd>\d\d) (?<time>\d\d:\d\d:\d\d) \[?(?<file>[^\]\s]+):(?<line>\d+)\] )?(?<msg>.*)$/s;

export interface VllmLine {
  proc: string | null;
  pid: number | null;
  level: string | null;
  file: string | null;
  msg: string;
}

export function parseLine(raw: string): VllmLine {
  const line = cleanLine(raw);
  const g = PREFIX.exec(line)?.groups ?? {};
  return {
    proc: g.proc ?? null,
    pid: g.pid === undefined ? null : Number(g.pid),
    level: g.level ?? null,
    file: g.file ?? null,
    msg: g.msg ?? line,
  };
}

/** The message body of a line, prefixes removed. */
export function messageOf(raw: string): string {
  return parseLine(raw).msg;
}
