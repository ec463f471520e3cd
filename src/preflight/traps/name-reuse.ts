// name-reuse: `podman run --name X` fails while an old container named X still exists.
import { runsSubcommand } from "../../script/words.js";
import { allRuns, commandsBefore, hitAt, samePath } from "./context.js";
import type { LocatedCommand, TrapRuleDef } from "./types.js";

/** Names removed by `podman rm -f NAME...` (-f, --force, or combined short flags such as -fi). */
function forceRemoved({ item }: LocatedCommand) {
  const args = runsSubcommand(item, "podman", "rm") ?? runsSubcommand(item, "docker", "rm");
  if (!args) return [];
  const force = args.some((w) => w.text === "--force" || w.text === "--force=true" || /^-[a-zA-Z]*f/.test(w.text));
  return force ? args.filter((w) => !w.text.startsWith("-")) : [];
}

export const nameReuse: TrapRuleDef = {
  id: "name-reuse",
  defaultLevel: "warn",
  why: "a container left over from the last run (crashed, or stopped but not removed) keeps the name, "
    + "so podman refuses the new one with \"the container name is already in use\"",
  check: (ctx) => allRuns(ctx).flatMap(({ source, item: run }) => {
    if (run.name === null || run.replace) return [];
    const opt = run.options.filter((o) => o.name === "--name").at(-1)!;
    const name = { text: run.name, ...(opt.resolvedValue !== undefined ? { resolved: opt.resolvedValue } : {}) };
    const removed = commandsBefore(ctx, source, run.command.line).flatMap(forceRemoved);
    if (removed.some((w) => samePath(w, name))) return [];
    return [hitAt(ctx, source.file, opt.line, `podman run --name ${run.name} without removing an old ${run.name} first`,
      `Run podman rm -f ${run.name} before it (or ExecStartPre=-/usr/bin/podman rm -f NAME), or add --replace.`)];
  }),
};
