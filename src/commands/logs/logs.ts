// `deploy-gate logs --endpoint NAME`: the endpoint's journal over the pinned SSH connection, decoded, one
// boot of its container at a time, with that boot's diagnosis. --follow streams until SIGINT/SIGTERM or
// until the connection is lost; every other remote command has a timeout.
import { dirname } from "node:path";
import { requireFor } from "../../domain/config/load.js";
import { Diagnoser, type Diagnosis } from "../../domain/diagnosis/classify.js";
import { JournalDecoder } from "../../domain/journal/decoder.js";
import type { LogRecord } from "../../domain/journal/record.js";
import type { Host } from "../../ports/host/host.js";
import { colourOf, UsageError, type Io, type Options } from "../options.js";
import { endpointFor as fleetEndpoint, oneFleetHost } from "../../domain/rollout.js";
import { BootSplitter, parseBoot, type Boot, type BootSelector } from "./boots.js";
import { logsArgv, sinceArg } from "./remote.js";
import { bootHeader, bootJson, diagnosisText, lineText } from "./render.js";
import { sanitizeLine } from "../../domain/report/sanitize.js";
import { TwinEcho } from "./twin-echo.js";
import { withHost } from "../shared/connect.js";
import type { Finding } from "../../domain/report/finding.js";
import { endpointFor, hostsOf, oneEndpoint } from "../shared/endpoints.js";
import { beforeExit, runAbort } from "../shared/lifecycle.js";
import { openWorkspace } from "../shared/workspace.js";

export interface LogsIo {
  out: (s: string) => void;
  err: (s: string) => void;
  colour: boolean;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}

/** container null: an engine the unit runs itself; its lines are the unit's own */
export interface LogsRequest {
  endpoint: string;
  service: string;
  container: string | null;
  boot: BootSelector;
  since: string | null;
  follow: boolean;
  json: boolean;
  /** -n: the last N lines shown of a boot (null: all) */
  lines?: number | null;
  /** --grep: only the lines matching are shown (the diagnosis reads every line) */
  grep?: RegExp | null;
}

/** What is shown of a boot's records: those --grep matches, the last -n of them. */
export function shownRecords(records: readonly LogRecord[], req: Pick<LogsRequest, "lines" | "grep">): LogRecord[] {
  const hit = req.grep ? records.filter((r) => req.grep!.test(r.text)) : [...records];
  return req.lines ? hit.slice(-req.lines) : hit;
}

const FETCH_TIMEOUT_MS = 120_000;

export function diagnoseBoot(b: Boot, service: string): Diagnosis {
  const d = new Diagnoser({ unit: service });
  for (const r of b.records) d.pushRecord(r);
  return d.finish();
}

/** Validated flags → a request; a bad value is a usage error that says what is accepted. */
export function logsRequest(
  opts: Pick<Options, "boot" | "since" | "follow" | "json" | "lines" | "grep">,
  endpoint: string,
  service: string,
  container: string | null,
): LogsRequest {
  const boot = parseBoot(opts.boot ?? "current");
  if (!boot)
    throw new UsageError(
      `--boot ${opts.boot}: expected current, previous, -N (N boots before the current; write --boot=-N) or N (the N-th in the window)`,
    );
  const since = opts.since === null || opts.since === undefined ? null : sinceArg(opts.since);
  if (opts.since && since === null)
    throw new UsageError(
      `--since ${opts.since}: expected a duration (30m, 2h), YYYY-MM-DD[ HH:MM[:SS]], @EPOCH, today or yesterday`,
    );
  if (opts.follow && (boot.kind !== "relative" || boot.offset !== 0))
    throw new UsageError("--follow streams the current boot: drop --boot");
  const lines = opts.lines == null ? null : /^\d{1,9}$/.test(opts.lines) ? Number(opts.lines) : 0;
  if (lines === 0) throw new UsageError(`-n ${opts.lines}: expected a whole number of lines above 0, e.g. -n 50`);
  let grep: RegExp | null = null;
  try {
    grep = opts.grep == null ? null : new RegExp(opts.grep);
  } catch (e) {
    throw new UsageError(
      `--grep ${opts.grep}: not a regular expression (${(e as Error).message}); quote it for the shell`,
    );
  }
  return { endpoint, service, container, boot, since, follow: opts.follow ?? false, json: opts.json, lines, grep };
}

/** Host text, redacted and control-free before anything reads or prints it (the diagnosis too). */
const clean = (recs: LogRecord[]): LogRecord[] =>
  recs.map((r) => ({
    ...r,
    text: sanitizeLine(r.text),
    container: r.container === null ? null : sanitizeLine(r.container),
  }));

/** Fetches and prints one boot (exit 0), or says why there is none (exit 1). */
export async function printBoot(host: Host, req: LogsRequest, io: LogsIo): Promise<number> {
  const decoder = new JournalDecoder();
  const boots = new BootSplitter(req.service, req.boot);
  const take = (recs: LogRecord[]) => {
    for (const r of clean(recs)) boots.push(r);
  };
  const r = await host.stream(
    logsArgv({ ...req, follow: false }),
    (line, stream) => {
      if (stream === "stdout") take(decoder.push(line));
    },
    { timeoutMs: FETCH_TIMEOUT_MS, maxOutputBytes: 1 << 20, signal: io.signal },
  );
  take(decoder.flush());
  if (r.timedOut)
    io.err(
      `deploy-gate logs: journalctl on ${host.name} did not finish within ${FETCH_TIMEOUT_MS / 1000}s; showing what arrived (narrow the window with --since)\n`,
    );
  // exit 1 is "no entries", unless journalctl said why (a time it could not parse, a bad match)
  else if (r.code !== 0 && (r.code !== 1 || /^(?:Failed|Invalid)/m.test(r.stderr)))
    io.err(
      `deploy-gate logs: journalctl on ${host.name} exited ${r.code ?? r.signal}: ${sanitizeLine(r.stderr.trim().split("\n").pop() ?? "")}\n`,
    );
  const sel = boots.selected();
  if (!sel.boot) {
    io.err(
      `deploy-gate logs: ${req.endpoint}: ${boots.total === 0 ? `no journal lines for ${req.service}${req.container ? ` / container ${req.container}` : ""} in the window (widen it with --since, check the names in deploy-gate.yml)` : sel.why}\n`,
    );
    return 1;
  }
  const d = diagnoseBoot(sel.boot, req.service);
  const shown = { ...sel.boot, records: shownRecords(sel.boot.records, req) };
  if (req.json) io.out(bootJson(req.endpoint, shown, sel.fromCurrent, boots.total, d));
  else {
    io.out(`${bootHeader(sel.boot, sel.fromCurrent, boots.total, req.endpoint)}\n`);
    for (const rec of shown.records) io.out(`${lineText(rec)}\n`);
    io.out(`${diagnosisText(d, io.colour)}\n`);
  }
  return 0;
}

/**
 * Streams the current boot and everything after, a header at each new boot; the diagnosis of the last boot when it
 * ends.
 */
export async function follow(host: Host, req: LogsRequest, io: LogsIo): Promise<number> {
  const decoder = new JournalDecoder();
  const boots = new BootSplitter(req.service, { kind: "relative", offset: 0 });
  // The window's older boots are read first and printed only from the current one on: buffer until the
  // journal's backlog is through (journalctl prints it in a burst, then waits: a 500 ms pause), then live.
  let live: Boot | null = null;
  const print = (rec: LogRecord, opened: Boot | null) => {
    if (req.grep && !req.grep.test(rec.text)) {
      if (opened && !req.json) io.out(`${bootHeader(opened, null, null, req.endpoint)}\n`);
      return;
    }
    if (req.json)
      io.out(
        JSON.stringify({
          ts: rec.ts,
          priority: rec.priority,
          identifier: rec.identifier,
          text: rec.text,
          boot: boots.total,
        }) + "\n",
      );
    else {
      if (opened) io.out(`${bootHeader(opened, null, null, req.endpoint)}\n`);
      io.out(`${lineText(rec)}\n`);
    }
  };
  const echoes = new TwinEcho();
  const take = (recs: LogRecord[]) => {
    for (const rec of clean(recs)) {
      if (live && echoes.isEcho(rec)) continue;
      const opened = boots.push(rec);
      if (live) print(rec, opened);
    }
  };
  let quiet: NodeJS.Timeout | null = null;
  const goLive = () => {
    if (live) return;
    take(decoder.flush());
    const sel = boots.selected();
    live = sel.boot ?? ({ index: 0, container: null, startTs: 0, endTs: 0, records: [], cut: 0 } as Boot);
    if (sel.boot) {
      if (!req.json) io.out(`${bootHeader(sel.boot, 0, boots.total, req.endpoint)}\n`);
      const backlog = new Set(shownRecords(sel.boot.records, { lines: req.lines ?? null, grep: null }));
      for (const rec of sel.boot.records) {
        echoes.isEcho(rec); // remembered: its late twin is an echo too
        if (backlog.has(rec)) print(rec, null);
      }
    }
  };
  // The decoder holds lines back to pair podman's twins; live, a short pause releases them, so a line
  // shows within a fraction of a second (a conmon record and its stdout copy arrive together).
  const settle = () => {
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(() => (live ? take(decoder.flush()) : goLive()), live ? 200 : 500);
  };
  quiet = setTimeout(goLive, 3000); // an empty backlog goes live too, once the command had time to start
  const r = await host.stream(
    logsArgv({ ...req, follow: true }),
    (line, stream) => {
      if (stream !== "stdout") return;
      take(decoder.push(line));
      settle();
    },
    { timeoutMs: Number.POSITIVE_INFINITY, maxOutputBytes: 1 << 16, signal: io.signal },
  );
  if (quiet) clearTimeout(quiet);
  goLive();
  take(decoder.flush());
  const sel = boots.selected();
  if (sel.boot && !req.json) io.out(`${diagnosisText(diagnoseBoot(sel.boot, req.service), io.colour)}\n`);
  if (io.signal?.aborted) return 0;
  io.err(
    `deploy-gate logs: the stream from ${host.name} ended (${r.code === null ? "connection lost" : `journalctl exited ${r.code}`}): run it again to resume\n`,
  );
  return 1;
}

export async function logsCommand(opts: Options, io: LogsIo): Promise<number> {
  const ws = await openWorkspace(opts, io.env);
  const { name, ep } = oneEndpoint(ws, opts, "host, service");
  const one = ep.hosts ? oneFleetHost(ep.hosts, name, "logs", opts.hosts ?? null) : null;
  if (typeof one === "string") throw new UsageError(one);
  if (!one) hostsOf(name, ep, opts);
  if (!one) requireFor(name, ep, "logs", ["host", "service"], ws.configFile!);
  requireFor(name, ep, "logs", ["service"], ws.configFile!);
  // without container: (an engine the unit runs itself) the unit's own lines are the engine's
  const req = logsRequest(opts, name, ep.service, ep.container ?? null);
  const target = one
    ? fleetEndpoint(ep, one)
    : (endpointFor(ws, name, opts) as typeof ep & { host: NonNullable<typeof ep.host> });
  const refused = (finding: Finding) => {
    // the summary quotes what the other end said (an SSH disconnect reason), before any host key was checked
    io.err(`deploy-gate logs: ${sanitizeLine(finding.summary)}\n${finding.fix ? `fix: ${finding.fix}\n` : ""}`);
    return 1;
  };
  return withHost(target, opts, dirname(ws.configFile!), refused, (host) =>
    req.follow ? follow(host, req, io) : printBoot(host, req, io),
  );
}

/** `logs`: registered so a signal waits for it to close its channel and print the diagnosis. */
export async function logsHandler(opts: Options, io: Io): Promise<number> {
  const done = logsCommand(opts, {
    out: io.out,
    err: io.err,
    colour: colourOf(opts, io),
    signal: runAbort.signal,
    env: io.env,
  });
  beforeExit.push(done.catch(() => undefined));
  return await done;
}
