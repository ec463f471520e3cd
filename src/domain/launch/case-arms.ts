// Which arm of a `case WORD in` runs when nobody passes anything: the first whose pattern WORD's default value
// matches (`MODE=${MODE:-thinking}` ... `case "$MODE" in thinking) SAMPLE_ARGS=...`). An assignment in an arm that
// does not run is an alternative, not the value the engine gets. Pure.
import { globRegex } from "./default-branch.js";

type Arm = "taken" | "skipped" | "unknown";

export class CaseArms {
  private readonly stack: { value: string | undefined; matched: boolean; arm: Arm; patterns: string[] }[] = [];

  /** `case WORD in`: WORD's value when known. */
  open(value: string | undefined): void {
    this.stack.push({ value, matched: false, arm: "unknown", patterns: [] });
  }

  /** A word of the arm's pattern list (`a|b)` gives a and b). */
  pattern(word: string): void {
    this.stack.at(-1)?.patterns.push(word);
  }

  /** The `)` that ends the pattern list: whether this arm runs. */
  armStarts(): void {
    const c = this.stack.at(-1);
    if (!c) return;
    const hit = c.value !== undefined && c.patterns.some((p) => globRegex(p).test(c.value!));
    c.arm = c.value === undefined ? "unknown" : c.matched || !hit ? "skipped" : "taken";
    if (c.arm === "taken") c.matched = true;
    c.patterns = [];
  }

  close(): void {
    this.stack.pop();
  }

  /** Inside an arm that does not run by default. */
  get skipping(): boolean {
    return this.stack.some((c) => c.arm === "skipped");
  }
}
