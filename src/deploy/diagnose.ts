// deploy.diagnosis: the journal of this deploy's window (from the cursor taken before the restart),
// decoded and classified by forensics/, refined with what the wait loop saw.
import { Diagnoser, type Diagnosis } from "../forensics/classify.js";
import { JournalDecoder } from "../forensics/journal.js";
import type { Host } from "../host/host.js";
import { journalArgv } from "./poll-command.js";
import { refineDiagnosis } from "./diagnosis-refine.js";
import type { FailureKind } from "./readiness.js";

export interface DiagnoseWindow {
  service: string;
  container: string;
  cursor: string | null;
  startedAtHostMs: number;
  nRestarts: number | null;
  failure: FailureKind;
}

/** Decodes `journalctl -o json` output and classifies it (pure: the I/O is diagnoseDeploy). */
export function diagnoseJournal(json: string, w: Omit<DiagnoseWindow, "cursor" | "startedAtHostMs">): Diagnosis {
  const decoder = new JournalDecoder();
  const diag = new Diagnoser({ unit: w.service, nRestarts: w.nRestarts ?? undefined });
  const engine: string[] = [];
  const take = (recs: ReturnType<JournalDecoder["push"]>) => {
    for (const rec of recs) {
      diag.pushRecord(rec);
      if (rec.container) {
        engine.push(rec.text);
        if (engine.length > 8) engine.shift();
      }
    }
  };
  for (const line of json.split("\n")) take(decoder.push(line));
  take(decoder.flush());
  return refineDiagnosis(diag.finish(), w.failure, engine, w.service);
}

export async function diagnoseDeploy(host: Host, w: DiagnoseWindow): Promise<Diagnosis> {
  const argv = journalArgv({ service: w.service, container: w.container, cursor: w.cursor, sinceHostS: Math.floor(w.startedAtHostMs / 1000) });
  const r = await host.run(argv, { timeoutMs: 60_000, maxOutputBytes: 64 << 20 });
  return diagnoseJournal(r.stdout, w);
}
