// The prefilter's automaton is made at build time (scripts/build-prefilter.ts): the committed table must be the one the
// literals make now, and the table explain expands on start must find exactly the literals a plain search finds.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { groupsOf } from "../../../src/domain/diagnosis/prefilter.js";
import { compactAutomaton } from "../../../src/domain/diagnosis/prefilter-automaton.js";
import { expandLiterals } from "../../../src/domain/journal/wasm-lines.js";
import { GROUPS } from "../../../src/domain/diagnosis/prefilter-literals.js";
import { prefilterTableSource } from "../../../src/domain/diagnosis/prefilter-source.js";

const GENERATED = join(import.meta.dirname, "../../../src/domain/diagnosis/prefilter-table.generated.ts");

/** A plain search: each literal looked for in the text with A-Z made lower case (and nothing else). */
function reference(text: string): number {
  const folded = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  let bits = 0;
  for (const [bit, words] of GROUPS) for (const w of words) if (folded.includes(w)) bits |= bit;
  return bits;
}

/** A seeded generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the prefilter's generated automaton", () => {
  it("is the one the literals make now (after changing prefilter-literals.ts: npm run build:prefilter)", () => {
    expect(readFileSync(GENERATED, "utf8"), "run npm run build:prefilter and commit the generated file").toBe(
      prefilterTableSource(),
    );
  });

  it("finds what a plain search finds: every literal in any case, spliced, cut short, broken by non-ASCII", () => {
    const words = GROUPS.flatMap(([, w]) => w);
    const next = random(25);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const filler = ["word ", "Engine 000: ", "é", "\u2502", " ", "GPU KV cache usage: 3.1%", "(APIServer pid=1) "];
    const texts: string[] = words.flatMap((w) => [w, w.toUpperCase(), `x${w}x`, w.slice(0, -1)]);
    for (let i = 0; i < 5000; i++) {
      let t = "";
      for (let k = Math.floor(next() * 6); k >= 0; k--) {
        const w = pick(words);
        const piece = next() < 0.5 ? w : w.slice(0, Math.floor(next() * w.length));
        t += pick(filler) + (next() < 0.3 ? piece.toUpperCase() : piece);
        // a non-ASCII character inside a literal breaks it
        if (next() < 0.1) t = t.slice(0, -2) + "ü" + t.slice(-2);
      }
      texts.push(t);
    }
    for (const t of texts) expect(groupsOf(t), JSON.stringify(t)).toBe(reference(t));
  });

  it("expands the same whatever order the literals were given in", () => {
    const reversed = [...GROUPS].reverse().map(([bit, w]) => [bit, [...w].reverse()] as const);
    const a = expandLiterals(compactAutomaton(GROUPS));
    const b = expandLiterals(compactAutomaton(reversed));
    // (the states are numbered alike: breadth first, children by character)
    const bytes = (x: Uint16Array) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
    expect(bytes(b.delta).equals(bytes(a.delta))).toBe(true);
    expect([...b.out]).toEqual([...a.out]);
  });
});
