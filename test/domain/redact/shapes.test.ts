// The token shapes side by side: the redactor's are broad, the secret-in-argv trap's narrow.
import { describe, expect, it } from "vitest";
import { REDACTOR_TOKEN_SHAPES, TRAP_LITERAL_TOKEN } from "../../../src/domain/redact/shapes.js";
import { redact } from "../../../src/domain/redact/redact.js";

const redactorSees = (v: string) => REDACTOR_TOKEN_SHAPES.some((re) => new RegExp(re.source).test(v));
const trapSees = (v: string) => TRAP_LITERAL_TOKEN.test(v);

// value -> [redactor, trap]
const CASES: [string, string, boolean, boolean][] = [
  ["sk- with 16 characters", `sk-${"a".repeat(16)}`, true, false], // the thresholds differ: 16+ vs 20+
  ["sk- with 20 characters", `sk-${"a".repeat(20)}`, true, true],
  ["sk- with 15 characters", `sk-${"a".repeat(15)}`, false, false],
  ["a Hugging Face token", `hf_${"A".repeat(20)}`, true, true],
  ["a GitHub token", `ghp_${"a".repeat(30)}`, true, true],
  ["a GitHub fine-grained token", `github_pat_${"a".repeat(30)}`, true, false],
  ["a Slack token", `xoxb-${"1".repeat(10)}`, true, false],
  ["an AWS key id", `AKIA${"A".repeat(16)}`, true, false],
];

describe("what a secret value looks like, per reader", () => {
  it.each(CASES)("%s", (_what, value, redactor, trap) => {
    expect([redactorSees(value), trapSees(value)]).toEqual([redactor, trap]);
  });

  it("the redactor masks a 16-character sk- key the trap lets pass", () => {
    const key = `sk-${"a".repeat(16)}`;
    expect(redact(`key ${key}`)).toBe("key ***");
    expect(TRAP_LITERAL_TOKEN.test(key)).toBe(false);
  });
});
