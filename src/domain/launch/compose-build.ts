// A compose service built from the repository (`build:`): the Dockerfile it builds and the script the image runs,
// when the image's program is one the Dockerfile copies in. What the service runs is that image's, not what its
// `image:` tag's name suggests (`llamacpp:rag` may be a notebook). Pure: the caller reads the files.
import { posix } from "node:path";
import type { Node } from "yaml";
import { copiedFrom, parseDockerfile } from "./dockerfile.js";
import { lexWords } from "./lexer.js";
import type { BuiltImage, DockerImage, Word } from "./model.js";
import { startedScripts, UNIT_NAME } from "./started-scripts.js";
import type { YamlReader } from "./yaml-node.js";

/** The Dockerfile a service builds: its repository path, or its inline text; null for no build or a remote one. */
export function dockerfileOf(
  y: YamlReader,
  svc: Node,
  dir: string,
  expand: (text: string) => string,
): { context: string; path: string; fallback: string | null; inline: string | null; target: string | null } | null {
  const build = y.get(svc, "build");
  if (!build) return null;
  const context = expand(y.str(build) ?? y.str(y.get(build, "context")) ?? ".") || ".";
  // a git URL or an HTTP context is not in this repository
  if (/^[a-z+]+:\/\/|^git@|\.git(#|$)/i.test(context)) return null;
  const ctx = posix.normalize(posix.join(dir || ".", context));
  if (ctx.startsWith("../")) return null;
  const inline = y.str(y.get(build, "dockerfile_inline"));
  const named = y.str(y.get(build, "dockerfile"));
  const file = expand(named ?? "Dockerfile") || "Dockerfile";
  // (`target:` builds that stage of a multi-stage Dockerfile, not its last)
  const target = y.str(y.get(build, "target"));
  // with no file named, docker's CLI (getDockerfileRelPath) and Compose v1 build a lowercase `dockerfile` when there
  // is no `Dockerfile`
  const fallback = named === null ? posix.normalize(posix.join(ctx, "dockerfile")) : null;
  const path = posix.normalize(posix.join(ctx, file));
  return { context: ctx, path, fallback, inline, target: target ? expand(target) : null };
}

const WRAPPERS = /^(?:\S*\/)?(tini|dumb-init|env|exec|nohup)$/;
const SHELL = /^(?:\S*\/)?(ba|da|z)?sh$/;
const PYTHON = /^(?:\S*\/)?python[0-9.]*$/;

/** The path of the program a command starts in the image, past init wrappers and a shell (`bash -c "./start.sh"`). */
export function programPath(words: readonly Word[]): string | null {
  let i = 0;
  while (words[i] && (WRAPPERS.test(words[i]!.text) || words[i]!.text === "--" || /^-/.test(words[i]!.text))) i++;
  const first = words[i]?.text;
  if (!first) return null;
  // `python bench.py`: the program is the script the interpreter runs (`python -m pkg` is no file here)
  if (PYTHON.test(first)) {
    const file = words.slice(i + 1).find((w) => !w.text.startsWith("-"));
    return file && /\.py$/.test(file.text) && !words.slice(i + 1).some((w) => w.text === "-m") ? file.text : null;
  }
  if (!SHELL.test(first)) return first;
  const c = words.findIndex((w, j) => j > i && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.text));
  if (c > 0 && words[c + 1]) return programPath(lexWords(words[c + 1]!.text, words[c + 1]!.line));
  const script = words.slice(i + 1).find((w) => !w.text.startsWith("-"));
  return script?.text ?? null;
}

/** The script the image runs (its ENTRYPOINT, else the service's command or CMD), in the image and the repository. */
function scriptIn(image: DockerImage, context: string, command: readonly Word[] | null) {
  const program = programPath(image.entrypoint ?? command ?? image.cmd ?? []);
  if (!program || program.includes("$")) return null;
  const inImage = posix.isAbsolute(program) ? program : posix.resolve(image.workdir, program);
  const src = copiedFrom(image, inImage);
  return src === null ? null : { inImage, path: posix.normalize(posix.join(context, src)) };
}

/**
 * The repository files of the modules a Python program in the image imports (`from shared.wrapper import app`,
 * found from the WORKDIR or the program's own directory; `from .x import y`): a wrapper that starts the engine is
 * often one of them. At most 16, one level deep.
 */
function importedModules(image: DockerImage, context: string, inImage: string, source: string): string[] {
  const names = [...source.matchAll(/^\s*(?:from\s+([.\w]+)\s+import\b|import\s+([\w.]+))/gm)].map(
    (m) => m[1] ?? m[2]!,
  );
  const out = new Set<string>();
  for (const name of names.slice(0, 64)) {
    const rel = /^\.+/.exec(name)?.[0].length ?? 0;
    const file = `${name.slice(rel).split(".").join("/")}.py`;
    if (file === ".py") continue;
    const bases = rel
      ? [posix.resolve(posix.dirname(inImage), ...Array<string>(rel - 1).fill(".."))]
      : [image.workdir, posix.dirname(inImage)];
    for (const base of bases) {
      const src = copiedFrom(image, posix.join(base, file));
      if (src !== null) out.add(posix.normalize(posix.join(context, src)));
    }
  }
  return [...out].slice(0, 16);
}

/** The files a service's build needs read (its Dockerfile, then the script its image runs). */
export function buildReads(
  y: YamlReader,
  svc: Node,
  dir: string,
  read: (path: string) => string | null,
  command: readonly Word[] | null,
  expand: (text: string) => string,
): Map<string, string> {
  const out = new Map<string, string>();
  const found = dockerfileOf(y, svc, dir, expand);
  if (!found || found.inline !== null) return out;
  const own = read(found.path);
  const df = own === null && found.fallback ? { ...found, path: found.fallback } : found;
  const text = own ?? (df.path !== found.path ? read(df.path) : null);
  if (text === null) return out;
  out.set(df.path, text);
  const image = parseDockerfile(text, df.path, df.target);
  const script = scriptIn(image, df.context, command);
  const body = script === null ? null : read(script.path);
  if (script === null || body === null) return out;
  out.set(script.path, body);
  if (/\.py$/.test(script.path))
    for (const m of importedModules(image, df.context, script.inImage, body)) {
      const t = m === script.path ? null : read(m);
      if (t !== null) out.set(m, t);
    }
  else for (const m of handedScripts(image, df.context, script.inImage, body, read)) out.set(m.path, m.text);
  return out;
}

/** The image a service builds, from the files `buildReads` read; null without a build or with its Dockerfile unread. */
export function builtImage(
  y: YamlReader,
  svc: Node,
  dir: string,
  builds: ReadonlyMap<string, string>,
  command: readonly Word[] | null,
  expand: (text: string) => string,
): BuiltImage | null {
  const found = dockerfileOf(y, svc, dir, expand);
  const fallback = found && !builds.has(found.path) && found.fallback && builds.has(found.fallback);
  const df = found && fallback ? { ...found, path: found.fallback! } : found;
  const text = df ? (df.inline ?? builds.get(df.path)) : undefined;
  if (!df || text === undefined) return null;
  const image = parseDockerfile(text, df.inline !== null ? "dockerfile_inline" : df.path, df.target);
  const at = scriptIn(image, df.context, command);
  const body = at === null ? undefined : builds.get(at.path);
  if (at === null || body === undefined) return { image, script: null };
  const modules = /\.py$/.test(at.path)
    ? importedModules(image, df.context, at.inImage, body).flatMap((m) => {
        const text = m === at.path ? undefined : builds.get(m);
        return text === undefined ? [] : [{ path: m, text }];
      })
    : handedScripts(image, df.context, at.inImage, body, (p) => builds.get(p) ?? null);
  return { image, script: { path: at.path, text: body, ...(modules.length ? { modules } : {}) } };
}

/**
 * A build of one of llama.cpp's own images from its source tree (`.devops/cuda.Dockerfile`, `target: full`): the
 * stage's name is the image's tag (`full`, `server`, `light`) whatever the Dockerfile says, or null.
 */
export function llamaCppStage(y: YamlReader, svc: Node, dir: string, expand: (text: string) => string): string | null {
  const df = dockerfileOf(y, svc, dir, expand);
  return df?.target && /(^|\/)\.devops\/[^/]*\.Dockerfile$/.test(df.path) ? df.target : null;
}

/**
 * The repository scripts a shell entrypoint hands the work to (`bash start_all.sh`, `bash "$DIR/start_server.sh"`),
 * found in the image by the COPY that put them there, and the scripts those hand to, in the order they run: an
 * entrypoint often sets up and then runs the repository's launcher, which runs its serve script. At most 3 deep.
 */
function handedScripts(
  image: DockerImage,
  context: string,
  inImage: string,
  body: string,
  read: (path: string) => string | null,
): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const seen = new Set([inImage]);
  let level = [{ inImage, text: body }];
  for (let depth = 0; depth < 3 && level.length && out.length < 8; depth++) {
    const next: typeof level = [];
    for (const s of level)
      for (const written of startedScripts(s.text)) {
        if (written.startsWith(UNIT_NAME)) continue;
        for (const at of whereRun(written, s.inImage, image.workdir)) {
          const src = seen.has(at) ? null : copiedFrom(image, at);
          const path = src === null ? null : posix.normalize(posix.join(context, src));
          const text = path === null ? null : read(path);
          if (path === null || text === null) continue;
          seen.add(at);
          out.push({ path, text });
          next.push({ inImage: at, text });
          break;
        }
      }
    level = next;
  }
  return out.slice(0, 8);
}

/**
 * Where in the image a written script path may be: beside the script that runs it (launchers `cd` to their own
 * directory, and `"$PROJECT_DIR/x.sh"` is most often that directory), else from the WORKDIR.
 */
function whereRun(written: string, from: string, workdir: string): string[] {
  const name = posix.basename(written);
  if (written.includes("$")) return name.includes("$") ? [] : [posix.join(posix.dirname(from), name)];
  if (posix.isAbsolute(written)) return [posix.normalize(written)];
  return [posix.resolve(posix.dirname(from), written), posix.resolve(workdir, written)];
}
