// shellQuote against real shells: random argv, quoted, parsed back by sh (dash) and bash byte for byte.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellJoin, shellQuote } from "../../src/lib/shell-quote.js";

// Deterministic PRNG so a failure reproduces (the seed is in the test name).
function rng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}
const ALPHABET = [..." \t\n'\"\\$`!*?[]{}()<>|&;#~=%^,.:-_/@+", "a", "Z", "0", "é", "🙂", "\r", "\x01", "\x7f"];

function randomArg(r: () => number): string {
  const n = Math.floor(r() * 12);
  let s = "";
  for (let i = 0; i < n; i++)
    s += r() < 0.3 ? String.fromCharCode(0x20 + Math.floor(r() * 95)) : ALPHABET[Math.floor(r() * ALPHABET.length)]!;
  return s;
}

/** Every list printed NUL-separated by one shell run; split back by the known list lengths. */
function roundTrip(shell: string, cases: string[][]): string[][] {
  const script = cases.map((argv) => `printf '%s\\0' ${shellJoin(argv)}`).join("\n");
  const fields = execFileSync(shell, ["-c", script], { encoding: "utf8" }).split("\0");
  let i = 0;
  return cases.map((argv) => fields.slice(i, (i += argv.length)));
}

describe("shellQuote", () => {
  for (const shell of ["sh", "bash"]) {
    it(`round-trips 300 random argument lists through ${shell} (seed 42)`, () => {
      const r = rng(42);
      const cases = Array.from({ length: 300 }, () =>
        Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomArg(r)),
      );
      expect(roundTrip(shell, cases)).toEqual(cases);
    });
  }

  it("leaves plain words bare and quotes everything else", () => {
    expect(shellQuote("--port")).toBe("--port");
    expect(shellQuote("/models/qwen")).toBe("/models/qwen");
    expect(shellQuote("")).toBe("''");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it("refuses NUL bytes and empty commands with a message that says what to do", () => {
    expect(() => shellQuote("a\0b")).toThrow(/NUL byte/);
    expect(() => shellJoin([])).toThrow(/program name/);
  });
});
