// Files that start the repository's own serve script instead of an engine: a client that runs
// `./start_llama_server.sh "$MODEL" &` first, a wrapper that runs it inside a container (`podman exec C
// /work/start-llama.sh`), an installer whose heredoc unit has `ExecStart=${SCRIPT_DIR}/daemon.sh`. Each is checked with
// the script it starts (its findings name it as their launcher), so discovery finds it; a unit that runs such a
// wrapper pairs with the same script.
import { basename } from "node:path";
import { heredocAt } from "../../domain/launch/words.js";
import { startedScripts, UNIT_NAME } from "../../domain/launch/started-scripts.js";
import type { PreflightTarget } from "./targets.js";

const TEST_FILE = /(^|\/)(tests?|spec)\/|(^|\/)test[-_][^/]*$|[-_]test\.(ba)?sh$/;

/**
 * The serving script a written path names: the one whose path ends with it (`./scripts/miniVM/serve_t0.sh` is
 * scripts/miniVM/serve_t0.sh, not scripts/serve_t0.sh), else the one of its name.
 */
function servedBy(targets: readonly PreflightTarget[], written: string, from: string): PreflightTarget | undefined {
  if (written.startsWith(UNIT_NAME)) {
    const name = written.slice(UNIT_NAME.length);
    return targets.find((t) => !t.sharesFile && [t.unitPath, t.scriptPath].some((p) => p && basename(p) === name));
  }
  const scripts = targets.filter((t) => t.kind === "script" && !t.sharesFile && t.scriptPath !== from);
  const path = written.replace(/^(\.\/)+/, "");
  const ends = (t: PreflightTarget) => t.scriptPath === path || t.scriptPath.endsWith(`/${path}`);
  // a path from the repository's root names that file only; an absolute or ../ path may be an installed copy
  const rooted = path.includes("/") && !/^(\/|\.\.\/)|\$/.test(path);
  // (`agent_space/experiments/x/run-server.sh`: written from the directory above the checkout, the repository's
  // experiments/x/run-server.sh)
  if (rooted)
    return scripts.find(ends) ?? scripts.find((t) => t.scriptPath.includes("/") && path.endsWith(`/${t.scriptPath}`));
  return scripts.find((t) => basename(t.scriptPath) === basename(path));
}

/**
 * Pairs each candidate (a script that starts no engine itself) with every serving script it runs: that script's
 * target takes it as its launcher, or, when it already has one, a copy of the target does (checked with the
 * script, the script's own file checks once).
 */
export function pairScriptLaunchers(targets: PreflightTarget[], candidates: { file: string; text: string }[]): void {
  for (const cand of candidates) {
    // a test of the serve script runs it (often with a stub engine): it is no launch of the engine
    if (TEST_FILE.test(cand.file)) continue;
    const served = new Set<PreflightTarget>();
    for (const w of startedScripts(cand.text)) {
      const t = servedBy(targets, w, cand.file);
      if (t) served.add(t);
    }
    for (const t of served) {
      const span = heredocUnit(cand.text, basename(t.scriptPath));
      // the unit the installer writes is checked as the script's unit, at its lines in the installer
      const unit = span ? { unitPath: cand.file, unitSpan: span } : {};
      if (!t.launcher && !span) t.launcher = cand.file;
      else
        targets.push({
          ...t,
          ...unit,
          name: basename(cand.file),
          launcher: cand.file,
          sharesFile: true,
          unitOnly: true,
        });
    }
  }
}

/** The body of a heredoc that writes a unit whose ExecStart= runs `script`: its first and last line, or null. */
function heredocUnit(text: string, script: string): [number, number] | null {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.includes("<<")) continue;
    const doc = heredocAt(lines, i);
    if (!doc) continue;
    const runs = doc.body.some((l) => /^\s*ExecStart\s*=/.test(l) && l.includes(script));
    if (runs && doc.body.some((l) => /^\s*\[Service\]/.test(l))) return [i + 2, doc.end];
    i = doc.end;
  }
  return null;
}
