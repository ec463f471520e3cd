// deploy.diagnosis: the whole journal of this deploy's window, read from the host's cursor taken before the
// restart when the verdict is reached (never only what the polls happened to see), decoded and classified
// by forensics/, refined with what the wait loop saw and, for a failure under the engine, with the
// install: entries and the host facts its fix names.
import { belowAdvice, type InstallEntry } from "../../domain/diagnosis/below-engine-advice.js";
import { Diagnoser, type Diagnosis } from "../../domain/diagnosis/classify.js";
import { JournalDecoder } from "../../domain/journal/decoder.js";
import type { Host } from "../../ports/host/host.js";
import { lookupHostFacts, type HostFacts } from "./diagnose-host.js";
import { journalArgv } from "./poll-command.js";
import { refineDiagnosis } from "./diagnosis-refine.js";
import type { FailureKind } from "./readiness.js";

export interface DiagnoseWindow {
  service: string;
  /** null: the engine runs straight under the unit (its lines are the unit's) */
  container: string | null;
  cursor: string | null;
  startedAtHostMs: number;
  nRestarts: number | null;
  failure: FailureKind;
  /** the endpoint's install: entries and config file, so a fix names the entry to change */
  install?: readonly InstallEntry[];
  configFile?: string;
  /** what systemctl said during the restart (`Unit x.service not found.` is nowhere in the journal) */
  restartEvidence?: readonly string[];
}

type Context = Omit<DiagnoseWindow, "cursor" | "startedAtHostMs">;

/** Decodes `journalctl -o json` output and classifies it (pure: the I/O is diagnoseDeploy). */
export function diagnoseJournal(json: string, w: Context, facts: HostFacts | null = null): Diagnosis {
  const decoder = new JournalDecoder();
  const diag = new Diagnoser({ unit: w.service, nRestarts: w.nRestarts ?? undefined });
  for (const line of w.restartEvidence ?? []) diag.pushLine(line);
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
  const d = refineDiagnosis(diag.finish(), w.failure, engine, w.service);
  if (!d.below) return d;
  const loopNote = / \(crash loop: .*\)$/.exec(d.summary)?.[0] ?? "";
  const a = belowAdvice(d.below, {
    install: w.install,
    configFile: w.configFile,
    service: w.service,
    portOwner: facts?.portOwner ?? null,
    localImages: facts?.localImages,
    unitUser: facts?.unitUser ?? null,
    engine: d.engine,
  });
  return { ...d, summary: a.summary + loopNote, fix: a.fix };
}

/** Nothing decisive yet: journald may still be writing the last lines of a process that just died. */
const UNDECIDED = new Set(["unknown", "booting", "clean-exit"]);
const REREAD_MS = 1000;
/** The exit line of a unit whose exec step failed (systemd's EXIT_* codes 200-243), with no cause of its own. */
const EXEC_STEP_ONLY = /Main process exited, code=exited, status=2[0-4][0-9]\/[A-Z_]+$/;
/** How long to wait for journald to catch up (it lags by seconds on a loaded host) before judging what is there. */
const SETTLE_MS = 15_000;

export async function diagnoseDeploy(host: Host, w: DiagnoseWindow): Promise<Diagnosis> {
  const argv = journalArgv({
    service: w.service,
    container: w.container,
    cursor: w.cursor,
    sinceHostS: Math.floor(w.startedAtHostMs / 1000),
  });
  const read = async () => (await host.run(argv, { timeoutMs: 60_000, maxOutputBytes: 64 << 20 })).stdout;
  let json = await read();
  let d = diagnoseJournal(json, w);
  // undecided: read again until the verdict comes, or the journal has stopped growing (the same answer three times in a
  // row after a second read), or the deadline; a boot timeout has nothing more to wait for
  const until = Date.now() + SETTLE_MS;
  let same = 0;
  // systemd's exit line for a failed exec step (status=203/EXEC, 200/CHDIR...) comes from PID 1; the line naming
  // the cause comes from the spawned executor and can reach the journal seconds later: wait for it to the deadline
  const thin = (x: Diagnosis) => UNDECIDED.has(x.class) || EXEC_STEP_ONLY.test(x.decisive ?? "");
  while (thin(d) && w.failure !== "timeout" && (same < 3 || !UNDECIDED.has(d.class)) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, REREAD_MS));
    const again = await read();
    same = again === json ? same + 1 : 0;
    json = again;
    d = diagnoseJournal(json, w);
  }
  if (!d.below) return d;
  const facts = await lookupHostFacts(host, d.below, w.service);
  return facts ? diagnoseJournal(json, w, facts) : d;
}
