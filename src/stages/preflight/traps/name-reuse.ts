// name-reuse: `podman|docker run --name X` fails while an old container named X still exists.
import { loopValues, runsSubcommand } from "../../../domain/launch/words.js";
import { commandsBefore, hitAt, runsOf } from "./lookups.js";
import { runName } from "./devices.js";
import type { LocatedCommand, TrapRuleDef } from "./types.js";
import { samePath } from "../../../domain/launch/dirs.js";

/**
 * Names removed by `podman|docker [container] rm NAME...` (forced or after a stop: either clears the name); a loop's
 * variable (`for c in "$A" "$B"; do docker rm -f "$c"; done`) stands for each name the loop lists.
 */
function removed({ item, source }: LocatedCommand) {
  const args = runsSubcommand(item, "podman", "rm") ?? runsSubcommand(item, "docker", "rm");
  return (args ?? [])
    .filter((w) => !w.text.startsWith("-"))
    .flatMap((w) => {
      const v = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(w.text)?.[1];
      const words = v ? loopValues(source.script.text, v) : [];
      return [w, ...words.map((t) => (t.includes("$") ? { text: t } : { text: t, resolved: t }))];
    });
}

/**
 * Pods removed by `podman pod rm [-f] POD...`: with them the containers in them (podman-pod-rm(1): a pod is removed
 * with its containers), so a `podman run --pod POD --name X` after it reuses no name.
 */
function removedPods({ item }: LocatedCommand) {
  const args = runsSubcommand(item, "podman", "pod");
  return args?.[0]?.text === "rm" ? args.slice(1).filter((w) => !w.text.startsWith("-")) : [];
}

export const nameReuse: TrapRuleDef = {
  id: "name-reuse",
  defaultLevel: "warn",
  // a quadlet always runs with --replace
  runtimes: ["podman", "docker"],
  engines: "any",
  why:
    "a container left over from the last run (crashed, or stopped but not removed) keeps the name, " +
    'so the runtime refuses the new one with "the container name is already in use"',
  check: (ctx) =>
    runsOf(ctx, ["podman", "docker"]).flatMap(({ source, item: run }) => {
      // --rm removes the container when it exits; --replace removes the old one first
      if (run.name === null || run.replace || run.rm) return [];
      const opt = run.options.filter((o) => o.name === "--name").at(-1)!;
      const name = { text: run.name, ...(opt.resolvedValue !== undefined ? { resolved: opt.resolvedValue } : {}) };
      const before = commandsBefore(ctx, source, run.command.line);
      if (before.flatMap(removed).some((w) => samePath(w, name))) return [];
      const pod = run.options.filter((o) => o.name === "--pod" && o.value).at(-1);
      const podName = pod
        ? { text: pod.value!, ...(pod.resolvedValue !== undefined ? { resolved: pod.resolvedValue } : {}) }
        : null;
      if (podName && before.flatMap(removedPods).some((w) => samePath(w, podName))) return [];
      const fix =
        run.runtime === "podman"
          ? `Run podman rm -f ${run.name} before it (or ExecStartPre=-/usr/bin/podman rm -f NAME), or add --replace.`
          : `Run docker rm -f ${run.name} before it (or ExecStartPre=-/usr/bin/docker rm -f NAME); docker run has no --replace.`;
      return [
        hitAt(
          ctx,
          source.file,
          opt.line,
          `${runName(run)} --name ${run.name} without removing an old ${run.name} first`,
          fix,
        ),
      ];
    }),
};
