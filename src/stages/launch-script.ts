// The endpoint's launch file (serve script, quadlet or unit) at the stage's ref, parsed: verify compares
// the live argv with it, deploy and verify read which CLI runs the container from it. Null when the
// file is absent at that ref or unreadable (the checks that need it say so).
import { launchFile } from "../domain/config/launch-file.js";
import { parseLaunch } from "../domain/launch/launch.js";
import type { ServeScript } from "../domain/launch/model.js";
import type { StageContext } from "./context.js";

export function readLaunchScript(
  ctx: Pick<StageContext, "endpoint" | "reader" | "sha" | "repoPath">,
): Promise<ServeScript | null> {
  const file = launchFile(ctx.endpoint);
  return ctx.reader.show(ctx.sha, ctx.repoPath(file.path)).then(
    (text) => (text === null ? null : parseLaunch(file.kind, text)),
    () => null,
  );
}
