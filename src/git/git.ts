// The git port: every question preflight asks of the repository. Runs the real git.
import { runLocal } from "../local/run.js";

export interface StatusEntry {
  path: string;
  /** porcelain XY code, e.g. " M", "M ", "??", "A " */
  code: string;
  kind: "untracked" | "staged" | "modified" | "deleted" | "renamed" | "conflicted";
}

export interface Commit {
  sha: string;
  date: string;
  subject: string;
}

export class GitError extends Error {}

export class Git {
  constructor(readonly cwd: string) {}

  private async git(args: string[], opts: { allowFail?: boolean; input?: string; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const r = await runLocal("git", ["-c", "core.quotepath=off", ...args], { cwd: this.cwd, input: opts.input, timeoutMs: opts.timeoutMs ?? 60_000 });
    if (r.spawnError) throw new GitError(`git could not be started (${r.spawnError.code}): install git and retry`);
    if (r.timedOut) throw new GitError(`git ${args[0]} timed out in ${this.cwd}`);
    if (r.code !== 0 && !opts.allowFail) throw new GitError(`git ${args.join(" ")} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
    return r;
  }

  /** The repository's top directory, or null when cwd is not inside a work tree. */
  async topLevel(): Promise<string | null> {
    const r = await this.git(["rev-parse", "--show-toplevel"], { allowFail: true });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  async isShallow(): Promise<boolean> {
    return (await this.git(["rev-parse", "--is-shallow-repository"])).stdout.trim() === "true";
  }

  async status(): Promise<StatusEntry[]> {
    const out = (await this.git(["status", "--porcelain=v1", "-z", "--untracked-files=all"])).stdout;
    const parts = out.split("\0");
    const entries: StatusEntry[] = [];
    for (let i = 0; i < parts.length; i++) {
      const rec = parts[i]!;
      if (rec.length < 4) continue;
      const code = rec.slice(0, 2);
      const path = rec.slice(3);
      if (code[0] === "R" || code[0] === "C") i++; // the source path follows as its own record
      entries.push({ path, code, kind: statusKind(code) });
    }
    return entries;
  }

  /** Full sha of a ref, or null when it does not exist here. */
  async resolve(ref: string): Promise<string | null> {
    if (ref.startsWith("-")) return null;
    const r = await this.git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { allowFail: true });
    return r.code === 0 ? r.stdout.trim() : null;
  }

  /** A file's content at a ref, or null when the file does not exist there. */
  async show(ref: string, path: string): Promise<string | null> {
    const r = await this.git(["show", `${ref}:${path}`], { allowFail: true });
    return r.code === 0 ? r.stdout : null;
  }

  /** Commits that touched path, newest first (follows no renames: the config names the path). */
  async commitsTouching(path: string, ref = "HEAD", max?: number): Promise<Commit[]> {
    const args = ["log", "--format=%H%x09%cI%x09%s", ...(max ? [`-n${max}`] : []), ref, "--", path];
    const r = await this.git(args, { allowFail: true });
    return r.code === 0 ? parseCommits(r.stdout) : [];
  }

  /**
   * One pass over a file's history: every commit that touched it, newest first, with its patch.
   * Preflight reads every contract's history out of this single call instead of one pickaxe per flag.
   */
  async fileHistory(path: string, ref = "HEAD"): Promise<{ commit: Commit; added: string[]; removed: string[] }[]> {
    const r = await this.git(["log", "-p", "--no-merges", "--no-color", "--unified=0", "--no-ext-diff", "--format=%x00%H%x09%cI%x09%s", ref, "--", path], { allowFail: true });
    if (r.code !== 0) return [];
    const out: { commit: Commit; added: string[]; removed: string[] }[] = [];
    for (const chunk of r.stdout.split("\0")) {
      if (!chunk) continue;
      const nl = chunk.indexOf("\n");
      const header = nl < 0 ? chunk : chunk.slice(0, nl);
      const [commit] = parseCommits(header);
      if (!commit) continue;
      const added: string[] = [];
      const removed: string[] = [];
      let inHunk = false; // before the first @@ the "---"/"+++" lines are file headers, not content
      for (const line of (nl < 0 ? "" : chunk.slice(nl + 1)).split("\n")) {
        if (line.startsWith("@@")) inHunk = true;
        else if (line.startsWith("diff --git")) inHunk = false;
        else if (!inHunk) continue;
        else if (line.startsWith("+")) added.push(line.slice(1));
        else if (line.startsWith("-")) removed.push(line.slice(1));
      }
      out.push({ commit, added, removed });
    }
    return out;
  }

  async commit(sha: string): Promise<Commit | null> {
    const r = await this.git(["log", "-1", "--format=%H%x09%cI%x09%s", sha], { allowFail: true });
    return r.code === 0 ? (parseCommits(r.stdout)[0] ?? null) : null;
  }

  /** Tracked and untracked, not ignored files of the work tree. */
  async listFiles(): Promise<string[]> {
    const r = await this.git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    return [...new Set(r.stdout.split("\0").filter(Boolean))];
  }

  /** `git log --all -S<token>` as the seed does it by hand (used by the benchmark as the baseline). */
  async pickaxe(token: string, path?: string): Promise<Commit[]> {
    const r = await this.git(["log", "--all", `-S${token}`, "--format=%H%x09%cI%x09%s", ...(path ? ["--", path] : [])]);
    return parseCommits(r.stdout);
  }
}

function statusKind(code: string): StatusEntry["kind"] {
  if (code === "??") return "untracked";
  if (code.includes("U") || code === "AA" || code === "DD") return "conflicted";
  if (code[0] === "R" || code[0] === "C") return "renamed";
  if (code[1] === "D" || code[0] === "D") return "deleted";
  if (code[1] === "M" || code[1] === "T") return "modified";
  return "staged";
}

function parseCommits(text: string): Commit[] {
  return text
    .split("\n")
    .filter((l) => /^[0-9a-f]{40}\t/.test(l))
    .map((l) => {
      const [sha, date, ...rest] = l.split("\t");
      return { sha: sha!, date: date!, subject: rest.join("\t") };
    });
}
