// `npx tsx bench/field/context.ts launch-54 [launch-55 ...]`: adds to a field cache the files compose reads beside
// each compose entry in its repository (the .env, `extends:` files, the Dockerfiles its services build and the
// script their images run), taken with `git show` at the entry's commit from the fetched repository. A user runs
// preflight on the whole repository; a cache of launch files alone would hide those. They are rows of FETCHED.tsv
// that are no key entry: the runner puts them at their paths and scores nothing on them. And beside each script the
// Python program of the repository it runs (`python scripts/build_cmd.py`, a console script its pyproject.toml
// declares, with that toml) and the files it sources: preflight reads what that program starts.
// Run before the first run.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { composeInputsSync } from "../../src/stages/compose-inputs.js";
import { looksLikeCompose } from "../../src/domain/launch/compose.js";
import { parseLaunch } from "../../src/domain/launch/launch.js";
import { sourcedFiles } from "../../src/domain/launch/sourced.js";
import {
  consoleScriptPrograms,
  consoleScripts,
  pyprojectPaths,
  pythonPrograms,
  relativeImports,
} from "../../src/domain/launch/python-launcher.js";
import { DEFAULT_CACHE_ROOT } from "./run.js";
import { keyPath, loadFetched, loadKey, loadRepos } from "./key.js";

function show(gitDir: string, commit: string, path: string): string | null {
  try {
    return execFileSync("git", ["--git-dir", gitDir, "show", `${commit}:${path}`], {
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 2 ** 20,
    }).toString();
  } catch {
    return null;
  }
}

function addContext(set: string): void {
  const key = loadKey(keyPath(set));
  const dir = join(DEFAULT_CACHE_ROOT, set);
  const rows = loadFetched(dir);
  const repos = loadRepos(dir);
  const have = new Set(rows.map((r) => `${r.repo}\t${r.path}`));
  let added = 0;
  const add = (r: (typeof rows)[number], p: string, t: string) => {
    if (have.has(`${r.repo}\t${p}`)) return;
    have.add(`${r.repo}\t${p}`);
    const name = join("context", r.repo.replace("/", "+"), p);
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), t);
    appendFileSync(join(dir, "FETCHED.tsv"), [name, r.repo, p, r.commit].join("\t") + "\n");
    added++;
  };
  for (const r of rows) {
    const entry = key.files[r.name];
    const gitDir = repos.get(r.repo);
    if (entry?.kind === "script" && gitDir) {
      const text = readFileSync(join(dir, r.name), "utf8");
      const at = dirname(r.path).replace(/^\.$/, "");
      const script = parseLaunch("script", text);
      // (a console script the repository's pyproject.toml declares: the toml and the module's file)
      const declared = new Map<string, string>();
      for (const p of pyprojectPaths(at).reverse()) {
        const toml = show(gitDir, r.commit, p);
        if (toml === null || !consoleScripts(toml).size) continue;
        for (const [k, v] of consoleScripts(toml)) declared.set(k, v);
        if (consoleScriptPrograms(script, consoleScripts(toml)).length) add(r, p, toml);
      }
      // (the libraries and env files it sources beside it: `source "${SCRIPT_DIR}/env.sh"`)
      for (const src of sourcedFiles(text)) {
        const p = posix.normalize(posix.join(at, src.path));
        const t = p.startsWith("../") ? null : show(gitDir, r.commit, p);
        if (t !== null) add(r, p, t);
      }
      for (const prog of [...pythonPrograms(script, at), ...consoleScriptPrograms(script, declared)]) {
        const found = prog.candidates.map((p) => [p, show(gitDir, r.commit, p)] as const).find(([, t]) => t !== null);
        if (found) add(r, found[0], found[1]!);
        // (and the sibling modules it imports)
        for (const m of found ? relativeImports(found[1]!, found[0]) : []) {
          const t = show(gitDir, r.commit, m);
          if (t !== null) add(r, m, t);
        }
      }
      continue;
    }
    if (!entry || entry.kind !== "compose" || !gitDir) continue;
    const text = readFileSync(join(dir, r.name), "utf8");
    if (!looksLikeCompose(text)) continue;
    const read = new Map<string, string>();
    composeInputsSync(
      (p) => {
        const t = show(gitDir, r.commit, p);
        if (t !== null) read.set(p, t);
        return t;
      },
      r.path,
      text,
    );
    for (const [p, t] of read) add(r, p, t);
  }
  process.stdout.write(`${set}: ${added} context files added\n`);
}

for (const set of process.argv.slice(2)) addContext(set);
