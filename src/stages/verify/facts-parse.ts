// The answer to facts-script.ts's one remote command, read into HostFacts. Pure.
import type { StateRecord } from "../../domain/host-state.js";
import { parseStateRecord } from "../../domain/host-state.js";
import { parseHostCopies, unitStartMs } from "../../domain/host-output.js";
import type { Section } from "./facts-script.js";

export interface ContainerFacts {
  id: string;
  name: string;
  createdText: string;
  createdMs: number | null;
  startedMs: number | null;
  status: string;
  running: boolean;
  pid: number;
  /** Config.Env from inspect: what podman was asked to set (the process environ is preferred) */
  configEnv: string[];
  /** the unit's own run (no container): there is no Config.Env to fall back on */
  unitRun?: true;
}

export interface HostFacts {
  hostNowMs: number | null;
  nRestarts: number | null;
  nRestartsRaw: string;
  activeState: string | null;
  state: StateRecord | null;
  stateError: string | null;
  container: ContainerFacts | null;
  inspectError: string | null;
  /** PID 1 of the container, NUL-split; null when it could not be read */
  argv: string[] | null;
  env: Map<string, string> | null;
  /** plan, non-default-args and spec-decode lines of this container instance, oldest first */
  journal: string[];
  /** lines of this container instance matching the user's contracts.plan patterns */
  planLines: string[];
  /** which smi tool answered (null: neither exists) and its output, for verify.vram */
  gpu: { tool: "nvidia-smi" | "rocm-smi" | null; output: string };
  /** earlier instances of this container name whose boot logged torch.compile (verify.compile-cache) */
  earlierCompileBoots: number;
  /** sha256 of each installed file asked for (null: unreadable or missing) */
  installed: Map<string, string | null>;
  /**
   * the compile-cache mount's host directory: mtime (ms) of its oldest file; null: empty or missing; absent: not asked
   */
  cacheOldestMs?: number | null;
}

function split(stdout: string, marker: string): Map<Section, string> {
  const out = new Map<Section, string>();
  const re = new RegExp(`\\n${marker.replace(/[^\w@-]/g, "\\$&")}:(\\w+)\\n`, "g");
  const text = `\n${stdout}`;
  const hits = [...text.matchAll(re)];
  hits.forEach((m, i) => {
    const start = m.index! + m[0].length;
    const end = i + 1 < hits.length ? hits[i + 1]!.index! : text.length;
    out.set(m[1] as Section, text.slice(start, end));
  });
  return out;
}

/** RFC 3339 with nanoseconds (podman inspect) -> epoch ms; null when unreadable or the zero time. */
export function parseTime(text: string | undefined): number | null {
  if (!text || text.startsWith("0001-")) return null;
  const ms = Date.parse(text.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isFinite(ms) ? ms : null;
}

/** directLines' inspect section: the unit's run as the container (its InvocationID, start and main process). */
function parseUnitRun(text: string): { container: ContainerFacts | null; error: string | null } {
  const kv = new Map(
    text.split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).trim()] as const),
  );
  const id = kv.get("InvocationID") ?? "";
  if (!/^[0-9a-f]{32}$/.test(id))
    return {
      container: null,
      error: `the unit has no current run (${text.trim().split("\n")[0] || "systemctl show printed nothing"})`,
    };
  const started = kv.get("ExecMainStartTimestamp") ?? "";
  const ms = unitStartMs(started);
  const pid = Number(kv.get("MainPID") ?? 0);
  const state = `${kv.get("ActiveState") ?? "unknown"} (${kv.get("SubState") ?? "?"})`;
  return {
    container: {
      id,
      name: "",
      createdText: started,
      createdMs: ms,
      startedMs: ms,
      status: state,
      running: pid > 0 && kv.get("ActiveState") === "active",
      pid,
      configEnv: [],
      unitRun: true,
    },
    error: null,
  };
}

function parseInspect(text: string): { container: ContainerFacts | null; error: string | null } {
  if (/^InvocationID=/m.test(text)) return parseUnitRun(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { container: null, error: text.trim().split("\n")[0] || "inspect printed nothing" };
  }
  const c = (Array.isArray(json) ? json[0] : null) as Record<string, unknown> | null;
  if (!c) return { container: null, error: "inspect found no such container" };
  const state = (c.State ?? {}) as Record<string, unknown>;
  const config = (c.Config ?? {}) as Record<string, unknown>;
  return {
    container: {
      id: String(c.Id ?? ""),
      name: String(c.Name ?? "").replace(/^\//, ""), // docker: "/NAME"
      createdText: String(c.Created ?? ""),
      createdMs: parseTime(c.Created as string | undefined),
      startedMs: parseTime(state.StartedAt as string | undefined),
      status: String(state.Status ?? "unknown"),
      running: state.Running === true,
      pid: Number(state.Pid ?? 0),
      configEnv: Array.isArray(config.Env) ? (config.Env as unknown[]).map(String) : [],
    },
    error: null,
  };
}

function nulSplit(b64: string | undefined): string[] | null {
  const text = Buffer.from((b64 ?? "").trim(), "base64").toString("utf8");
  if (text === "") return null;
  const parts = text.split("\0");
  if (parts.at(-1) === "") parts.pop();
  return parts;
}

export function envMap(pairs: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of pairs) {
    const eq = p.indexOf("=");
    if (eq > 0) m.set(p.slice(0, eq), p.slice(eq + 1));
  }
  return m;
}

function parseState(text: string): { state: StateRecord | null; error: string | null } {
  if (text.trim() === "") return { state: null, error: null };
  const state = parseStateRecord(text);
  return state
    ? { state, error: null }
    : { state: null, error: "the state record on the host is unreadable (not JSON, or no ref/sha/deployedAt)" };
}

function parseGpu(text: string): HostFacts["gpu"] {
  const body = text.replace(/^\n+/, "");
  const nl = body.indexOf("\n");
  const first = (nl < 0 ? body : body.slice(0, nl)).trim();
  const tool = first === "nvidia-smi" || first === "rocm-smi" ? first : null;
  return { tool, output: tool && nl >= 0 ? body.slice(nl + 1) : "" };
}

export function parseFacts(stdout: string, marker: string): HostFacts {
  const s = split(stdout, marker);
  const line = (k: Section) => (s.get(k) ?? "").trim();
  const restarts = line("restarts");
  const n = /^\d+$/.test(restarts) ? Number(restarts) : null;
  const { container, error } = parseInspect(s.get("inspect") ?? "");
  const { state, error: stateError } = parseState(s.get("state") ?? "");
  const environ = nulSplit(s.get("environ"));
  const now = Number(line("now"));
  return {
    hostNowMs: Number.isFinite(now) && now > 0 ? now : null,
    nRestarts: n,
    nRestartsRaw: restarts,
    activeState: line("active") || null,
    state,
    stateError,
    container,
    inspectError: error,
    argv: nulSplit(s.get("cmdline")),
    // an engine the unit runs itself has no Config.Env: an unreadable environ (/proc/PID/environ is the
    // process owner's and root's only) is "not read", never an empty environment with every knob missing
    env: environ ? envMap(environ) : container && !container.unitRun ? envMap(container.configEnv) : null,
    journal: (s.get("journal") ?? "").split("\n").filter((l) => l.trim() !== ""),
    planLines: (s.get("planlines") ?? "").split("\n").filter((l) => l.trim() !== ""),
    gpu: parseGpu(s.get("gpu") ?? ""),
    earlierCompileBoots: /^\d+$/.test(line("earlier")) ? Number(line("earlier")) : 0,
    installed: parseSums(s.get("installed") ?? ""),
    ...(s.has("cacheage")
      ? { cacheOldestMs: /^\d+(\.\d+)?$/.test(line("cacheage")) ? Math.round(Number(line("cacheage")) * 1000) : null }
      : {}),
  };
}

/** `sha256sum` lines (`HASH  PATH`), read as deploy.install reads them; a path it could not read is absent. */
function parseSums(text: string): Map<string, string | null> {
  return new Map([...parseHostCopies(text, "")].map(([path, c]) => [path, c.sha256]));
}
