// The endpoint's launch file (serve script, quadlet, unit, or a compose file named as script) at the stage's ref,
// parsed: verify compares the live argv with it, deploy and verify read which CLI runs the container from it. A
// unit or script that runs `compose up` launches a compose service: the engine is that service's run and the
// container is the one the compose tool names for it. Null script when the file is absent at that ref or
// unreadable (the checks that need it say so).
import { launchFile } from "../domain/config/launch-file.js";
import { composeInputs } from "./compose-inputs.js";
import type { ComposeUp } from "../domain/launch/compose-up.js";
import { composeLaunchIn, composeTarget, launcherFiles } from "../domain/launch/compose-target.js";
import { containerCli, type ContainerCli } from "../domain/launch/container-cli.js";
import { parseLaunch, yamlKind } from "../domain/launch/launch.js";
import type { ServeScript } from "../domain/launch/model.js";
import type { StageContext } from "./context.js";

type LaunchCtx = Pick<StageContext, "endpoint" | "reader" | "sha" | "repoPath">;

/** A compose service the endpoint's unit or script starts. */
export interface ComposeLaunch {
  up: ComposeUp;
  /** the compose file in the repository (config-relative), when known */
  file: string | null;
  service: string | null;
  /** the service's container as the tool names it; null with `gap` saying what is missing */
  container: string | null;
  gap: string | null;
}

export interface EndpointLaunch {
  /** the engine's launch: the launch file's, or the compose service's run */
  script: ServeScript | null;
  /** the config path of the file the engine's flags are written in */
  path: string;
  /** the CLI that holds the engine's container */
  cli: ContainerCli;
  compose: ComposeLaunch | null;
}

const show = (ctx: LaunchCtx, path: string): Promise<string | null> =>
  ctx.reader.show(ctx.sha, ctx.repoPath(path)).catch(() => null);

export async function readEndpointLaunch(ctx: LaunchCtx): Promise<EndpointLaunch> {
  const ep = ctx.endpoint;
  const file = launchFile(ep);
  const text = await show(ctx, file.path);
  const kind = text !== null && file.kind === "script" ? (yamlKind(file.path, text) ?? "script") : file.kind;
  const scriptCompose = kind === "compose" ? file.path : null;
  const yaml = kind === "compose" || kind === "kubernetes";
  const options = yaml
    ? {
        part: ep.part ?? null,
        ...(kind === "compose" ? await composeInputs((p) => show(ctx, p), file.path, text) : {}),
      }
    : {};
  const own = text === null ? null : parseLaunch(kind, text, options);
  // the command that starts the compose file: the serve script's, else the unit's ExecStart=; a launch file that
  // runs the engine itself keeps it (a compose up beside it starts something else: a sidecar, monitoring)
  const launchers =
    own?.engine && !yaml
      ? []
      : await Promise.all(
          launcherFiles(ep, { path: file.path, kind }).map(async (l) => ({
            kind: l.kind,
            text: l.path === file.path ? text : await show(ctx, l.path),
          })),
        );
  const found = composeLaunchIn(launchers, ep.install ?? [], scriptCompose);
  if (!found) return { script: own, path: file.path, cli: containerCli(own), compose: null };
  const { ref } = found;
  const composeText = ref.repoFile === null ? null : ref.repoFile === file.path ? text : await show(ctx, ref.repoFile);
  const inputs =
    ref.repoFile === null
      ? { env: new Map<string, string>(), extended: new Map<string, string>() }
      : await composeInputs((p) => show(ctx, p), ref.repoFile, composeText);
  const target = composeTarget(
    found.up,
    found.workdir,
    ref,
    composeText === null ? null : { text: composeText, ...inputs },
    ep.part ?? null,
  );
  const script = composeText === null ? null : parseLaunch("compose", composeText, { part: target.service, ...inputs });
  return {
    script,
    path: ref.repoFile ?? file.path,
    cli: found.up.cli,
    compose: { up: found.up, file: ref.repoFile, ...target },
  };
}

/** The launch file's engine (see readEndpointLaunch). */
export function readLaunchScript(ctx: LaunchCtx): Promise<ServeScript | null> {
  return readEndpointLaunch(ctx).then((l) => l.script);
}
