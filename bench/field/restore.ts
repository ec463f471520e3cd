// `npx tsx bench/field/restore.ts launch-14 [launch-15 ...]`: rebuilds a field set's gitignored cache
// (.cache/field/<set>/: the files, FETCHED.tsv, REPOS.tsv) from its committed key and the repositories the search
// tool's fetch brought into /work/.mirror, on a machine that lost the cache. A file is written from its commit
// with `git show`, as the key's author did; it prints the repositories still to fetch and exits 2 while any are.
// A chart is restored as its own directory, a kustomize overlay with its top folder (so ../../base holds), "." as
// the whole tree: a directory entry may hold a few more or fewer files than the author's cache did.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { DEFAULT_CACHE_ROOT } from "./run.js";
import { keyPath, loadKey } from "./key.js";

const MIRROR = "/work/.mirror";

/** The fetched git directory of owner/name, or null (fetch names it /work/.mirror/owner+name/...). */
export function mirrorOf(repo: string): string | null {
  const top = join(MIRROR, repo.replace("/", "+"));
  if (!existsSync(top)) return null;
  const isGit = (d: string) => existsSync(join(d, "HEAD")) && existsSync(join(d, "objects"));
  if (isGit(top)) return top;
  for (const d of readdirSync(top, { withFileTypes: true }))
    if (d.isDirectory() && isGit(join(top, d.name))) return join(top, d.name);
  return null;
}

const git = (gitDir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitDir, ...args], {
    maxBuffer: 256 * 2 ** 20,
    stdio: ["ignore", "pipe", "ignore"],
  });

function directoryRoot(kind: string, path: string): string {
  if (path === "." || path === "") return ".";
  return kind === "kustomize" ? path.split("/")[0]! : path;
}

/**
 * Where the entry's cache directory starts in the repository: "" when its targets' files are repository paths (the
 * later keys), else the directory (the entry's path or one above it) under which they exist (the early keys cached
 * a chart's or an overlay's contents).
 */
function layoutBase(gitDir: string, commit: string, path: string, files: readonly string[]): string {
  if (!files.length || path === ".") return "";
  const exists = (p: string) => {
    try {
      git(gitDir, "cat-file", "-e", `${commit}:${p}`);
      return true;
    } catch {
      return false;
    }
  };
  if (files.every(exists)) return "";
  for (let d = path; d !== "." && d !== ""; d = posix.dirname(d))
    if (files.every((x) => exists(posix.join(d, x)))) return d;
  return "";
}

/** The paths a kustomization directory reads, its own included, following the directories it names. */
function kustomizeReach(gitDir: string, commit: string, dir: string, seen = new Set<string>()): string[] {
  if (seen.has(dir)) return [];
  seen.add(dir);
  let text = "";
  for (const name of ["kustomization.yaml", "kustomization.yml", "Kustomization"]) {
    try {
      text = git(gitDir, "show", `${commit}:${posix.join(dir, name)}`).toString();
      break;
    } catch {
      continue;
    }
  }
  const out = [dir];
  // list items and `path:` values: a relative path to a file or a directory (a URL or a bare name is neither)
  for (const m of text.matchAll(/^\s*(?:-\s+(?:path:\s*)?|path:\s+)["']?([^\s"'#]+)/gm)) {
    const ref = m[1]!;
    if (/^[a-z]+:\/\//i.test(ref) || !/^\.|\/|\.ya?ml$/.test(ref)) continue;
    const p = posix.normalize(posix.join(dir, ref));
    if (p.startsWith("..")) continue;
    let type = "";
    try {
      type = git(gitDir, "cat-file", "-t", `${commit}:${p}`).toString().trim();
    } catch {
      continue;
    }
    if (type === "tree") out.push(...kustomizeReach(gitDir, commit, p, seen));
    else out.push(p);
  }
  return out;
}

function restore(set: string): string[] {
  const key = loadKey(keyPath(set));
  const dir = join(DEFAULT_CACHE_ROOT, set);
  mkdirSync(dir, { recursive: true });
  const repos = new Set([...Object.values(key.files).map((f) => f.repo), ...key.drops.map((d) => d.repo)]);
  const missing = [...repos].filter((r) => !mirrorOf(r));
  const fetched: string[] = ["name\trepo\tpath\tcommit"];
  for (const [name, entry] of Object.entries(key.files)) {
    // (an early key wrote a note after the path: "overlays/production (with its base ../../base)"): the path it
    // names is restored too
    const note = /\s+\((?:with(?: its base)?\s+)?([^)]*)\)$/.exec(entry.path);
    const f = { ...entry, path: note ? entry.path.slice(0, note.index) : entry.path };
    const also = note?.[1] ? [posix.normalize(note[1].startsWith(".") ? posix.join(f.path, note[1]) : note[1])] : [];
    const g = mirrorOf(f.repo);
    if (!g) continue;
    try {
      const type = git(g, "cat-file", "-t", `${f.commit}:${f.path === "." ? "" : f.path}`)
        .toString()
        .trim();
      if (type === "blob") {
        writeFileSync(join(dir, name), git(g, "show", `${f.commit}:${f.path}`));
        fetched.push([name, f.repo, f.path, f.commit].join("\t"));
        continue;
      }
      const base = layoutBase(g, f.commit, f.path, f.targets?.flatMap((t) => (t.file ? [t.file] : [])) ?? []);
      const root = base ? f.path : directoryRoot(f.kind, f.path);
      // a kustomization: the directories and files it reaches (resources, bases, components, patches), no more
      const reach = f.kind === "kustomize" && !base && root !== "." ? kustomizeReach(g, f.commit, f.path) : null;
      const roots = root === "." ? [] : ["--", ...(reach ?? [root]), ...also];
      const listed = git(g, "ls-tree", "-r", "-z", "--name-only", f.commit, ...roots);
      for (const p of listed.toString().split("\0").filter(Boolean)) {
        const at = base ? posix.relative(base, p) : p;
        if (at.startsWith("..")) continue;
        mkdirSync(dirname(join(dir, name, at)), { recursive: true });
        writeFileSync(join(dir, name, at), git(g, "show", `${f.commit}:${p}`));
      }
      fetched.push([name, f.repo, root, f.commit].join("\t"));
    } catch (e) {
      process.stderr.write(`${set}: ${name}: ${(e as Error).message.split("\n")[0]}\n`);
    }
  }
  writeFileSync(join(dir, "FETCHED.tsv"), fetched.join("\n") + "\n");
  const rows = ["repo\tgit_dir", ...[...repos].flatMap((r) => (mirrorOf(r) ? [`${r}\t${mirrorOf(r)}`] : []))];
  writeFileSync(join(dir, "REPOS.tsv"), rows.join("\n") + "\n");
  process.stdout.write(`${set}: ${fetched.length - 1}/${Object.keys(key.files).length} files restored\n`);
  return missing;
}

const missing = new Set(process.argv.slice(2).flatMap(restore));
if (missing.size) {
  process.stdout.write(`still to fetch (${missing.size}):\n${[...missing].join("\n")}\n`);
  process.exitCode = 2;
}
