// Pasted text: `podman logs` output (with or without vLLM prefixes) or journalctl's short formats, whose
// `host ident[pid]: ` prefix is lifted into the record so systemd's own lines can be told apart. What the
// paste added around the line (quotes, gutters, runtime timestamps, `-x` text) goes first (paste.ts).
import { unpaste } from "./paste.js";
import type { LogRecord } from "./record.js";
import { cleanLine } from "./line.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// journalctl short / short-precise: `Nov 29 22:05:00[.123456] host ident[pid]: msg`
const SHORT =
  /^(?<mon>[A-Z][a-z]{2}) +(?<day>\d{1,2}) (?<time>\d\d:\d\d:\d\d(?:\.\d+)?) (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
// journalctl short-full: `Mon 2026-11-30 17:24:51 UTC host ident[pid]: msg`; short-monotonic: `[  509.843390] host
// ident[pid]: msg`
const FULL =
  /^(?:[A-Z][a-z]{2} )?(?<date>\d{4}-\d\d-\d\d) (?<time>\d\d:\d\d:\d\d(?:\.\d+)?)(?: [A-Z]{2,5})? (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
const MONO = /^\[\s*(?<mono>\d+\.\d+)\] (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
// journalctl short-iso / short-iso-precise: `2026-11-29T22:05:00+0000 host ident[pid]: msg`
const ISO =
  /^(?<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?) (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;

/** short format has no year: durations between records are what matter, so any fixed year does. */
function shortTs(mon: string, day: string, time: string): number {
  const [h, m, s] = time.split(":");
  const ms = Date.UTC(2000, MONTHS.indexOf(mon), Number(day), Number(h), Number(m), 0) + Number(s) * 1000;
  return Math.round(ms * 1000);
}

export function readPlainLine(raw: string): LogRecord | null {
  const pasted = unpaste(cleanLine(raw));
  if (pasted === null) return null;
  const line = pasted.text;
  if (line.trim() === "") return null;
  const short = SHORT.exec(line)?.groups;
  if (short && MONTHS.includes(short.mon!)) {
    return {
      ts: shortTs(short.mon!, short.day!, short.time!),
      text: short.msg!,
      priority: null,
      container: null,
      unit: null,
      identifier: short.ident!,
    };
  }
  const iso = ISO.exec(line)?.groups;
  if (iso) {
    const ms = Date.parse(iso.iso!.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
    return {
      ts: Number.isFinite(ms) ? ms * 1000 : 0,
      text: iso.msg!,
      priority: null,
      container: null,
      unit: null,
      identifier: iso.ident!,
    };
  }
  const full = FULL.exec(line)?.groups;
  if (full) {
    const ms = Date.parse(`${full.date}T${full.time}Z`);
    return {
      ts: Number.isFinite(ms) ? ms * 1000 : 0,
      text: full.msg!,
      priority: null,
      container: null,
      unit: null,
      identifier: full.ident!,
    };
  }
  const mono = MONO.exec(line)?.groups;
  if (mono)
    return {
      ts: Math.round(Number(mono.mono) * 1e6),
      text: mono.msg!,
      priority: null,
      container: null,
      unit: null,
      identifier: mono.ident!,
    };
  return { ts: pasted.ts ?? 0, text: line, priority: null, container: null, unit: null, identifier: null };
}

export function readPlainLog(text: string): LogRecord[] {
  const out: LogRecord[] = [];
  for (const line of text.split("\n")) {
    const rec = readPlainLine(line);
    if (rec) out.push(rec);
  }
  return out;
}
