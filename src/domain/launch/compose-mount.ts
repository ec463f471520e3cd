// A compose service whose entrypoint (or command, on an image that is no engine's and not built here) runs a script
// the file bind-mounts from the repository (`volumes: ["./scripts/run.sh:/run.sh:ro"]`, `entrypoint: ["/bin/sh",
// "/run.sh"]`): the service runs that script, which is read as any serve script. Pure: the caller reads the file.
import { posix } from "node:path";
import type { Node } from "yaml";
import { programPath } from "./compose-build.js";
import { imageEngine, type Found } from "./engine.js";
import type { PodmanRun, Word } from "./model.js";
import type { YamlReader } from "./yaml-node.js";

/** a script by its name: a shell or Python file, or one with no extension (a config file is no program) */
const SCRIPT = /(\.(sh|bash|py)|\/[^./]+)$/;

/** The repository path of the script a service's program is, and where it is mounted; null when it is none. */
export function mountedScriptPath(
  y: YamlReader,
  svc: Node,
  dir: string,
  entrypoint: readonly Word[] | null,
  command: readonly Word[] | null,
  expand: (text: string) => string,
): { path: string; target: string } | null {
  // without an entrypoint of its own, the command runs after the image's (an engine's, or a Dockerfile's here)
  const image = y.str(y.get(svc, "image"));
  const words = entrypoint ?? (!y.get(svc, "build") && !(image && imageEngine(expand(image))) ? command : null);
  // (a command of flags is the image entrypoint's arguments: no program of its own, whatever file a flag names)
  const program = words?.[0] && !words[0].text.startsWith("-") ? programPath(words) : null;
  if (!program || !posix.isAbsolute(program) || program.includes("$") || !SCRIPT.test(program)) return null;
  for (const v of y.items(y.get(svc, "volumes"))) {
    const short = y.str(v);
    const [source, target] =
      short !== null
        ? expand(short).split(":")
        : y.str(y.get(v, "type")) === "bind" || y.str(y.get(v, "type")) === null
          ? [expand(y.str(y.get(v, "source")) ?? ""), y.str(y.get(v, "target")) ?? ""]
          : ["", ""];
    // a repository path is written relative (`./x`, `../x`, `.`); a name is a named volume, `/x` the host's own
    if (!source || !target || !source.startsWith(".")) continue;
    const to = posix.normalize(target).replace(/\/$/, "");
    const rest = program === to ? "" : program.startsWith(`${to}/`) ? program.slice(to.length + 1) : null;
    if (rest === null) continue;
    const path = posix.normalize(posix.join(dir || ".", source, rest));
    return path.startsWith("../") || path === ".." ? null : { path, target: program };
  }
  return null;
}

/** What a service's mounted script starts (read in launch.ts): that engine, its flags the script's own. */
export function mountedEngine(run: PodmanRun): Found | undefined {
  const m = run.mounted;
  if (!m?.scriptEngine) return undefined;
  // (`exec llama-server "$@"`: the words after the script in the service's argv are the engine's too)
  const at = run.engineArgs.findIndex((w) => w.text === m.target);
  const args = m.scriptEngine.passesArgs && at >= 0 ? run.engineArgs.slice(at + 1) : [];
  return { kind: m.scriptEngine.kind, args, builtBy: `${m.path}, mounted at ${m.target}` };
}
