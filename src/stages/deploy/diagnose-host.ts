// What a failure under the engine needs from the host for its fix: who holds the port, which images are
// loaded, which User= the unit asks for. One SSH round trip, only for the classes that need it.
import type { BelowMatch } from "../../domain/diagnosis/below-engine.js";
import type { Host } from "../../ports/host/host.js";
import { shellJoin } from "../../lib/shell-quote.js";

export interface HostFacts {
  portOwner: string | null;
  localImages: string[];
  unitUser: string | null;
}

const MARK = "@@deploy-gate-facts:";

/**
 * The listener of a TCP port from /proc (no ss/netstat needed: minimal hosts lack them): its socket inode,
 * then the process holding it, with its cgroup (the unit) and command line (conmon's `-n NAME` is the container).
 */
export function portOwnerScript(port: number): string {
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`not a port: ${port}`);
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  return [
    `inodes=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '$4=="0A" && substr($2, length($2)-4)==":${hex}" {print $10}' | sort -u)`,
    `for i in $inodes; do for fd in /proc/[0-9]*/fd/*; do [ "$(readlink "$fd" 2>/dev/null)" = "socket:[$i]" ] || continue; p=\${fd#/proc/}; p=\${p%%/*}; ` +
      `echo "pid=$p comm=$(cat /proc/$p/comm 2>/dev/null | tr ' ' _) exe=$(readlink /proc/$p/exe 2>/dev/null | sed 's/ (deleted)$//; s,.*/,,' | tr ' ' _) name=$(tr '\\0' '\\n' < /proc/$p/cmdline 2>/dev/null | sed -n '/^-n$/{n;p;q;}') cgroup=$(sed -n '$s/^[0-9]*:[^:]*://p' /proc/$p/cgroup 2>/dev/null) cmd=$(tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -c1-200)"; done; done | sort -u | head -5`,
  ].join("; ");
}

export function hostFactsScript(m: BelowMatch, service: string): string | null {
  const f = m.facts;
  if (f.what === "port-in-use" && f.port) return `echo ${MARK}port; ${portOwnerScript(f.port)}`;
  if (f.what === "image-not-found")
    return `echo ${MARK}images; ${m.layer === "docker" ? "docker" : "podman"} images --format '{{.Repository}}:{{.Tag}}' 2>/dev/null | head -50`;
  if (f.what === "user")
    return `echo ${MARK}user; ${shellJoin(["systemctl", "show", "-p", "User", "--value", "--", service])}`;
  return null;
}

/**
 * `pid=3985 comm=conmon exe=conmon name=NAME cgroup=/system.slice/x.service cmd=/usr/bin/conmon …` → a name a person
 * acts on.
 */
export function describeOwner(line: string): string | null {
  const m = /^pid=(\d+) comm=(\S*) (?:exe=(\S*) )?name=(\S*) cgroup=(\S*) cmd=(.*)$/.exec(line.trim());
  if (!m) return null;
  const [, pid, comm, exe, name, cgroup, cmd] = m;
  // conmon runs in the cgroup of whoever ran podman: the container's name is what a person acts on.
  if ((exe || comm) === "conmon" && name) return `container ${name} (conmon pid ${pid})`;
  const unit = /(?<![\w@.:-])([\w@.:-]+\.(?:service|scope))$/.exec(cgroup!)?.[1];
  // comm is the main thread's name, which programs rename (Node 24: "MainThread"): trust it only when the
  // command line names it (a script run by an interpreter: comm "vllm"), else name the program (exe)
  const named =
    !!comm &&
    cmd!
      .trim()
      .split(/\s+/)
      .slice(0, 2)
      .some((w) => w.split("/").pop()!.startsWith(comm));
  const who = `${(named ? comm : exe || comm) || "a process"} (pid ${pid}: ${cmd!.trim().slice(0, 120)})`;
  return unit ? `${who} in ${unit}` : who;
}

export function parseHostFacts(text: string): HostFacts {
  const out: HostFacts = { portOwner: null, localImages: [], unitUser: null };
  let section = "";
  for (const line of text.split("\n")) {
    if (line.startsWith(MARK)) {
      section = line.slice(MARK.length).trim();
      continue;
    }
    const t = line.trim();
    if (!t) continue;
    if (section === "port") out.portOwner ??= describeOwner(t);
    else if (section === "images" && !t.startsWith("<none>")) out.localImages.push(t);
    else if (section === "user") out.unitUser = t;
  }
  return out;
}

export async function lookupHostFacts(host: Host, m: BelowMatch, service: string): Promise<HostFacts | null> {
  const script = hostFactsScript(m, service);
  if (!script) return null;
  const r = await host.runShell(script, { timeoutMs: 30_000, maxOutputBytes: 1 << 20 }).catch(() => null);
  return r ? parseHostFacts(r.stdout) : null;
}
