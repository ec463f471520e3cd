// Pasted text: `podman logs` output (with or without vLLM prefixes) or journalctl's short formats, whose
// `host ident[pid]: ` prefix is lifted into the record so systemd's own lines can be told apart. What the
// paste added around the line (quotes, gutters, runtime timestamps, `-x` text) goes first (paste.ts).
import { unpaste } from "./paste.js";
import type { LogRecord } from "./record.js";
import { cleanLine } from "./line.js";

// journalctl short / short-precise: `Nov 29 22:05:00[.123456] host ident[pid]: msg`. The month is strftime's %b in the
// reader's locale (systemd logs-show.c), so its word is not what makes the shape: `Dez`, `déc.`, `дек`, ` 1月`, `12월`.
const SHORT =
  /^\s?(?<mon>\p{L}{2,5}\.?|\d{1,2}[月월]) +(?<day>\d{1,2}) (?<time>\d\d:\d\d:\d\d(?:\.\d+)?) (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/u;
// glibc's abbreviated months (abmon) in the locales journals are pasted from, lower case without the dot: the
// index is the month. A word not here keeps month 0: durations inside a paste still hold.
const MONTH_WORDS: readonly (readonly string[])[] = [
  ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
  ["jan", "feb", "mär", "apr", "mai", "jun", "jul", "aug", "sep", "okt", "nov", "dez"],
  ["janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov", "déc"],
  ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"],
  ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"],
  ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
  ["янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"],
];

function monthIndex(word: string): number {
  const cjk = /^(\d{1,2})[月월]$/.exec(word);
  if (cjk) return Number(cjk[1]) - 1;
  const w = word.toLowerCase().replace(/\.$/, "");
  for (const names of MONTH_WORDS) {
    const i = names.indexOf(w);
    if (i >= 0) return i;
  }
  return w === "май" ? 4 : 0;
}

// journalctl short-full: `Mon 2026-11-30 17:24:51 UTC host ident[pid]: msg`; short-monotonic: `[  509.843390] host
// ident[pid]: msg`
// (the weekday is strftime's %a in the reader's locale: `Thu`, `Do`, `jeu.`, `Чт`, `木`; the zone a name or an offset)
const FULL =
  /^(?:\p{L}{1,4}\.? )?(?<date>\d{4}-\d\d-\d\d) (?<time>\d\d:\d\d:\d\d(?:\.\d+)?)(?: [A-Z]{2,5}| [+-]\d\d(?::?\d\d)?)? (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/u;
const MONO = /^\[\s*(?<mono>\d+\.\d+)\] (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;
// journalctl short-iso / short-iso-precise: `2026-11-29T22:05:00+0000 host ident[pid]: msg`
const ISO =
  /^(?<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?) (?<host>\S+) (?<ident>[^\s[:]+)(?:\[(?<pid>\d+)\])?: (?<msg>.*)$/;

/** short format has no year: durations between records are what matter, so any fixed year does. */
function shortTs(mon: string, day: string, time: string): number {
  const [h, m, s] = time.split(":");
  const ms = Date.UTC(2000, monthIndex(mon), Number(day), Number(h), Number(m), 0) + Number(s) * 1000;
  return Math.round(ms * 1000);
}

export function readPlainLine(raw: string): LogRecord | null {
  const pasted = unpaste(cleanLine(raw));
  if (pasted === null) return null;
  const line = pasted.text;
  if (line.trim() === "") return null;
  const short = SHORT.exec(line)?.groups;
  if (short) {
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
