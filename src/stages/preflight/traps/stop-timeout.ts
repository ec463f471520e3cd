// stop-timeout: `podman stop -t N` needs systemd to wait longer than N seconds.
import type { Word } from "../../../domain/launch/model.js";
import { runsSubcommand } from "../../../domain/launch/words.js";
import { timeoutStopSec } from "../../../domain/launch/unit.js";
import { allCommands, lineOf } from "./lookups.js";
import type { TrapRuleDef } from "./types.js";

/** The -t/--time seconds of `podman stop` args, or null when not given. */
export function stopSeconds(args: readonly Word[]): number | null {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    const m = /^(?:-t|--time|--timeout)(?:=?(\d+))?$/.exec(t) ?? /^-t(\d+)$/.exec(t);
    if (!m) continue;
    const v = m[1] ?? args[i + 1]?.resolved ?? args[i + 1]?.text;
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
  }
  return null;
}

export const stopTimeout: TrapRuleDef = {
  id: "stop-timeout",
  defaultLevel: "fail",
  runtimes: ["podman", "docker"],
  engines: "any",
  why:
    "systemd kills the stop when TimeoutStopSec (90 s by default) runs out before podman's grace period, " +
    "logs \"Failed with result 'timeout'\", and the engine is SIGKILLed mid-shutdown",
  check: (ctx) => {
    const limit = ctx.unit ? timeoutStopSec(ctx.unit.parsed) : { seconds: 90, entry: null };
    return allCommands(ctx).flatMap(({ source, item }) => {
      if (source.origin !== "script" && !source.origin.startsWith("ExecStop")) return [];
      const rt = runsSubcommand(item, "podman", "stop") ? "podman" : "docker";
      const args = runsSubcommand(item, "podman", "stop") ?? runsSubcommand(item, "docker", "stop");
      const n = args ? stopSeconds(args) : null;
      if (n === null || n < limit.seconds) return [];
      const where = limit.entry ? `TimeoutStopSec=${limit.entry.value}` : "systemd's default TimeoutStopSec of 90 s";
      return [
        {
          file: source.file,
          line: item.line,
          summary: `${rt} stop -t ${n} waits at least as long as ${where}`,
          evidence: [
            lineOf(ctx, source.file, item.line),
            ...(limit.entry && ctx.unit ? [lineOf(ctx, ctx.unit.path, limit.entry.line)] : []),
          ],
          fix: `Set TimeoutStopSec=${n + 30} (more than ${n} s) in the unit's [Service] section, or lower ${rt} stop -t.`,
        },
      ];
    });
  },
};
