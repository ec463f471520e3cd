// --dry-run: the files that would change (a diff against the host's copies) and the commands that
// would run. Reads only; the lock is taken and released by the caller.
import { fail, pass, type Finding } from "../../domain/report/finding.js";
import { shellJoin } from "../../lib/shell-quote.js";
import type { StageContext } from "../context.js";
import { diffAgainstHost, readHostSide, readInstallFiles, statePath } from "./install.js";
import { isUnitFile } from "./install-plan.js";
import { restartCommands } from "./restart.js";

export async function dryRun(ctx: StageContext, service: string): Promise<Finding[]> {
  const files = await readInstallFiles(ctx);
  const { planned } = await readHostSide(ctx.host, ctx.name, files);
  const changed = planned.filter((f) => f.change !== "same");
  const diffs: string[] = [];
  for (const f of changed) diffs.push(await diffAgainstHost(ctx.host, f));
  const reload = changed.some((f) => isUnitFile(f.to));
  const commands = [
    ...changed.map((f) => `write ${f.to} (mode ${f.mode}, ${f.change}) atomically: temp file + rename`),
    `write ${statePath(ctx.name)} (state record: ${ctx.ref} ${ctx.sha.slice(0, 10)})`,
    ...restartCommands(service, reload).map((a) => shellJoin(a)),
    `poll every ${ctx.endpoint.boot.poll} ms for up to ${ctx.endpoint.boot.timeout} ms: unit, container, journal${ctx.endpoint.url ? `, ${ctx.endpoint.url}/v1/models` : ""}`,
  ];
  return [
    pass(
      "deploy.install",
      `dry run: ${changed.length} of ${planned.length} file(s) would change${changed.length ? `: ${changed.map((f) => f.to).join(", ")}` : ""}`,
      {
        evidence: diffs,
        data: { dryRun: true, files: planned.map((f) => ({ from: f.from, to: f.to, mode: f.mode, change: f.change })) },
      },
    ),
    pass(
      "deploy.restart",
      `dry run: would run ${reload ? "daemon-reload and " : ""}a restart of ${service}; nothing was changed`,
      { evidence: commands, data: { dryRun: true, commands } },
    ),
  ];
}

/** `composeGap`: the unit runs compose up, but the service's container name cannot be told (what is missing). */
export const missingConfig = (ctx: StageContext, keys: string[], composeGap?: string): Finding =>
  fail("deploy.restart", `endpoint ${ctx.name} has no ${keys.join(", ")} in ${ctx.configFile}`, {
    fix: composeGap
      ? `The unit runs compose up, but the engine's container name cannot be told from it: ${composeGap}; or add \`container:\` (the container's name on the host) to endpoints.${ctx.name} in ${ctx.configFile}.`
      : `Add ${keys.map((k) => `\`${k}:\``).join(" and ")} to endpoints.${ctx.name} in ${ctx.configFile} (the systemd unit to restart and the podman container it runs; an engine the unit runs without a container needs no container:).`,
    file: ctx.configFile,
  });
