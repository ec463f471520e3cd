// The prefilter, line by line: a line that lacks a group's literals cannot match that group's patterns, so each line
// on its own, and in the places where the diagnosis reads a line differently (after an engine's banner, inside a
// traceback), gets the same diagnosis with the prefilter as with every pattern run on it. The lines: every line of
// the committed corpora (test/fixtures/corpora), the real logs of the field sets when this machine has them
// (gitignored, .cache/field/logs-5 and logs-6: skipped without them), and seeded random lines made from both: real
// lines cut at random, with random case, and with a literal spliced in whole or short of its last character (a line
// that almost holds it).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { LITERALS } from "../../../src/domain/diagnosis/prefilter.js";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function linesOf(paths: string[]): string[] {
  const all = new Set<string>();
  for (const p of paths) for (const l of readFileSync(p, "utf8").split("\n")) if (l.trim() !== "") all.add(l);
  return [...all];
}

const ROOT = join(import.meta.dirname, "../../..");
const CORPORA = linesOf(files(join(ROOT, "test/fixtures/corpora")).filter((f) => statSync(f).size < 1 << 20));
const FIELD = ["logs-5", "logs-6"].map((s) => join("/work/main/.cache/field", s)).filter((d) => existsSync(d));
const REAL = linesOf(FIELD.flatMap((d) => files(d).filter((f) => !f.endsWith(".tsv"))));

/** A small seeded generator (mulberry32), so a failing line can be made again. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomLines(pool: string[], n: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let l = pick(pool);
    const a = Math.floor(r() * l.length);
    l = l.slice(a, a + 1 + Math.floor(r() * 200));
    const lit = pick(LITERALS);
    const spliced = r() < 0.5 ? lit : lit.slice(0, -1);
    const at = Math.floor(r() * (l.length + 1));
    if (r() < 0.7) l = l.slice(0, at) + spliced + l.slice(at);
    const caseRoll = r();
    if (caseRoll < 0.3) l = l.toUpperCase();
    else if (caseRoll < 0.5) l = [...l].map((c) => (r() < 0.5 ? c.toUpperCase() : c)).join("");
    out.push(l);
  }
  return out;
}

/** The places a line is read differently: alone, once the engine is known, inside an open traceback. */
const BANNER = "INFO 12-01 10:00:00 [api_server.py:1] vLLM API server version 0.9.0";
const contexts = (line: string): string[] => [
  line,
  `${BANNER}\n${line}`,
  `${BANNER}\nTraceback (most recent call last):\n  File "x.py", line 1, in <module>\n${line}`,
];

function mismatches(lines: string[]): string[] {
  const bad: string[] = [];
  for (const line of lines)
    for (const text of contexts(line))
      if (JSON.stringify(explain(text)) !== JSON.stringify(explain(text, { prefilter: false }))) bad.push(text);
  return bad;
}

describe("prefilter, line by line", () => {
  it("has lines to read: the committed corpora", () => expect(CORPORA.length).toBeGreaterThan(5000));

  it("the corpora's lines: the same diagnosis with and without it", () => {
    expect(mismatches(CORPORA)).toEqual([]);
  }, 300_000);

  it.skipIf(REAL.length === 0)(
    "the field sets' real logs (when present): the same diagnosis",
    () => {
      expect(mismatches(REAL)).toEqual([]);
    },
    300_000,
  );

  it("random lines made from them, near-misses of every literal among them: the same diagnosis", () => {
    expect(mismatches(randomLines([...CORPORA, ...REAL], 20_000, 25))).toEqual([]);
  }, 300_000);
});
