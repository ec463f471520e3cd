import { describe, expect, it } from "vitest";
import { decodePrompt } from "../../../src/stages/verify/decode-prompt.js";
import { detectLoop } from "../../../src/stages/verify/repetition.js";
import { longAnswer } from "../../sandbox/engine/decode.js";

describe("loop detector", () => {
  it("passes varied prose: the decode prompts and the double's long answers", () => {
    // a long prompt from a phrase bank reuses phrases (fewer distinct 4-grams) but never loops at its tail
    for (const t of [decodePrompt(166, 256), decodePrompt(1087, 256), longAnswer("seed", 300, false)]) {
      const v = detectLoop(t);
      expect(v.looping, t.slice(0, 80)).toBe(false);
      expect(v.distinct4).toBeGreaterThan(0.65);
    }
    expect(detectLoop(decodePrompt(4064, 256)).repeats).toBe(1);
  });

  it("catches a tail that repeats one block, and names the block", () => {
    const text = `${longAnswer("x", 60, false)} ${"and the bells rang again ".repeat(30)}`;
    const v = detectLoop(text);
    expect(v.looping).toBe(true);
    expect(v.block).toMatch(/bells rang again/);
    expect(v.repeats).toBeGreaterThanOrEqual(20);
    expect(detectLoop(longAnswer("s", 256, true)).looping).toBe(true);
  });

  it("catches a repeated word list (the bench prompts the seed warns about)", () => {
    expect(detectLoop("apple banana cherry ".repeat(40)).looping).toBe(true);
  });

  it("does not call a doubled word or a short text a loop", () => {
    expect(
      detectLoop("It was very very cold, and the harbor froze early that year while the clerks kept counting crates.")
        .looping,
    ).toBe(false);
    expect(detectLoop("no no no").looping).toBe(false);
  });
});
