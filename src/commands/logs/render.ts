// How `logs` prints: a header per boot, one decoded line per record, the boot's diagnosis at the end. Pure.
import { toResult } from "../../domain/diagnosis/result.js";
import { renderExplain } from "../../domain/report/diagnosis-text.js";
import type { Diagnosis } from "../../domain/diagnosis/classify.js";
import type { LogRecord } from "../../domain/journal/record.js";
import type { Boot } from "./boots.js";

/** µs since the epoch → `2026-11-30 17:58:01.123` (UTC, as journalctl --utc); no time → blank of that width. */
export function stamp(ts: number): string {
  if (!ts) return " ".repeat(23);
  return new Date(Math.floor(ts / 1000)).toISOString().replace("T", " ").slice(0, 23);
}

export function lineText(rec: LogRecord): string {
  const who = rec.identifier === "systemd" ? "systemd: " : "";
  return `${stamp(rec.ts)}  ${who}${rec.text}`;
}

export function bootHeader(b: Boot, fromCurrent: number | null, total: number | null, endpoint: string): string {
  const which = fromCurrent === null ? "" : fromCurrent === 0 ? " (current)" : ` (${fromCurrent} from current)`;
  const of = total === null ? "" : ` of ${total}`;
  const span = b.records.length > 0 ? ` · ${stamp(b.startTs)} → ${stamp(b.endTs)} UTC` : "";
  const cut = b.cut > 0 ? ` · first ${b.cut} line(s) not kept` : "";
  return `-- ${endpoint}: boot ${b.index}${of}${which}${b.container ? ` · container ${b.container}` : ""}${span} · ${b.records.length} line(s)${cut} --`;
}

export function diagnosisText(d: Diagnosis, colour: boolean): string {
  return `-- diagnosis of this boot --\n${renderExplain(toResult(d), colour)}`;
}

/** --json: one object for the boot, its lines and its diagnosis. */
export function bootJson(endpoint: string, b: Boot, fromCurrent: number, total: number, d: Diagnosis): string {
  return (
    JSON.stringify(
      {
        schema: 1,
        endpoint,
        boot: {
          index: b.index,
          fromCurrent,
          of: total,
          container: b.container,
          startTs: b.startTs,
          endTs: b.endTs,
          cutLines: b.cut,
        },
        lines: b.records.map((r) => ({ ts: r.ts, priority: r.priority, identifier: r.identifier, text: r.text })),
        diagnosis: toResult(d),
      },
      null,
      2,
    ) + "\n"
  );
}
