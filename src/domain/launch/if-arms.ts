// Which branch of an `if TEST; then ... elif ... else ... fi` runs when nobody passes anything, read from the test
// and the values the script has given its variables by then (`USE_JINJA=${LLAMA_USE_JINJA:-off}` ... `if [[
// "$USE_JINJA" == on ]]`), and whether a command after `TEST &&` (or `TEST ||`) runs by default. A flag appended
// only where the defaults do not reach is off by default: the drop check counts a flag moved there as gone. Pure.
import type { Command, Word } from "./model.js";
import { evalTest } from "./default-branch.js";

type Env = ReadonlyMap<string, string | null>;
type Branch = "taken" | "skipped" | "unknown";

export class IfArms {
  private readonly stack: { branch: Branch; anyTaken: boolean; known: boolean; later: boolean }[] = [];

  /** The `if` or `elif` keyword, with the rest of its line (the test) and the variables' values there. */
  test(elif: boolean, rest: string, env: Env): void {
    // a variable the script never sets is unknown here, not empty: the environment may well set it
    const holds = evalTest(rest, env, false);
    if (!elif) {
      this.stack.push({ branch: branchOf(holds), anyTaken: holds === true, known: holds !== null, later: false });
      return;
    }
    const f = this.stack.at(-1);
    if (!f) return;
    f.later = true;
    if (f.anyTaken) f.branch = "skipped";
    else if (!f.known || holds === null) [f.branch, f.known] = ["unknown", false];
    else [f.branch, f.anyTaken] = [branchOf(holds), holds];
  }

  /** `else`: runs when every test before it is known false. */
  otherwise(): void {
    const f = this.stack.at(-1);
    if (f) [f.branch, f.later] = [f.anyTaken ? "skipped" : f.known ? "taken" : "unknown", true];
  }

  /** In an `elif` or `else` branch of an if whose earlier tests the defaults cannot judge: either branch may run. */
  get undecidedAlternative(): boolean {
    const f = this.stack.at(-1);
    return f !== undefined && f.later && f.branch === "unknown";
  }

  close(): void {
    this.stack.pop();
  }

  /** Inside a branch that does not run by default. */
  get skipping(): boolean {
    return this.stack.some((f) => f.branch === "skipped");
  }
}

/** The if-branches and `test &&` chains around the command being read: is it off the default path? */
export class DefaultPath {
  private readonly ifs = new IfArms();
  /** the command being read follows a `test && ` the defaults make false (or `test || ` they make true) */
  private chainSkip = false;

  /** `if`/`elif` (with the line it is on), `else`, `fi`. */
  keyword(word: string, line: string, env: Env): void {
    if (word === "if" || word === "elif") {
      const test = new RegExp(`\\b${word}\\s+(.*)$`).exec(line)?.[1] ?? "";
      this.ifs.test(word === "elif", test, env);
    } else if (word === "else") this.ifs.otherwise();
    else if (word === "fi") this.ifs.close();
  }

  /** `TEST && ` or `TEST || `: `[[ "${DET:-0}" == 1 ]] && FLAGS="--enable-deterministic-inference"`. */
  chain(op: "&&" | "||", test: Command | null, env: Env): void {
    const holds = test ? testHolds(test, env) : null;
    this.chainSkip = holds !== null && (op === "&&" ? !holds : holds);
  }

  /** `;`, a newline, `&`: the chain ends. */
  separator(): void {
    this.chainSkip = false;
  }

  get off(): boolean {
    return this.ifs.skipping || this.chainSkip;
  }

  get undecidedAlternative(): boolean {
    return this.ifs.undecidedAlternative;
  }

  /** A word added inside a branch: optional; off by default when the branch is known not to run by default. */
  word(w: Word, conditional: boolean): Word {
    const off = w.offDefault || this.off;
    return { ...w, optional: w.optional || conditional, ...(off ? { offDefault: true } : {}) };
  }

  /** A string variable set here: the words the assignment added are off by default; the earlier words an append
   *  (or `X="$X --flag"`) kept are not. */
  mark(prev: Word[] | undefined, now: Word[]): Word[] {
    if (!this.off) return now;
    const kept =
      prev && now.slice(0, prev.length).every((w, i) => w.text === prev[i]!.text && w.line === prev[i]!.line);
    const from = kept ? prev.length : 0;
    return now.map((w, i) => (i >= from ? { ...w, offDefault: true } : w));
  }
}

/** `[ ... ]`, `[[ ... ]]` or `test ...` with the script's values filled in: true/false, or null when unknown. */
function testHolds(cmd: Command, env: Env): boolean | null {
  const first = cmd.words[0]?.text;
  if (first !== "[[" && first !== "[" && first !== "test") return null;
  const texts = cmd.words.map((w) => w.resolved ?? w.text);
  if (texts.some((t) => t.includes("$") || t.includes("'"))) return null;
  return evalTest(
    texts.map((t, i) => (i === 0 || /^(\]\]|\]|==?|!=|-[a-z]{1,2})$/.test(t) ? t : `'${t}'`)).join(" "),
    env,
    false,
  );
}

const branchOf = (holds: boolean | null): Branch => (holds === null ? "unknown" : holds ? "taken" : "skipped");
