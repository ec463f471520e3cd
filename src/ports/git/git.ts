// The git port: every question preflight asks of the repository. Runs the real git.
import { runLocal } from "../local/run-local.js";
import { shellQuote } from "../../lib/shell-quote.js";
import { UsageError } from "../../lib/usage-error.js";

export interface StatusEntry {
  path: string;
  /** a staged rename's or copy's source path */
  from?: string;
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

  private async git(
    args: string[],
    opts: { allowFail?: boolean; input?: string; timeoutMs?: number } = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    // literal pathspecs: a file named ":x.sh" or "s[1].sh" is that file, not pathspec magic or a glob
    const r = await runLocal("git", ["-c", "core.quotepath=off", "--literal-pathspecs", ...args], {
      cwd: this.cwd,
      input: opts.input,
      timeoutMs: opts.timeoutMs ?? 60_000,
    });
    if (r.spawnError) throw new GitError(`git could not be started (${r.spawnError.code}): install git and retry`);
    if (r.timedOut) throw new GitError(`git ${args[0]} timed out in ${this.cwd}`);
    if (r.code !== 0 && !opts.allowFail)
      throw new GitError(`git ${args.join(" ")} failed: ${r.stderr.trim() || `exit ${r.code}`}`);
    return r;
  }

  /** Top level, shallowness and HEAD in one process (HEAD null in a repository with no commit yet). */
  async info(): Promise<{ root: string; shallow: boolean; head: string | null } | null> {
    const r = await this.git(["rev-parse", "--show-toplevel", "--is-shallow-repository", "HEAD"], { allowFail: true });
    const dubious = unsafeRepository(r.stderr);
    if (dubious !== null) throw new UsageError(unsafeRepositoryMessage(dubious || this.cwd));
    const [root, shallow, head] = r.stdout.split("\n");
    if (!root || !shallow || root.startsWith("fatal")) return null;
    return {
      root,
      shallow: shallow === "true",
      head: r.code === 0 && head && /^[0-9a-f]{40,64}$/.test(head) ? head : null,
    };
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
      // the source path follows as its own record
      const from = code[0] === "R" || code[0] === "C" ? parts[++i] : undefined;
      entries.push({ path, ...(from ? { from } : {}), code, kind: statusKind(code) });
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
   * pickaxe per flag. --no-renames: a rename shows as a new file, so a diff header names one path
   * twice; renames are followed per file by nameAt, only when one is needed. The prefixes are
   * explicit: a user's diff.noprefix would drop them from the headers.
   */
  async histories(paths: readonly string[], ref = "HEAD"): Promise<Map<string, HistoryEntry[]>> {
    const result = new Map<string, HistoryEntry[]>(paths.map((p) => [p, []]));
    if (!paths.length) return result;
    const r = await this.git(
      [
        "log",
        "-p",
        "--no-merges",
        "--no-color",
        "--no-renames",
        "--unified=0",
        "--no-ext-diff",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--format=%x00%H%x09%P%x09%cI%x09%s",
        ref,
        "--",
        ...paths,
      ],
      { allowFail: true },
    );
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
          const path = diffHeaderPath(line) ?? "";
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

  /**
   * The name `path` (its name at `ref`) had at `base`, following renames in the commits between them;
   * null when none renamed it. One `git log --follow` (it takes one path), so ask only when the file
   * is missing at base.
   */
  async nameAt(path: string, base: string, ref = "HEAD"): Promise<string | null> {
    if (base.startsWith("-") || ref.startsWith("-")) return null;
    const r = await this.git(["log", "--follow", "--name-status", "-z", "--format=", `${base}..${ref}`, "--", path], {
      allowFail: true,
    });
    if (r.code !== 0) return null;
    const name = followRenames(r.stdout.split("\0"), path);
    return name === path ? null : name;
  }

  /** Many blobs (`ref:path`) or ref resolutions in one `git cat-file` process; null for what is missing. */
  async catFile(specs: readonly string[], mode: "--batch" | "--batch-check"): Promise<(Buffer | string | null)[]> {
    if (!specs.length) return [];
    // cat-file reads one spec a line: a path with a newline is named by its object id instead
    const lines = await Promise.all(specs.map((s) => (s.includes("\n") ? this.objectId(s) : s)));
    const r = await runLocal("git", ["cat-file", mode], {
      cwd: this.cwd,
      input: lines.join("\n") + "\n",
      timeoutMs: 60_000,
    });
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

  /** The object id a spec names; for one that does not exist, a line cat-file reports missing. */
  private async objectId(spec: string): Promise<string> {
    const r = spec.startsWith("-")
      ? null
      : await this.git(["rev-parse", "--verify", "--quiet", spec], { allowFail: true });
    return r?.code === 0 && /^[0-9a-f]{40,64}$/.test(r.stdout.trim()) ? r.stdout.trim() : "missing-object";
  }

  /** Commit these paths only (other staged changes stay staged and out of the commit). */
  async commitOnly(paths: readonly string[], message: string): Promise<void> {
    await this.git(["add", "--", ...paths]);
    await this.git(["commit", "-q", "-m", message, "--only", "--", ...paths]);
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

/**
 * "detected dubious ownership" (a checkout owned by another user, as in CI containers): the
 * repository path git names, "" when it names none; null for any other message.
 */
export function unsafeRepository(stderr: string): string | null {
  if (!/detected dubious ownership/i.test(stderr)) return null;
  return /dubious ownership in repository at '(.*)'/.exec(stderr)?.[1] ?? "";
}

export function unsafeRepositoryMessage(path: string): string {
  return (
    `${path} is a git repository owned by another user, and git refuses to read it ("detected dubious ownership"): ` +
    `trust it with \`git config --global --add safe.directory ${shellQuote(path)}\` (in GitHub Actions, actions/checkout adds the workspace; a checkout made otherwise, or a step run in another container or as another user, needs it added)`
  );
}

/**
 * Walks `git log --follow --name-status -z` records, newest first: each rename of the current name moves it back to the
 * source.
 */
export function followRenames(records: readonly string[], path: string): string {
  let name = path;
  for (let i = 0; i < records.length; i++) {
    const status = records[i]!.trim();
    if (!/^[A-Z]\d*$/.test(status)) continue;
    if (status[0] === "R" || status[0] === "C") {
      if (status[0] === "R" && records[i + 2] === name) name = records[i + 1]!;
      i += 2;
    } else i += 1;
  }
  return name;
}

/**
 * The path of a `diff --git a/P b/P` header (both sides the same path: histories runs with
 * --no-renames). git C-quotes a side that holds a quote, a backslash or a control character, even
 * with core.quotepath=off; an unquoted P may hold " b/", so it is split by length, not by pattern.
 */
export function diffHeaderPath(line: string): string | null {
  const rest = line.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const q = unquoteC(rest);
    return q?.value.startsWith("a/") ? q.value.slice(2) : null;
  }
  if (!rest.startsWith("a/") || rest.length % 2 === 0) return null;
  const half = (rest.length - 1) / 2;
  return rest.slice(half + 1) === `b/${rest.slice(2, half)}` ? rest.slice(2, half) : null;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * A C-quoted string as git writes one (quote.c): its value and the text after the closing quote. Null when malformed.
 */
export function unquoteC(text: string): { value: string; rest: string } | null {
  if (!text.startsWith('"')) return null;
  const bytes: Buffer[] = [];
  const run = /[^"\\]+/y;
  for (let i = 1; i < text.length;) {
    run.lastIndex = i;
    const plain = run.exec(text)?.[0];
    if (plain) {
      bytes.push(Buffer.from(plain, "utf8"));
      i += plain.length;
    } else if (text[i] === '"') {
      return { value: Buffer.concat(bytes).toString("utf8"), rest: text.slice(i + 1) };
    } else {
      // \ooo is one byte (of a UTF-8 sequence with core.quotepath on, or a control character)
      const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4))?.[0];
      const code = octal ? parseInt(octal, 8) : C_ESCAPES[text[i + 1] ?? ""];
      if (code === undefined) return null;
      bytes.push(Buffer.from([code]));
      i += octal ? 4 : 2;
    }
  }
  return null;
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
