// What compose reads beside a compose file besides the file itself: the .env it fills ${VAR:-default} from, the
// files its services' `extends: {file: ...}` name, and the Dockerfiles (and the scripts their images run) of the
// services it builds. Read through the caller's reader (the work tree or a
// commit), so a base commit's compose file is read with that commit's .env and bases.
import { posix } from "node:path";
import { buildFiles, extendedFiles, parseDotEnv } from "../domain/launch/compose.js";

export interface ComposeInputs {
  env: Map<string, string>;
  /** the files `extends:` names, by repository path */
  extended: Map<string, string>;
  /** the compose file's directory in the repository */
  dir: string;
  /** the Dockerfiles and scripts its services' builds name, by repository path */
  builds: Map<string, string>;
}

/** `read` takes a repository path; null when the file is not there. */
export async function composeInputs(
  read: (path: string) => Promise<string | null>,
  file: string,
  text: string | null,
): Promise<ComposeInputs> {
  const dir = posix.dirname(file);
  const envText = await read(posix.join(dir, ".env"));
  const env = envText === null ? new Map<string, string>() : parseDotEnv(envText);
  if (text === null) return { env, extended: new Map(), dir: at(dir), builds: new Map() };
  // extendedFiles and buildFiles are synchronous: run them until every file they ask for has been read
  const cache = new Map<string, string | null>();
  for (;;) {
    const missing = new Set<string>();
    const get = (p: string) => (cache.has(p) ? cache.get(p)! : (missing.add(p), null));
    const extended = extendedFiles(text, get, at(dir));
    const builds = buildFiles(text, get, at(dir));
    if (!missing.size) return { env, extended, dir: at(dir), builds };
    for (const p of missing) cache.set(p, await read(p));
  }
}

/** The same from the work tree, synchronously (discovery). */
export function composeInputsSync(read: (path: string) => string | null, file: string, text: string): ComposeInputs {
  const dir = posix.dirname(file);
  const envText = read(posix.join(dir, ".env"));
  return {
    env: envText === null ? new Map() : parseDotEnv(envText),
    extended: extendedFiles(text, read, at(dir)),
    dir: at(dir),
    builds: buildFiles(text, read, at(dir)),
  };
}

const at = (dir: string) => (dir === "." ? "" : dir);
