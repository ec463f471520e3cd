// Every host fact verify needs, from ONE remote command (one SSH round trip): NRestarts, the host clock,
// the state record, `podman inspect`, the container's PID 1 argv and environment, and this container's
// plan lines from the journal. buildFactsScript() makes the command; parseFacts() is pure.
import { randomBytes } from "node:crypto";
import { parseHostCopies } from "../deploy/install-plan.js";
import { unitStartMs } from "../deploy/poll-parse.js";
import { shellQuote } from "../../lib/shell-quote.js";
import type { ContainerCli } from "../../domain/launch/container-cli.js";
import type { StateRecord } from "../context.js";
import { parseStateRecord, statePath } from "../context.js";

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
  /** the compile-cache mount's host directory: mtime (ms) of its oldest file; null: empty or missing; absent: not asked */
  cacheOldestMs?: number | null;
}

export interface FactsRequest {
  /** container null: the engine runs straight under `service`; its current run and engine process stand in */
  endpoint: string; service: string | null; container: string | null; planPatterns?: readonly string[]; installed?: readonly string[];
  /** the CLI that started the container (default podman): its inspect and exec */
  cli?: ContainerCli;
  /** the host directory mounted as the compile cache (verify.compile-cache: did it hold anything before this boot?) */
  cacheDir?: string | null;
}

// Filtered on the host: a long-running engine's journal is mostly access logs.
// SGLang's and llama-server's plan lines (engine/peer-plan.ts) too.
const JOURNAL_FILTER = "KV cache|concurrency|GPU blocks|Model loading|model weights|Graph capturing|CUDA graph memory|torch\\.compile|non-default args|Application startup complete|budget \\(total x util\\)|expert cache space|Compiling a graph|Directly load"
  + "|KV Cache is allocated|max_total_num_tokens|Load weight end|Capture cuda graph end|n_ctx|server is listening on http";
// Spec-decode lines repeat every few seconds for the container's whole life: keep only the newest,
// and never let them push the boot's plan lines out.
const AWK = `/(SpecDecoding|Speculative) metrics: / { s = $0; next } /${JOURNAL_FILTER}/ && n++ < 2000 { print } END { if (s != "") print s }`;
type Section = "now" | "restarts" | "active" | "state" | "inspect" | "cmdline" | "environ" | "journal" | "planlines" | "gpu" | "earlier" | "installed" | "cacheage";
const NVIDIA_QUERY = "nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv,noheader,nounits";
// Whichever tool exists; bounded, since a wedged driver can hang an smi call.
const GPU = `if command -v nvidia-smi >/dev/null 2>&1; then echo nvidia-smi; timeout 15 ${NVIDIA_QUERY} 2>&1; `
  + `elif command -v rocm-smi >/dev/null 2>&1; then echo rocm-smi; timeout 15 rocm-smi --showmeminfo vram 2>&1; fi`;
const COMPILE_LINE = "Compiling a graph|Directly load|torch\\.compile t";
/** The engine's process among a unit's (vLLM's engine-core workers do not match; a wrapper shell is skipped). */
const ENGINE_CMDLINE = "(^|/)vllm serve |(^|[ /])llama-server( |$)| -m (vllm\\.entrypoints|sglang\\.launch_server)";

/**
 * Without a container: the unit's run (InvocationID, start, main process) in the inspect section, and the
 * engine process found in the unit's cgroup (the main process may be a shell that did not exec).
 */
function directLines(svc: string): string[] {
  const props = "InvocationID,MainPID,ExecMainStartTimestamp,ActiveState,SubState,ControlGroup";
  // one systemctl show: the section prints it, id, pid and cgroup are read from it (systemd before 248 has no --timestamp)
  const field = (k: string) => `$(printf '%s\\n' "$insp" | sed -n 's/^${k}=//p' | head -n1)`;
  return [
    `sec inspect; insp=$(systemctl show --timestamp=us+utc -p ${props} -- ${svc} 2>/dev/null || TZ=UTC systemctl show -p ${props} -- ${svc} 2>&1); printf '%s\\n' "$insp"`,
    `id=${field("InvocationID")}; pid=${field("MainPID")}; cg=${field("ControlGroup")}`,
    `for f in "/sys/fs/cgroup$cg/cgroup.procs" "/sys/fs/cgroup/systemd$cg/cgroup.procs"; do [ -n "$cg" ] && [ -r "$f" ] || continue; `
      // a shell whose -c string names the engine is its parent, not the engine: skipped
      + `for p in $(cat "$f"); do a0=$(tr '\\0' '\\n' < /proc/$p/cmdline 2>/dev/null | head -n1); case "\${a0##*/}" in sh|bash|dash|zsh|ksh) continue;; esac; `
      + `if tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -qaE ${shellQuote(ENGINE_CMDLINE)}; then pid=$p; break; fi; done; break; done`,
    `rd() { if [ -n "$pid" ] && [ "$pid" != 0 ]; then cat /proc/$pid/$1 2>/dev/null; fi; }`,
  ];
}

export function buildFactsScript(req: FactsRequest, marker = `@@dg-${randomBytes(6).toString("hex")}`): { script: string; marker: string } {
  const q = shellQuote;
  const svc = req.service ? q(req.service) : "";

  const direct = req.container === null;
  // this container instance's journal, or this run of the unit's
  const mine = direct ? `_SYSTEMD_INVOCATION_ID="$id"` : `CONTAINER_ID_FULL="$id"`;
  const script = [
    `M=${q(marker)}; C=${q(req.container ?? "")}; RT=${q(req.cli ?? "podman")}`,
    `sec() { printf '\\n%s:%s\\n' "$M" "$1"; }`,
    `sec now; date +%s%3N`,
    req.service ? `sec restarts; systemctl show -p NRestarts --value -- ${svc} 2>&1` : "sec restarts",
    req.service ? `sec active; systemctl show -p ActiveState --value -- ${svc} 2>&1` : "sec active",
    `sec state; cat ${q(statePath(req.endpoint))} 2>/dev/null`,
    ...(direct && req.service ? directLines(svc) : [
      `sec inspect; insp=$("$RT" inspect --type container "$C" 2>&1); printf '%s\\n' "$insp"`,
      `id=$(printf '%s\\n' "$insp" | sed -n 's/^ *"Id": "\\([0-9a-f]\\{64\\}\\)".*/\\1/p' | head -n1)`,
      `pid=$(printf '%s\\n' "$insp" | sed -n 's/^ *"Pid": \\([0-9]*\\),*$/\\1/p' | head -n1)`,
      // The host's /proc/<pid> is the container's PID 1: no podman exec needed when it is readable.
      `rd() { if [ -n "$pid" ] && [ "$pid" != 0 ] && [ -r /proc/$pid/$1 ]; then cat /proc/$pid/$1; else "$RT" exec "$C" cat /proc/1/$1 2>/dev/null; fi; }`,
    ]),
    `sec cmdline; [ -n "$id" ] && rd cmdline | base64 -w0`,
    `sec environ; [ -n "$id" ] && rd environ | base64 -w0`,
    `sec journal; [ -n "$id" ] && journalctl ${mine} -o cat --no-pager -a 2>/dev/null | awk ${q(AWK)}`,
    req.planPatterns?.length
      ? `sec planlines; [ -n "$id" ] && journalctl ${mine} -o cat --no-pager -a 2>/dev/null | grep -aP ${q(req.planPatterns.map((p) => `(?:${p})`).join("|"))} | tail -n 500`
      : "sec planlines",
    `sec gpu; ${GPU}`,
    // Distinct earlier instances (container ids) of this name that logged torch.compile.
    // This host boot only and bounded: a long-lived container name has months of access logs.
    // the files deploy.install wrote, as they are now: a hand edit shows before the next restart runs it
    req.installed?.length ? `sec installed; sha256sum -- ${req.installed.map(q).join(" ")} 2>/dev/null` : "sec installed",
    direct
      ? `sec earlier; timeout 10 journalctl _SYSTEMD_UNIT=${svc} -b -o json --output-fields=_SYSTEMD_INVOCATION_ID,MESSAGE --no-pager -a 2>/dev/null | grep -aE ${q(COMPILE_LINE)} | grep -ao '"_SYSTEMD_INVOCATION_ID":"[0-9a-f]*"' | sort -u | grep -avc "\${id:-none}"`
      : `sec earlier; timeout 10 journalctl CONTAINER_NAME="$C" -b -o json --output-fields=CONTAINER_ID_FULL,MESSAGE --no-pager -a 2>/dev/null | grep -aE ${q(COMPILE_LINE)} | grep -ao '"CONTAINER_ID_FULL":"[0-9a-f]*"' | sort -u | grep -avc "\${id:-none}"`,
    // bounded: a cache of many graphs is thousands of files
    req.cacheDir ? `sec cacheage; [ -d ${q(req.cacheDir)} ] && timeout 10 find ${q(req.cacheDir)} -type f -printf '%T@\\n' 2>/dev/null | sort -n | head -n1` : "",
    `true`,
  ].filter(Boolean).join("\n");
  return { script, marker };
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
  const kv = new Map(text.split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).trim()] as const));
  const id = kv.get("InvocationID") ?? "";
  if (!/^[0-9a-f]{32}$/.test(id)) return { container: null, error: `the unit has no current run (${text.trim().split("\n")[0] || "systemctl show printed nothing"})` };
  const started = kv.get("ExecMainStartTimestamp") ?? "";
  const ms = unitStartMs(started);
  const pid = Number(kv.get("MainPID") ?? 0);
  const state = `${kv.get("ActiveState") ?? "unknown"} (${kv.get("SubState") ?? "?"})`;
  return {
    container: { id, name: "", createdText: started, createdMs: ms, startedMs: ms, status: state, running: pid > 0 && kv.get("ActiveState") === "active", pid, configEnv: [], unitRun: true },
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
  return state ? { state, error: null } : { state: null, error: "the state record on the host is unreadable (not JSON, or no ref/sha/deployedAt)" };
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
    ...(s.has("cacheage") ? { cacheOldestMs: /^\d+(\.\d+)?$/.test(line("cacheage")) ? Math.round(Number(line("cacheage")) * 1000) : null } : {}),
  };
}

/** `sha256sum` lines (`HASH  PATH`), read as deploy.install reads them; a path it could not read is absent. */
function parseSums(text: string): Map<string, string | null> {
  return new Map([...parseHostCopies(text, "")].map(([path, c]) => [path, c.sha256]));
}
