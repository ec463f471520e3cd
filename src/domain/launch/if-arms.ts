// Which branch of an `if TEST; then ... elif ... else ... fi` runs when nobody passes anything, read from the test
// and the values the script has given its variables by then (`USE_JINJA=${LLAMA_USE_JINJA:-off}` ... `if [[
// "$USE_JINJA" == on ]]`). A flag appended only in a branch that does not run by default is off by default: the
// drop check counts a flag moved there as gone. Pure.
import { evalTest } from "./default-branch.js";

type Env = ReadonlyMap<string, string | null>;
type Branch = "taken" | "skipped" | "unknown";

export class IfArms {
  private readonly stack: { branch: Branch; anyTaken: boolean; known: boolean }[] = [];

  /** The `if` or `elif` keyword, with the rest of its line (the test) and the variables' values there. */
  test(elif: boolean, rest: string, env: Env): void {
    // a variable the script never sets is unknown here, not empty: the environment may well set it
    const holds = evalTest(rest, env, false);
    if (!elif) {
      this.stack.push({ branch: branchOf(holds), anyTaken: holds === true, known: holds !== null });
      return;
    }
    const f = this.stack.at(-1);
    if (!f) return;
    if (f.anyTaken) f.branch = "skipped";
    else if (!f.known || holds === null) [f.branch, f.known] = ["unknown", false];
    else [f.branch, f.anyTaken] = [branchOf(holds), holds];
  }

  /** `else`: runs when every test before it is known false. */
  otherwise(): void {
    const f = this.stack.at(-1);
    if (f) f.branch = f.anyTaken ? "skipped" : f.known ? "taken" : "unknown";
  }

  close(): void {
    this.stack.pop();
  }

  /** Inside a branch that does not run by default. */
  get skipping(): boolean {
    return this.stack.some((f) => f.branch === "skipped");
  }
}

const branchOf = (holds: boolean | null): Branch => (holds === null ? "unknown" : holds ? "taken" : "skipped");
