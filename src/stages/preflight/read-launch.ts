// A target's launch file parsed as what it is: a compose file with the .env beside it (compose fills
// ${VAR:-default} from it) and the files its `extends:` names; the target's own part of a file that holds several
// (a service, a container).
import { readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, posix } from "node:path";
import { configFileFlags, configFlagPath, mergeConfigFlags } from "../../domain/launch/vllm-config.js";
import { parseLaunch, parseLaunchParts, yamlKind, type FileKind } from "../../domain/launch/launch.js";
import type { ServeScript } from "../../domain/launch/model.js";
import { launchWithLibraries, sourcedFiles, type Sourced } from "../../domain/launch/sourced.js";
import type { PreflightContext, PreflightTarget } from "./targets.js";
import { composeInputs } from "../compose-inputs.js";
import { execStartArgs } from "../../domain/launch/unit-exec.js";
import {
  consoleScriptPrograms,
  consoleScripts,
  launchedBy,
  launchedEngine,
  pyprojectPaths,
  pythonPrograms,
  relativeImports,
} from "../../domain/launch/python-launcher.js";

/** A config names a YAML launch file as its script: read it as the compose file or manifest it is. */
export function kindOf(t: PreflightTarget, text: string): FileKind {
  return t.kind === "script" ? (yamlKind(t.scriptPath, text) ?? "script") : t.kind;
}

export async function readLaunch(
  ctx: Pick<PreflightContext, "root" | "reader">,
  t: PreflightTarget,
  text: string,
  ref: string | null,
  headParts?: readonly string[],
): Promise<ServeScript> {
  const kind = kindOf(t, text);
  if (kind === "script") {
    // a script whose launch is a function of a library it sources: read with it
    const joined = launchWithLibraries(text, await librariesAt(ctx, t.scriptPath, text, ref));
    if (joined) return withConfigFile(ctx, t.scriptPath, joined, ref);
  }
  const inputs = kind === "compose" ? await composeInputs((p) => readAt(ctx, p, ref), t.scriptPath, text) : {};
  // (a unit that runs the script with words of its own, `ExecStart=/opt/serve.sh big.gguf --no-mmap`: its "$@")
  const unitText = kind === "script" && t.unitPath ? await readAt(ctx, t.unitPath, ref) : null;
  const passed = unitText === null ? null : execStartArgs(unitText, t.unitPath!, t.scriptPath);
  const script = parseLaunch(kind, text, {
    part: t.part ?? null,
    ...inputs,
    ...(headParts ? { headParts } : {}),
    ...(passed ? { positional: passed } : {}),
  });
  if (kind === "script" && !script.engine) {
    // the team's own Python program that starts the engine (`python3 -m src.llm.vllm_runner`): read from the repository
    const dir = posix.dirname(t.scriptPath).replace(/^\.$/, "");
    // (and the console scripts its pyproject.toml declares: `uv run inference-lab serve`)
    const declared = new Map<string, string>();
    for (const p of pyprojectPaths(dir).reverse()) {
      const toml = await readAt(ctx, p, ref);
      if (toml) for (const [k, v] of consoleScripts(toml)) declared.set(k, v);
    }
    for (const prog of [...pythonPrograms(script, dir), ...consoleScriptPrograms(script, declared)]) {
      for (const path of prog.candidates) {
        const source = await readAt(ctx, path, ref);
        const args = prog.command.words.map((w) => w.text);
        let engine = source === null ? null : launchedEngine(source, args);
        // (an entry point that hands the work to a sibling module it imports)
        for (const sibling of source === null || engine ? [] : relativeImports(source, path)) {
          const text = await readAt(ctx, sibling, ref);
          engine = text === null ? null : launchedEngine(text, args);
          if (engine) break;
        }
        if (engine) return launchedBy(script, prog.command, engine);
      }
    }
  }
  return withConfigFile(ctx, t.scriptPath, script, ref);
}

/**
 * vLLM run with `--config FILE.yaml`: the file's keys join the engine's flags, each with its own file and line,
 * when the file is in the repository (beside the launch file, or at the root); one baked into an image is not.
 */
export async function withConfigFile(
  ctx: Pick<PreflightContext, "root" | "reader">,
  launchPath: string,
  script: ServeScript,
  ref: string | null,
): Promise<ServeScript> {
  const engine = script.engine;
  const named = engine?.kind === "vllm" ? configFlagPath(engine.flags) : null;
  if (!engine || !named || /[$`]/.test(named)) return script;
  const rel = named.replace(/^\.\//, "");
  const candidates = isAbsolute(rel)
    ? [join(dirname(launchPath), basename(rel))]
    : [join(dirname(launchPath), rel), rel];
  for (const path of candidates.map((c) => c.split("\\").join("/"))) {
    const text = await readAt(ctx, path, ref);
    const flags = text === null ? null : configFileFlags(text, path);
    if (flags) return { ...script, engine: { ...engine, flags: mergeConfigFlags(engine.flags, flags) } };
  }
  return script;
}

/** The repository files a script sources (`source "$SCRIPT_DIR/common.sh"`), read at the ref. */
export async function librariesAt(
  ctx: Pick<PreflightContext, "root" | "reader">,
  scriptPath: string,
  text: string,
  ref: string | null,
): Promise<Array<Sourced & { file: string; text: string }>> {
  const out: Array<Sourced & { file: string; text: string }> = [];
  for (const s of sourcedFiles(text)) {
    const file = posix.normalize(posix.join(posix.dirname(scriptPath), s.path));
    const lib = file.startsWith("../") ? null : await readAt(ctx, file, ref);
    if (lib !== null && !lib.includes("\0")) out.push({ ...s, file, text: lib });
  }
  return out;
}

/** A repository file at a ref, or in the work tree when ref is null; null when it is not there. */
export async function readAt(ctx: Pick<PreflightContext, "root" | "reader">, path: string, ref: string | null) {
  if (ref) return ctx.reader.show(ref, path);
  try {
    return readFileSync(join(ctx.root, path), "utf8");
  } catch {
    return null;
  }
}

/** The engine parts a compose file or manifest holds now: what a part renamed since the base pairs with. */
export function headPartsOf(t: PreflightTarget, text: string | null | undefined): string[] | undefined {
  if (!t.part || t.render || !text) return undefined;
  const kind = kindOf(t, text);
  if (kind !== "compose" && kind !== "kubernetes") return undefined;
  return parseLaunchParts(kind, text)
    .filter((p) => p.script.engine)
    .map((p) => p.name);
}
