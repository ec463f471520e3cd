// Parsers for the poll command's output (poll-command.ts). Pure: strings in, facts out.
import { messageBytes } from "../../domain/journal/decoder.js";
import { END, POLL_SECTIONS, SECTION } from "./poll-command.js";
import { parsePodmanTime, unitStartMs } from "../../domain/host-output.js";
import { cleanLine } from "../../domain/journal/line.js";

export interface UnitState {
  activeState: string;
  subState: string;
  nRestarts: number | null;
  result: string;
  execMainStatus: number | null;
  execMainCode: string;
}

export interface ContainerState {
  /** a container's id, or the InvocationID of the unit's run when the engine runs without a container */
  id: string;
  /** set for the unit's own run (no container) */
  process?: true;
  state: string;
  exitCode: number | null;
  /** host clock, epoch ms (podman's CreatedAt carries ns) */
  createdAtMs: number;
}

export interface JournalChunk {
  /** the raw JSON lines (for the diagnosis) */
  json: string[];
  /** decoded MESSAGE texts, in order */
  messages: string[];
  /** CONTAINER_NAME values of the records (conmon's, in the unit's cgroup): which container the unit runs */
  containers: string[];
  cursor: string | null;
}

export interface PollOutput {
  hostNowMs: number | null;
  unit: UnitState | null;
  /** null: no container of that name exists */
  container: ContainerState | null;
  journal: JournalChunk;
  errors: string[];
  /** null: every section finished (an answer); else why this poll is no reading (output cut mid-way) */
  incomplete: string | null;
}

/** What the transport said about the command, beside its output. */
export interface PollTransport {
  code: number | null;
  timedOut?: boolean;
  truncated?: boolean;
  stderr?: string;
}

export function splitSections(text: string): Map<string, { body: string[]; rc: number | null }> {
  const out = new Map<string, { body: string[]; rc: number | null }>();
  let cur: { body: string[]; rc: number | null } | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith(SECTION)) {
      const name = line.slice(SECTION.length);
      const rc = /^rc=(\d+)$/.exec(name);
      if (rc && cur) cur.rc = Number(rc[1]);
      else if (!rc) out.set(name, (cur = { body: [], rc: null }));
      continue;
    }
    cur?.body.push(line);
  }
  return out;
}

const int = (v: string | undefined): number | null => (v !== undefined && /^-?\d+$/.test(v) ? Number(v) : null);

/** `systemctl show -p A,B` output: KEY=VALUE lines, in systemd's order, not the order asked. */
export function parseUnitShow(lines: readonly string[]): UnitState | null {
  const kv = new Map<string, string>();
  for (const l of lines) {
    const i = l.indexOf("=");
    if (i > 0) kv.set(l.slice(0, i), l.slice(i + 1));
  }
  if (!kv.has("ActiveState")) return null;
  return {
    activeState: kv.get("ActiveState") ?? "",
    subState: kv.get("SubState") ?? "",
    nRestarts: int(kv.get("NRestarts")),
    result: kv.get("Result") ?? "",
    execMainStatus: int(kv.get("ExecMainStatus")),
    execMainCode: kv.get("ExecMainCode") ?? "",
  };
}

/**
 * `podman container inspect --format "{{.Id}} {{.State.Status}} {{.State.ExitCode}} {{.Created}}"`; null when none
 * exists.
 */
export function parsePs(lines: readonly string[]): ContainerState | null {
  if (lines.some((l) => l.startsWith("InvocationID="))) return parseInstance(lines);
  let best: ContainerState | null = null;
  for (const l of lines) {
    const m = /^([0-9a-f]{12,64}) (\S+) (-?\d+) (.+)$/.exec(l.trim());
    if (!m) continue;
    const createdAtMs = parsePodmanTime(m[4]!);
    if (createdAtMs === null) continue;
    const c = { id: m[1]!, state: m[2]!, exitCode: Number(m[3]), createdAtMs };
    if (!best || c.createdAtMs > best.createdAtMs) best = c;
  }
  return best;
}

/**
 * instanceScript's answer, the unit's current run as a container: running while it has a main process.
 * null before its first start (no InvocationID) or when the start time is unreadable.
 */
export function parseInstance(lines: readonly string[]): ContainerState | null {
  const kv = new Map<string, string>();
  for (const l of lines) {
    const i = l.indexOf("=");
    if (i > 0) kv.set(l.slice(0, i), l.slice(i + 1).trim());
  }
  const id = kv.get("InvocationID") ?? "";
  const createdAtMs = unitStartMs(kv.get("ExecMainStartTimestamp") ?? "");
  if (!/^[0-9a-f]{32}$/.test(id) || createdAtMs === null) return null;
  const pid = int(kv.get("MainPID"));
  return {
    id,
    process: true,
    state: pid !== null && pid > 0 ? "running" : "exited",
    exitCode: int(kv.get("ExecMainStatus")),
    createdAtMs,
  };
}

/** `journalctl -o json --show-cursor`: JSON records, then `-- cursor: C` (absent when nothing was new). */
export function parseJournalChunk(lines: readonly string[]): JournalChunk {
  const json: string[] = [];
  const messages: string[] = [];
  const containers = new Set<string>();
  let cursor: string | null = null;
  for (const l of lines) {
    if (l.startsWith("-- cursor: ")) cursor = l.slice(11).trim();
    if (!l.startsWith("{")) continue;
    json.push(l);
    try {
      const rec = JSON.parse(l) as Record<string, unknown>;
      const bytes = messageBytes(rec.MESSAGE);
      if (bytes) for (const part of bytes.toString("utf8").split("\n")) if (part.trim()) messages.push(cleanLine(part));
      if (typeof rec.__CURSOR === "string") cursor = rec.__CURSOR;
      if (typeof rec.CONTAINER_NAME === "string") containers.add(rec.CONTAINER_NAME);
    } catch {
      // a line cut by the output cap: the full read at diagnosis time has it
    }
  }
  return { json, messages, containers: [...containers], cursor };
}

/**
 * A poll is an answer only when the clock, every section's exit code and the END line all arrived and the
 * command exited 0. Output cut by the byte cap is still an answer: every section but the journal's tail
 * finished, and the next poll reads on from the last whole record's cursor.
 */
export function pollCompleteness(s: ReturnType<typeof splitSections>, t: PollTransport): string | null {
  if (t.timedOut) return "the poll command timed out";
  if (!s.get("now")?.body.some((l) => /^\d+$/.test(l.trim()))) return "no host clock in the answer";
  const cut = t.truncated === true;
  for (const name of POLL_SECTIONS) {
    if (cut && name === "journal" && s.has(name)) continue;
    const sec = s.get(name);
    if (!sec) return `the answer stopped before its ${name} section`;
    if (sec.rc === null) return `the answer stopped inside its ${name} section`;
  }
  if (!cut && !s.has(END)) return "the answer has no end line";
  if (!cut && t.code !== 0)
    return `the poll command ended without an exit code (${t.code === null ? "channel or connection lost" : `exit ${t.code}`})`;
  return null;
}

export function parsePoll(text: string, transport: PollTransport = { code: 0 }): PollOutput {
  const s = splitSections(text);
  const errors: string[] = [];
  const now = s.get("now")?.body.find((l) => /^\d+$/.test(l.trim()));
  const unitSec = s.get("unit");
  const unit = unitSec ? parseUnitShow(unitSec.body) : null;
  if (!unit) errors.push(`systemctl show gave no unit state: ${unitSec?.body.join(" ").trim() || "no output"}`);
  const ps = s.get("ps");
  const psText = ps?.body.join(" ").trim() ?? "";
  if (ps && ps.rc !== 0 && !/no such (?:container|object)/i.test(psText))
    errors.push(
      `${/--timestamp|InvocationID/.test(psText) ? "systemctl show (the unit's run)" : "container inspect"} failed (exit ${ps.rc}): ${psText}`,
    );
  return {
    hostNowMs: now ? Math.floor(Number(BigInt(now.trim()) / 1_000_000n)) : null,
    unit,
    container: ps ? parsePs(ps.body) : null,
    journal: parseJournalChunk(s.get("journal")?.body ?? []),
    errors,
    incomplete: pollCompleteness(s, transport),
  };
}

/** The MARK_SCRIPT output: host clock in ms and the journal's cursor. */
export function parseMark(text: string): { hostNowMs: number | null; cursor: string | null } {
  const lines = text.split("\n");
  const ns = lines.find((l) => /^\d{12,}$/.test(l.trim()));
  const cur = lines.find((l) => l.startsWith("-- cursor: "));
  return {
    hostNowMs: ns ? Math.floor(Number(BigInt(ns.trim()) / 1_000_000n)) : null,
    cursor: cur ? cur.slice(11).trim() : null,
  };
}
