// parseServeScript: the serve script as bash would run it: its commands, its `podman run`s, and the
// engine argv (the podman run that starts the engine, or a direct `vllm serve`). Pure; never throws.
import type { Command, PodmanRun, ServeScript } from "./model.js";
import { groupCommands, type GroupState } from "./group.js";
import { readFlags } from "./flags.js";
import { readPodmanRun } from "./podman.js";
import { basename, programWords, runsSubcommand } from "./words.js";

export interface ParseOptions {
  /** the line number of the text's first line (a unit's ExecStart= read as a script) */
  firstLine?: number;
}

export function parseServeScript(text: string, options: ParseOptions = {}): ServeScript {
  const firstLine = options.firstLine ?? 1;
  const lines = text.split("\n");
  const state: GroupState = { env: new Map(), arrays: new Map(), assignments: [], commands: [], lines, firstLine };
  groupCommands(text, state, firstLine);
  const commands = state.commands.sort((a, b) => a.line - b.line);
  const podmanRuns = commands.flatMap((c) => {
    const args = runsSubcommand(c, "podman", "run") ?? runsSubcommand(c, "docker", "run");
    return args ? [readPodmanRun(c, args)] : [];
  });
  return { text, lines, commands, assignments: state.assignments, podmanRuns, engine: findEngine(commands, podmanRuns) };
}

/** `vllm serve MODEL --flags`, or `python -m vllm.entrypoints.openai.api_server --flags`. */
function vllmArgs(cmd: Command) {
  const words = programWords(cmd.words);
  const prog = words[0] ? basename(words[0].text) : "";
  if (prog === "vllm" && words[1]?.text === "serve") return words.slice(2);
  if (/^python[0-9.]*$/.test(prog) && words[1]?.text === "-m" && /^vllm\.entrypoints\./.test(words[2]?.text ?? "")) return words.slice(3);
  return null;
}

function findEngine(commands: Command[], runs: PodmanRun[]): ServeScript["engine"] {
  type Candidate = NonNullable<ServeScript["engine"]>;
  const candidates: Candidate[] = runs.map((r) => ({
    flags: r.engineFlags, args: r.engineArgs, source: "podman" as const, line: r.command.line, podmanRun: r, command: r.command,
  }));
  for (const c of commands) {
    const args = vllmArgs(c);
    if (args) candidates.push({ ...readFlags(args), args, source: "vllm", line: c.line, podmanRun: null, command: c });
  }
  // The engine is the run with the most engine flags; a `--rm` helper (a probe, a cache check) loses ties.
  const score = (c: Candidate) => c.flags.length * 2 + (c.podmanRun?.rm && !isDetached(c.podmanRun) ? 0 : 1);
  let best: Candidate | null = null;
  for (const c of candidates) if (!best || score(c) > score(best)) best = c;
  if (!best) return null;
  const { flags, args, source, line, podmanRun, command } = best;
  return { flags, args, source, line, podmanRun, command };
}

function isDetached(run: PodmanRun): boolean {
  return run.options.some((o) => o.name === "--detach");
}
