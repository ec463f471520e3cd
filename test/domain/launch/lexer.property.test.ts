// Property test against real bash: random words, written with random quoting, must lex back to
// the same words bash itself produces (printf '%s\0' prints bash's words).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { lex } from "../../../src/domain/launch/lexer.js";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = [
  "a",
  "b",
  "Z",
  "0",
  "9",
  "-",
  "_",
  "=",
  ":",
  "/",
  ".",
  ",",
  " ",
  "'",
  '"',
  "\\",
  "$",
  "*",
  "{",
  "}",
  "#",
  ";",
  "&",
  "|",
  "(",
  ")",
  "<",
  ">",
  "`",
  "!",
  "~",
  "\t",
];

function randomWord(r: () => number): string {
  const n = 1 + Math.floor(r() * 8);
  let w = "";
  for (let i = 0; i < n; i++) w += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return w;
}

/** Writes one word with a random mix of quoting styles, split into randomly quoted chunks. */
function quote(word: string, r: () => number): string {
  let out = "";
  let i = 0;
  while (i < word.length) {
    const len = 1 + Math.floor(r() * 3);
    const chunk = word.slice(i, i + len);
    i += len;
    const style = Math.floor(r() * 3);
    if (style === 0) out += `'${chunk.replace(/'/g, `'\\''`)}'`;
    else if (style === 1) out += `"${chunk.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
    else out += chunk.replace(/[^A-Za-z0-9_/.,:=-]/g, (c) => `\\${c}`);
  }
  return out;
}

describe("lexer against bash", () => {
  it("yields the words bash yields for 200 randomly quoted command lines", () => {
    const r = rng(20261129);
    const cases: { line: string; words: string[] }[] = [];
    for (let k = 0; k < 200; k++) {
      const ws = Array.from({ length: 1 + Math.floor(r() * 5) }, () => randomWord(r));
      const sep = () => (r() < 0.2 ? " \\\n  " : " ");
      cases.push({ line: ws.map((w) => quote(w, r)).join(sep()), words: ws });
    }
    // One bash run for all cases: each case prints its words NUL-separated, cases split by \x01.
    const program = cases.map((c) => `printf '%s\\0' ${c.line}; printf '\\001'`).join("\n");
    const out = execFileSync("bash", ["-c", program], { encoding: "utf8", timeout: 20_000 });
    const fromBash = out
      .split("\x01")
      .slice(0, -1)
      .map((s) => s.split("\0").slice(0, -1));
    for (const [i, c] of cases.entries()) {
      expect(fromBash[i], c.line).toEqual(c.words);
      const lexed = lex(c.line).flatMap((t) => (t.kind === "word" ? [t.word.text] : []));
      expect(lexed, c.line).toEqual(c.words);
    }
  });
});
