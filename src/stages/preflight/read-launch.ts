// A target's launch file parsed as what it is: a compose file with the .env beside it (compose fills
// ${VAR:-default} from it), the target's own part of a file that holds several (a service, a container).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseDotEnv } from "../../domain/launch/compose.js";
import { parseLaunch, yamlKind, type FileKind } from "../../domain/launch/launch.js";
import type { ServeScript } from "../../domain/launch/model.js";
import type { PreflightContext, PreflightTarget } from "./targets.js";

/** A config names a YAML launch file as its script: read it as the compose file or manifest it is. */
export function kindOf(t: PreflightTarget, text: string): FileKind {
  return t.kind === "script" ? (yamlKind(t.scriptPath, text) ?? "script") : t.kind;
}

/** The .env beside a compose file, at the ref being checked (the work tree when ref is null). */
export async function dotEnv(
  ctx: Pick<PreflightContext, "root" | "reader">,
  file: string,
  ref: string | null,
): Promise<Map<string, string>> {
  const path = join(dirname(file), ".env");
  let text: string | null = null;
  if (ref) text = await ctx.reader.show(ref, path);
  else {
    try {
      text = readFileSync(join(ctx.root, path), "utf8");
    } catch {
      text = null;
    }
  }
  return text === null ? new Map() : parseDotEnv(text);
}

export async function readLaunch(
  ctx: Pick<PreflightContext, "root" | "reader">,
  t: PreflightTarget,
  text: string,
  ref: string | null,
): Promise<ServeScript> {
  const kind = kindOf(t, text);
  const env = kind === "compose" ? await dotEnv(ctx, t.scriptPath, ref) : new Map<string, string>();
  return parseLaunch(kind, text, { part: t.part ?? null, env });
}
