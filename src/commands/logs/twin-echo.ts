// `logs --follow` flushes the decoder's twin window after a short pause so a line shows at once; a podman
// twin (the conmon record, or the unit's stdout copy) that arrives after that pause would print a second
// time. A line already printed from the other copy is an echo. Pure.
import type { LogRecord } from "../../domain/journal/record.js";

const REMEMBERED = 1024;

export class TwinEcho {
  /** text -> whether the printed copy came from the container (conmon) */
  private readonly printed = new Map<string, boolean>();

  /** True when rec repeats a line printed from the other copy (drop it); else remembers rec. */
  isEcho(rec: LogRecord): boolean {
    const fromContainer = rec.container !== null;
    const seen = this.printed.get(rec.text);
    if (seen !== undefined && seen !== fromContainer) {
      this.printed.delete(rec.text);
      return true;
    }
    this.printed.set(rec.text, fromContainer);
    if (this.printed.size > REMEMBERED) this.printed.delete(this.printed.keys().next().value!);
    return false;
  }
}
