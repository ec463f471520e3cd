// Files that start the repository's own serve script instead of an engine: a client that runs
// `./start_llama_server.sh "$MODEL" &` first, a wrapper that runs it inside a container (`podman exec C
// /work/start-llama.sh`), an installer whose heredoc unit has `ExecStart=${SCRIPT_DIR}/daemon.sh`. Each is checked with
// the script it starts (its findings name it as their launcher), so discovery finds it; a unit that runs such a
// wrapper pairs with the same script.
import { basename } from "node:path";
import { parseServeScript } from "../../domain/launch/parse.js";
import { heredocAt } from "../../domain/launch/words.js";
import { peel } from "../../domain/launch/wrappers.js";
import type { Command } from "../../domain/launch/model.js";
import type { PreflightTarget } from "./targets.js";

const SHELLS = /^(ba|da|z|k)?sh$/;
const TEST_FILE = /(^|\/)(tests?|spec)\/|(^|\/)test[-_][^/]*$|[-_]test\.(ba)?sh$/;

/** A word that names a script file: a path, or a name ending in .sh (or macOS's .command). */
const scriptWord = (w: string) => w.includes("/") || /\.((ba)?sh|command)$/.test(w);

/** The scripts a command runs, as written: `./x.sh`, `bash x.sh`, `podman exec C /work/x.sh` (any word after). */
function runs(c: Command): string[] {
  // (past srun, `conda run`, taskset...: `srun --container-image=IMG bash /workspace/scripts/serve.sh`)
  const w = peel(c.words).map((x) => x.text);
  const prog = basename(w[0] ?? "");
  if (SHELLS.test(prog)) return w[1] && !w[1].startsWith("-") ? [w[1]] : [];
  if ((prog === "podman" || prog === "docker") && w[1] === "exec") return w.slice(2).filter(scriptWord);
  // `systemctl restart llama-server.service`: the repository's own unit, started by its name
  if (prog === "systemctl") {
    // (`systemctl enable --now "${SERVICE_NAME}"`: the unit the variable holds)
    const args = peel(c.words)
      .slice(1)
      .map((x) => x.resolved || x.text)
      .filter((x) => !x.startsWith("-"));
    // (`enable` starts the unit only with --now)
    const starts = /^(start|restart|try-restart|reload-or-restart)$/.test(args[0] ?? "");
    if (starts || (args[0] === "enable" && w.includes("--now")))
      return args.slice(1).map((u) => `${UNIT_NAME}${/\.service$/.test(u) ? u : `${u}.service`}`);
  }
  // `tmux send-keys -t PANE 'CUDA_VISIBLE_DEVICES=0 ./serve.sh' C-m`: the pane's shell runs the typed line
  if (prog === "tmux" && w[1] === "send-keys" && w.some((x) => x === "C-m" || x === "Enter"))
    return w.slice(2).flatMap((x) => (/\s/.test(x) || scriptWord(x) ? typed(x) : []));
  // `tmux new-window -t S -n vllm "$CMD"`: the window's shell runs its last word (the string CMD holds)
  if (prog === "tmux" && /^(new-window|neww|new-session|new|split-window|splitw)$/.test(w[1] ?? "")) {
    const last = peel(c.words).at(-1);
    const line = last?.resolved ?? last?.text ?? "";
    if (w.length <= 2 || line.startsWith("-")) return [];
    // (the words a quoted "$CMD" held, when the string is known only with a variable left in it)
    return last?.held ? runs({ ...c, words: last.held }) : typed(line);
  }
  return w[0] && scriptWord(w[0]) ? [w[0]] : [];
}

/** A unit named to systemctl (no path: systemd finds it by name) */
const UNIT_NAME = "systemctl:";

const typed = (line: string): string[] => parseServeScript(line, { heredocs: false }).commands.flatMap(runs);

/** The serve scripts a file starts, as written: by its commands, or by a unit it writes (`ExecStart=.../x.sh`). */
export function startedScripts(text: string): Set<string> {
  const out = new Set<string>();
  if (!/\.(sh|command)\b|\bsystemctl\b/.test(text)) return out;
  for (const c of parseServeScript(text, { heredocs: false }).commands) for (const n of runs(c)) out.add(n);
  // (`ExecStart=/bin/bash -lc 'cd $REPO && bash run_server.sh'`: any word of the line that names a script)
  for (const m of text.matchAll(/^\s*ExecStart\s*=.*$/gm))
    for (const w of m[0].matchAll(/[^\s'"=;&|]+\.sh\b/g)) out.add(w[0]);
  return out;
}

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
