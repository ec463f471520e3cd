// The program a command really runs, past the wrappers that start it: systemd-run, environment runners (`uv run`,
// `conda run -n env`), CPU pinners (taskset, numactl), Slurm's srun, screen and tmux, apptainer, distrobox and
// toolbox, `docker|podman exec` into a running container, Nsight Systems' `nsys profile`. Each wrapper's options
// that take a value are known, so the program is never mistaken for one. Pure.
import type { Word } from "./model.js";
import { basename, programWords } from "./words.js";

/** toolbox run's value-taking options (toolbox(1): --container/-c NAME, --distro/-d, --release/-r) */
const TOOLBOX_VALUE = new Set(["-c", "--container", "-d", "--distro", "-r", "--release"]);

/**
 * `docker|podman|nerdctl [container] exec`'s value-taking options (docker's cli/command/container/exec.go;
 * podman-exec(1) adds --cidfile and --preserve-fd(s)); podman's --latest/-l names no container
 */
const EXEC_VALUE = new Set([
  "-e",
  "--env",
  "--env-file",
  "-u",
  "--user",
  "-w",
  "--workdir",
  "--detach-keys",
  "--cidfile",
  "--preserve-fds",
  "--preserve-fd",
]);
const EXEC_CLIS = new Set(["docker", "podman", "nerdctl"]);

const SYSTEMD_RUN_VALUE = new Set([
  "-u",
  "--unit",
  "-p",
  "--property",
  "--description",
  "--slice",
  "--uid",
  "--gid",
  "--nice",
  "-E",
  "--setenv",
  "--working-directory",
  "-H",
  "--host",
  "-M",
  "--machine",
  "--on-active",
  "--on-boot",
  "--on-calendar",
  "--timer-property",
]);

/** Environment runners (`uv run`, `conda run -n env`...) and their options that take a value. */
const RUNNERS = new Set(["uv", "conda", "mamba", "micromamba", "poetry", "pipenv", "pixi", "pdm", "hatch"]);
const RUNNER_VALUE = new Set([
  "-n",
  "--name",
  "-p",
  "--prefix",
  "--with",
  "--python",
  "--env-file",
  "--extra",
  "--group",
  "--project",
  "--directory",
  "--index",
  "-e",
  "--environment",
  "--manifest-path",
]);
/** srun's options that take the next word as their value when not written --opt=value (srun(1)) */
const SRUN_VALUE = new Set(
  "-p --partition -n --ntasks -N --nodes -c --cpus-per-task -t --time -J --job-name -o --output -e --error -w --nodelist -x --exclude -A --account -q --qos -G --gpus --gres --mem --ntasks-per-node --gpus-per-node --gpus-per-task --mem-per-cpu --mem-per-gpu -C --constraint -D --chdir --mpi --export --quotatype".split(
    " ",
  ),
);

/** numactl's short options that take a value as the next word (long ones are written --opt=value) */
const NUMACTL_VALUE = new Set(["-C", "-N", "-m", "-i", "-p"]);

/** screen's options that take a value (a group such as -dmS takes one when it ends in one of them) */
const SCREEN_VALUE = /^-([A-Za-z]*[Scehpt]|Logfile)$/;
/** apptainer/singularity exec options that take a value (-e is --cleanenv there, no value) */
const APPTAINER_VALUE = new Set([
  "-B",
  "--bind",
  "--mount",
  "--env",
  "--env-file",
  "-H",
  "--home",
  "--pwd",
  "-o",
  "--overlay",
  "-W",
  "--workdir",
  "-S",
  "--scratch",
  "--security",
  "--network",
  "--network-args",
  "--app",
  "--hostname",
  "--dns",
  "--no-mount",
  "--add-caps",
  "--drop-caps",
  "--apply-cgroups",
  "--cpus",
  "--memory",
]);
/** tmux: global options with a value, then those of the commands that start a shell command */
const TMUX_GLOBAL_VALUE = new Set(["-L", "-S", "-f", "-c", "-T"]);
const TMUX_VALUE = new Set(["-c", "-e", "-F", "-f", "-n", "-s", "-t", "-x", "-y", "-l"]);
const TMUX_STARTS = new Set([
  "new-session",
  "new",
  "new-window",
  "neww",
  "split-window",
  "splitw",
  "respawn-pane",
  "respawnp",
  "respawn-window",
  "respawnw",
  "send-keys",
  "send",
]);

/** Skips options from `i`; `withValue` options take the next word. */
export function skipOptions(w: readonly Word[], i: number, withValue: ReadonlySet<string>): number {
  while (i < w.length && w[i]!.text.startsWith("-")) i += withValue.has(w[i]!.text) ? 2 : 1;
  return i;
}

/** The words of the program that really runs, past wrappers, systemd-run, env runners and CPU pinners. */
export function peel(words: readonly Word[]): Word[] {
  let w = programWords(words);
  for (let guard = 0; guard < 4 && w[0]; guard++) {
    // `"$CONDA" run -n env vllm serve ...` with CONDA="${CONDA:-/opt/miniforge/bin/conda}": the program it names
    const known = w[0].resolved && /^\S+$/.test(w[0].resolved) ? w[0].resolved : w[0].text;
    const prog = basename(known);
    if (prog === "systemd-run") w = programWords(w.slice(skipOptions(w, 1, SYSTEMD_RUN_VALUE)));
    else if (RUNNERS.has(prog) && w[1]?.text === "run") w = runnerProgram(w, prog);
    // taskset [-c] MASK|LIST PROGRAM: one positional before the program
    else if (prog === "taskset") w = programWords(w.slice(skipOptions(w, 1, new Set()) + 1));
    else if (prog === "numactl") w = programWords(w.slice(skipOptions(w, 1, NUMACTL_VALUE)));
    // Nsight Systems: `nsys profile|launch [options] PROGRAM ...` profiles the program it starts; its options take a
    // value (`-o FILE`, `--trace=cuda,nvtx`, `--duration 60`), given after `=` or as the next word
    else if (prog === "nsys" && (w[1]?.text === "profile" || w[1]?.text === "launch"))
      w = programWords(w.slice(nsysProgram(w)));
    // Slurm: srun [options] PROGRAM ... runs the program on the allocation
    else if (prog === "srun") w = programWords(w.slice(skipOptions(w, 1, SRUN_VALUE)));
    // screen -dmS NAME PROGRAM ...; `screen -S NAME -X quit` sends a screen command and starts nothing
    else if (prog === "screen")
      w = w.some((x) => /^-[A-Za-z]*X$/.test(x.text)) ? [] : programWords(w.slice(skipScreen(w)));
    // apptainer exec [options] IMAGE PROGRAM ...: the program runs in the image, as with a container run
    else if ((prog === "apptainer" || prog === "singularity") && w[1]?.text === "exec")
      w = programWords(w.slice(skipOptions(w, 2, APPTAINER_VALUE) + 1));
    // distrobox enter [options] [NAME] -- PROGRAM ...: the program runs in an existing container, after `--`
    // (distrobox-enter reads everything after -- as the command); toolbox run [-c NAME] PROGRAM likewise
    else if (prog === "distrobox" && w[1]?.text === "enter") {
      const dash = w.findIndex((x) => x.text === "--");
      w = dash > 1 ? programWords(w.slice(dash + 1)) : [];
    } else if (prog === "toolbox" && w[1]?.text === "run") w = programWords(w.slice(skipOptions(w, 2, TOOLBOX_VALUE)));
    // docker exec [options] CONTAINER PROGRAM ...: the program runs in a container something else started
    else if (EXEC_CLIS.has(prog) && execAt(w) > 0) w = programWords(w.slice(execProgram(w)));
    else break;
  }
  return w;
}

/** `uv run [options] PROGRAM ...`; uv's `-m`/`--module MOD` runs a module as `python -m MOD` does. */
function runnerProgram(w: readonly Word[], prog: string): Word[] {
  let i = 2;
  while (i < w.length && w[i]!.text.startsWith("-")) {
    if (prog === "uv" && (w[i]!.text === "-m" || w[i]!.text === "--module"))
      return [{ ...w[i]!, text: "python" }, { ...w[i]!, text: "-m" }, ...w.slice(i + 1)];
    i += RUNNER_VALUE.has(w[i]!.text) ? 2 : 1;
  }
  return programWords(w.slice(i));
}

/** Where exec's options start (`docker exec`, `docker container exec`); 0 when the command is no exec. */
function execAt(w: readonly Word[]): number {
  if (w[1]?.text === "exec") return 2;
  return w[1]?.text === "container" && w[2]?.text === "exec" ? 3 : 0;
}

/** The index of exec's program: past its options and the container (none with podman's --latest). */
function execProgram(w: readonly Word[]): number {
  const at = execAt(w);
  const i = skipOptions(w, at, EXEC_VALUE);
  const latest = w.slice(at, i).some((x) => x.text === "-l" || x.text === "--latest");
  return latest ? i : i + 1;
}

function nsysProgram(w: readonly Word[]): number {
  let i = 2;
  while (i < w.length && w[i]!.text.startsWith("-")) i += w[i]!.text.includes("=") ? 1 : 2;
  return i;
}

function skipScreen(w: readonly Word[]): number {
  let i = 1;
  while (i < w.length && w[i]!.text.startsWith("-")) i += SCREEN_VALUE.test(w[i]!.text) ? 2 : 1;
  return i;
}

/** What a tmux command starts: its shell-command words (one word is a string the shell reads), or null. */
export function tmuxCommand(w: readonly Word[]): Word[] | null {
  let i = skipOptions(w, 1, TMUX_GLOBAL_VALUE);
  if (!TMUX_STARTS.has(w[i]?.text ?? "")) return null;
  const keys = w[i]!.text.startsWith("send");
  i = skipOptions(w, i + 1, TMUX_VALUE);
  const rest = w.slice(i);
  // send-keys types its words into the pane's shell; a trailing Enter / C-m runs them
  return keys ? rest.filter((x) => !/^(Enter|C-m|KPEnter)$/.test(x.text)) : rest;
}
