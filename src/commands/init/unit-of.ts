// Which unit runs a serve script: the repository's *.service whose ExecStart= names the script's file,
// as installed (serve-archon.sh is often installed as serve_archon.sh). Pure.
import { basename } from "node:path";

/** A file name as it may be installed: case-blind, `-` and `_` alike. */
const installedName = (path: string) => basename(path).toLowerCase().replace(/_/g, "-");

/** The words of a unit's ExecStart= lines (systemd's -@:+! prefixes and quotes dropped). */
function execStartWords(text: string): string[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((l) => /^\s*ExecStart\s*=/.test(l))
    .flatMap((l) => l.slice(l.indexOf("=") + 1).split(/\s+/))
    .map((w) => w.replace(/^[-@:+!]+/, "").replace(/^["']|["';]$/g, ""))
    .filter(Boolean);
}

/** The unit (path) that runs the script, or null when none or more than one does. */
export function unitOf(scriptPath: string, units: readonly { path: string; text: string }[]): string | null {
  const name = installedName(scriptPath);
  const hits = units.filter((u) => execStartWords(u.text).some((w) => installedName(w) === name));
  return hits.length === 1 ? hits[0]!.path : null;
}
