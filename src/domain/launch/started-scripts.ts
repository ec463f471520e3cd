// The serve scripts a file starts, as written: `./x.sh`, `bash x.sh`, `podman exec C /work/x.sh`, a unit started by
// `systemctl`, a tmux pane's typed line, a heredoc unit's `ExecStart=.../x.sh`. Pure: the callers pair the names
// with files (discovery's launchers, a built image's entrypoint that hands off to the repository's serve script).
import { basename } from "node:path";
import { scriptCommands } from "./group.js";
import { peel } from "./wrappers.js";
import type { Command } from "./model.js";

const SHELLS = /^(ba|da|z|k)?sh$/;

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
/** A script's commands as the launch parser groups them (without parse.ts, which reads compose files through here). */
const commandsOf = (text: string): Command[] => scriptCommands(text).state.commands;

export const UNIT_NAME = "systemctl:";

const typed = (line: string): string[] => commandsOf(line).flatMap(runs);

/** The serve scripts a file starts, as written: by its commands, or by a unit it writes (`ExecStart=.../x.sh`). */
export function startedScripts(text: string): Set<string> {
  const out = new Set<string>();
  if (!/\.(sh|command)\b|\bsystemctl\b/.test(text)) return out;
  for (const c of commandsOf(text)) for (const n of runs(c)) out.add(n);
  // (`ExecStart=/bin/bash -lc 'cd $REPO && bash run_server.sh'`: any word of the line that names a script)
  for (const m of text.matchAll(/^\s*ExecStart\s*=.*$/gm))
    for (const w of m[0].matchAll(/[^\s'"=;&|]+\.sh\b/g)) out.add(w[0]);
  return out;
}
