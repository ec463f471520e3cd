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
  /** parent shas, first parent first (empty for a root commit) */
  parents: string[];
  date: string;
  subject: string;
}

export interface HistoryEntry {
  commit: Commit;
  added: string[];
  removed: string[];
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

  /** Top level, shallowness and HEAD in one process (HEAD null in a repository with no commit yet). */
  async info(): Promise<{ root: string; shallow: boolean; head: string | null } | null> {
    const r = await this.git(["rev-parse", "--show-toplevel", "--is-shallow-repository", "HEAD"], { allowFail: true });
    const [root, shallow, head] = r.stdout.split("\n");
    if (!root || !shallow || root.startsWith("fatal")) return null;
    return { root, shallow: shallow === "true", head: r.code === 0 && head && /^[0-9a-f]{40,64}$/.test(head) ? head : null };
  }

  /** The branch HEAD is on, or null when detached (CI checkouts of a sha). */
  async branch(): Promise<string | null> {
    const r = await this.git(["symbolic-ref", "--short", "-q", "HEAD"], { allowFail: true });
    return r.code === 0 && r.stdout.trim() ? r.stdout.trim() : null;
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

  /**
   * One pass over the history of several files: every commit that touched each, newest first, with
   * its patch. Preflight reads every contract's history out of this single call instead of one
   * pickaxe per flag.
   */
  async histories(paths: readonly string[], ref = "HEAD"): Promise<Map<string, HistoryEntry[]>> {
    const result = new Map<string, HistoryEntry[]>(paths.map((p) => [p, []]));
    if (!paths.length) return result;
    const r = await this.git(["log", "-p", "--no-merges", "--no-color", "--no-renames", "--unified=0", "--no-ext-diff", "--format=%x00%H%x09%P%x09%cI%x09%s", ref, "--", ...paths], { allowFail: true });
    if (r.code !== 0) return result;
    for (const chunk of r.stdout.split("\0")) {
      if (!chunk) continue;
      const nl = chunk.indexOf("\n");
      const [commit] = parseCommits(nl < 0 ? chunk : chunk.slice(0, nl));
      if (!commit) continue;
      let cur: HistoryEntry | null = null;
      let inHunk = false; // before the first @@ the "---"/"+++" lines are file headers, not content
      for (const line of (nl < 0 ? "" : chunk.slice(nl + 1)).split("\n")) {
        if (line.startsWith("diff --git ")) {
          const path = /^diff --git a\/(.*) b\//.exec(line)?.[1] ?? "";
          const list = result.get(path);
          cur = list ? { commit, added: [], removed: [] } : null;
          if (cur) list!.push(cur);
          inHunk = false;
        } else if (line.startsWith("@@")) inHunk = true;
        else if (!inHunk || !cur) continue;
        else if (line.startsWith("+")) cur.added.push(line.slice(1));
        else if (line.startsWith("-")) cur.removed.push(line.slice(1));
      }
    }
    return result;
  }

  /** Many blobs (`ref:path`) or ref resolutions in one `git cat-file` process; null for what is missing. */
  async catFile(specs: readonly string[], mode: "--batch" | "--batch-check"): Promise<(Buffer | string | null)[]> {
    if (!specs.length) return [];
    if (specs.some((s) => s.includes("\n"))) throw new GitError("a ref or path contains a newline");
    const r = await runLocal("git", ["cat-file", mode], { cwd: this.cwd, input: specs.join("\n") + "\n", timeoutMs: 60_000 });
    if (r.code !== 0) throw new GitError(`git cat-file failed: ${r.stderr.trim()}`);
    const buf = r.stdoutBytes;
    const out: (Buffer | string | null)[] = [];
    let pos = 0;
    for (let i = 0; i < specs.length; i++) {
      const eol = buf.indexOf(0x0a, pos);
      const header = buf.subarray(pos, eol).toString("utf8");
      pos = eol + 1;
      const m = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(header);
      if (!m) {
        out.push(null); // "<spec> missing" or "ambiguous"
        continue;
      }
      if (mode === "--batch-check") {
        out.push(m[1]!);
        continue;
      }
      const size = Number(m[3]);
      out.push(m[2] === "blob" ? buf.subarray(pos, pos + size) : null);
      pos += size + 1;
    }
    return out;
  }

  /** Tracked and untracked, not ignored files of the work tree. */
  async listFiles(): Promise<string[]> {
    const r = await this.git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    return [...new Set(r.stdout.split("\0").filter(Boolean))];
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
      const [sha, parents, date, ...rest] = l.split("\t");
      return { sha: sha!, parents: parents ? parents.split(" ") : [], date: date!, subject: rest.join("\t") };
    });
}
