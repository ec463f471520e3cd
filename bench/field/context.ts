// `npx tsx bench/field/context.ts launch-54 [launch-55 ...]`: adds to a field cache the files compose reads beside
// each compose entry in its repository (the .env, `extends:` files, the Dockerfiles its services build and the
// script their images run), taken with `git show` at the entry's commit from the fetched repository. A user runs
// preflight on the whole repository; a cache of launch files alone would hide those. They are rows of FETCHED.tsv
// that are no key entry: the runner puts them at their paths and scores nothing on them. Run before the first run.
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { composeInputsSync } from "../../src/stages/compose-inputs.js";
import { looksLikeCompose } from "../../src/domain/launch/compose.js";
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
  for (const r of rows) {
    const entry = key.files[r.name];
    const gitDir = repos.get(r.repo);
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
    for (const [p, t] of read) {
      if (have.has(`${r.repo}\t${p}`)) continue;
      have.add(`${r.repo}\t${p}`);
      const name = join("context", r.repo.replace("/", "+"), p);
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), t);
      appendFileSync(join(dir, "FETCHED.tsv"), [name, r.repo, p, r.commit].join("\t") + "\n");
      added++;
    }
  }
  process.stdout.write(`${set}: ${added} context files added\n`);
}

for (const set of process.argv.slice(2)) addContext(set);
