// Every host fact verify needs, from ONE remote command (one SSH round trip): NRestarts, the host clock,
// the state record, `podman inspect`, the container's PID 1 argv and environment, and this container's
// plan lines from the journal. buildFactsScript() makes the command; facts-parse.ts reads its answer.
import { randomBytes } from "node:crypto";
import { shellQuote } from "../../lib/shell-quote.js";
import type { ContainerCli } from "../../domain/launch/container-cli.js";
import { PLAN_KEYWORDS } from "../../domain/engine/plan.js";
import { statePath } from "../../domain/host-state.js";

export interface FactsRequest {
  /** container null: the engine runs straight under `service`; its current run and engine process stand in */
  endpoint: string;
  service: string | null;
  container: string | null;
  planPatterns?: readonly string[];
  installed?: readonly string[];
  /** the CLI that started the container (default podman): its inspect and exec */
  cli?: ContainerCli;
  /** the host directory mounted as the compile cache (verify.compile-cache: did it hold anything before this boot?) */
  cacheDir?: string | null;
}

// Filtered on the host: a long-running engine's journal is mostly access logs. Every engine's plan
// keywords (domain/engine/plan.ts), and what verify reads besides: vLLM's arguments, the readiness
// markers, the fork's plan lines.
const VERIFY_LINES = [
  "non-default args",
  "Application startup complete",
  "budget \\(total x util\\)",
  "expert cache space",
  "server is listening on http",
];
const JOURNAL_FILTER = [...PLAN_KEYWORDS, ...VERIFY_LINES].join("|");
// Spec-decode lines repeat every few seconds for the container's whole life: keep only the newest,
// and never let them push the boot's plan lines out.
const AWK = `/(SpecDecoding|Speculative) metrics: / { s = $0; next } /${JOURNAL_FILTER}/ && n++ < 2000 { print } END { if (s != "") print s }`;
export type Section =
  | "now"
  | "restarts"
  | "active"
  | "state"
  | "inspect"
  | "cmdline"
  | "environ"
  | "journal"
  | "planlines"
  | "gpu"
  | "earlier"
  | "installed"
  | "cacheage";
const NVIDIA_QUERY = "nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv,noheader,nounits";
// Whichever tool exists; bounded, since a wedged driver can hang an smi call.
const GPU =
  `if command -v nvidia-smi >/dev/null 2>&1; then echo nvidia-smi; timeout 15 ${NVIDIA_QUERY} 2>&1; ` +
  `elif command -v rocm-smi >/dev/null 2>&1; then echo rocm-smi; timeout 15 rocm-smi --showmeminfo vram 2>&1; fi`;
const COMPILE_LINE = "Compiling a graph|Directly load|torch\\.compile t";
/** The engine's process among a unit's (vLLM's engine-core workers do not match; a wrapper shell is skipped). */
const ENGINE_CMDLINE = "(^|/)vllm serve |(^|[ /])llama-server( |$)| -m (vllm\\.entrypoints|sglang\\.launch_server)";

/**
 * Without a container: the unit's run (InvocationID, start, main process) in the inspect section, and the
 * engine process found in the unit's cgroup (the main process may be a shell that did not exec).
 */
function directLines(svc: string): string[] {
  const props = "InvocationID,MainPID,ExecMainStartTimestamp,ActiveState,SubState,ControlGroup";
  // one systemctl show: the section prints it, id, pid and cgroup are read from it (systemd before 248 has no
  // --timestamp)
  const field = (k: string) => `$(printf '%s\\n' "$insp" | sed -n 's/^${k}=//p' | head -n1)`;
  return [
    `sec inspect; insp=$(systemctl show --timestamp=us+utc -p ${props} -- ${svc} 2>/dev/null || TZ=UTC systemctl show -p ${props} -- ${svc} 2>&1); printf '%s\\n' "$insp"`,
    `id=${field("InvocationID")}; pid=${field("MainPID")}; cg=${field("ControlGroup")}`,
    `for f in "/sys/fs/cgroup$cg/cgroup.procs" "/sys/fs/cgroup/systemd$cg/cgroup.procs"; do [ -n "$cg" ] && [ -r "$f" ] || continue; ` +
      // a shell whose -c string names the engine is its parent, not the engine: skipped
      `for p in $(cat "$f"); do a0=$(tr '\\0' '\\n' < /proc/$p/cmdline 2>/dev/null | head -n1); case "\${a0##*/}" in sh|bash|dash|zsh|ksh) continue;; esac; ` +
      `if tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | grep -qaE ${shellQuote(ENGINE_CMDLINE)}; then pid=$p; break; fi; done; break; done`,
    `rd() { if [ -n "$pid" ] && [ "$pid" != 0 ]; then cat /proc/$pid/$1 2>/dev/null; fi; }`,
  ];
}

export function buildFactsScript(
  req: FactsRequest,
  marker = `@@dg-${randomBytes(6).toString("hex")}`,
): { script: string; marker: string } {
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
    ...(direct && req.service
      ? directLines(svc)
      : [
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
    req.installed?.length
      ? `sec installed; sha256sum -- ${req.installed.map(q).join(" ")} 2>/dev/null`
      : "sec installed",
    direct
      ? `sec earlier; timeout 10 journalctl _SYSTEMD_UNIT=${svc} -b -o json --output-fields=_SYSTEMD_INVOCATION_ID,MESSAGE --no-pager -a 2>/dev/null | grep -aE ${q(COMPILE_LINE)} | grep -ao '"_SYSTEMD_INVOCATION_ID":"[0-9a-f]*"' | sort -u | grep -avc "\${id:-none}"`
      : `sec earlier; timeout 10 journalctl CONTAINER_NAME="$C" -b -o json --output-fields=CONTAINER_ID_FULL,MESSAGE --no-pager -a 2>/dev/null | grep -aE ${q(COMPILE_LINE)} | grep -ao '"CONTAINER_ID_FULL":"[0-9a-f]*"' | sort -u | grep -avc "\${id:-none}"`,
    // bounded: a cache of many graphs is thousands of files
    req.cacheDir
      ? `sec cacheage; [ -d ${q(req.cacheDir)} ] && timeout 10 find ${q(req.cacheDir)} -type f -printf '%T@\\n' 2>/dev/null | sort -n | head -n1`
      : "",
    `true`,
  ]
    .filter(Boolean)
    .join("\n");
  return { script, marker };
}
