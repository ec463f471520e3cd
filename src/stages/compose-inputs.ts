// What compose reads beside a compose file besides the file itself: the .env it fills ${VAR:-default} from, the
// files its services' `extends: {file: ...}` name, and the Dockerfiles (and the scripts their images run) of the
// services it builds. Read through the caller's reader (the work tree or a commit), so a base commit's compose file
// is read with that commit's .env and bases.
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
  /**
   * what a build's `context` and `dockerfile` are filled from: .env, else the repository's .env.example (the file
   * users copy to .env: which Dockerfile is built is the template's; the argv is not taken from it)
   */
  buildEnv: Map<string, string>;
}

const EXAMPLES = [".env.example", ".env.sample"];

/** `read` takes a repository path; null when the file is not there. */
export async function composeInputs(
  read: (path: string) => Promise<string | null>,
  file: string,
  text: string | null,
): Promise<ComposeInputs> {
  const dir = posix.dirname(file);
  const envText = await read(posix.join(dir, ".env"));
  const env = envText === null ? new Map<string, string>() : parseDotEnv(envText);
  if (text === null) return { env, extended: new Map(), dir: at(dir), builds: new Map(), buildEnv: env };
  let example: string | null = null;
  for (const name of envText === null && /^\s+build:/m.test(text) ? EXAMPLES : []) {
    example = await read(posix.join(dir, name));
    if (example !== null) break;
  }
  const buildEnv = example === null ? env : parseDotEnv(example);
  // extendedFiles and buildFiles are synchronous: run them until every file they ask for has been read
  const cache = new Map<string, string | null>();
  for (;;) {
    const missing = new Set<string>();
    const get = (p: string) => (cache.has(p) ? cache.get(p)! : (missing.add(p), null));
    const extended = extendedFiles(text, get, at(dir));
    const builds = buildFiles(text, get, at(dir), buildEnv);
    if (!missing.size) return { env, extended, dir: at(dir), builds, buildEnv };
    for (const p of missing) cache.set(p, await read(p));
  }
}

/** The same from the work tree, synchronously (discovery). */
export function composeInputsSync(read: (path: string) => string | null, file: string, text: string): ComposeInputs {
  const dir = posix.dirname(file);
  const envText = read(posix.join(dir, ".env"));
  const env = envText === null ? new Map<string, string>() : parseDotEnv(envText);
  const example =
    envText === null && /^\s+build:/m.test(text)
      ? (EXAMPLES.map((n) => read(posix.join(dir, n))).find((t) => t !== null) ?? null)
      : null;
  const buildEnv = example === null ? env : parseDotEnv(example);
  return {
    env,
    extended: extendedFiles(text, read, at(dir)),
    dir: at(dir),
    builds: buildFiles(text, read, at(dir), buildEnv),
    buildEnv,
  };
}

const at = (dir: string) => (dir === "." ? "" : dir);
