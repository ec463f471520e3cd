// bash -n and shellcheck run once over every work-tree script of a run, not once per script: starting a process
// costs more than checking a serve script, and a repository may hold dozens. A file the batch did not answer for
// (a batch that failed or ran out of time) is checked on its own by the caller. Only files their target asks for
// are checked: one preflight cannot read (nested past the lexer's bound) can take shellcheck minutes.
import { join } from "node:path";
import { runLocal, type LocalResult } from "../../ports/local/run-local.js";

type Answer = Pick<LocalResult, "code" | "stdout" | "stderr" | "timedOut" | "spawnError">;

export interface ScriptAnswers {
  /** bash -n's exit status and messages per file (relative to the repository root) */
  bash: Map<string, Answer>;
  /** shellcheck's json1 answer per file; empty when it did not run */
  shellcheck: Map<string, Answer>;
}

// one bash checks each file in its own `bash -n` child (a fork, not a new Node spawn): status and messages
// NUL-separated, in argument order
const LOOP = 'for f; do e=$(bash -n -- "$f" 2>&1 >/dev/null); printf "%s\\0%s\\0" "$?" "$e"; done';

const answer = (code: number, stdout: string, stderr: string): Answer => ({
  code,
  stdout,
  stderr,
  timedOut: false,
  spawnError: null,
});

export async function checkScripts(
  root: string,
  files: readonly string[],
  shellcheck: boolean,
): Promise<ScriptAnswers> {
  const out: ScriptAnswers = { bash: new Map(), shellcheck: new Map() };
  if (files.length === 0) return out;
  const abs = files.map((f) => join(root, f));
  const deadline = 60_000 + 1_000 * files.length;
  const [bash, sc] = await Promise.all([
    runLocal("bash", ["-c", LOOP, "bash-n", ...abs], { cwd: root, timeoutMs: deadline }),
    shellcheck
      ? runLocal("shellcheck", ["-f", "json1", "-S", "warning", "-x", ...abs], { cwd: root, timeoutMs: deadline })
      : null,
  ]);
  const parts = bash.stdout.split("\0");
  if (bash.code === 0 && !bash.timedOut && parts.length === 2 * files.length + 1)
    files.forEach((f, i) => out.bash.set(f, answer(Number(parts[2 * i]), "", parts[2 * i + 1]!)));
  if (sc && !sc.timedOut && (sc.code === 0 || sc.code === 1)) {
    const comments = parseComments(sc.stdout);
    if (comments)
      files.forEach((f, i) => {
        const own = comments.filter((c) => c.file === abs[i]);
        out.shellcheck.set(f, answer(own.length ? 1 : 0, JSON.stringify({ comments: own }), ""));
      });
  }
  return out;
}

function parseComments(json: string): { file?: string }[] | null {
  try {
    const parsed = JSON.parse(json || "{}") as { comments?: { file?: string }[] };
    return parsed.comments ?? [];
  } catch {
    return null;
  }
}

/**
 * Gathers the scripts the run's targets ask for, then checks them in one batch. Every candidate target either
 * asks (`want`) or is done without asking (`done`, from a finally): the batch starts when none is left pending.
 */
export class ScriptBatch<T extends object> {
  private readonly pending: Set<T>;
  private readonly wanted = new Set<string>();
  private started: Promise<ScriptAnswers> | null = null;
  private start!: (a: Promise<ScriptAnswers>) => void;
  private readonly answers = new Promise<ScriptAnswers>((resolve) => (this.start = resolve));

  constructor(
    private readonly root: string,
    candidates: readonly T[],
    private readonly shellcheck: boolean,
  ) {
    this.pending = new Set(candidates);
    this.maybeRun();
  }

  /** `target` asks for `file`'s answers; they come once every other candidate has asked or is done. */
  want(target: T, file: string): Promise<ScriptAnswers> {
    this.wanted.add(file);
    this.done(target);
    return this.answers;
  }

  done(target: T): void {
    if (this.pending.delete(target)) this.maybeRun();
  }

  private maybeRun(): void {
    if (this.pending.size > 0 || this.started) return;
    this.started = checkScripts(this.root, [...this.wanted], this.shellcheck);
    this.start(this.started);
  }
}
