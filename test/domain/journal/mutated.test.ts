// Damaged journal dumps (bytes inserted, dropped or replaced: invalid escapes, raw control bytes, stray
// brackets) never stop the decoder or explain: every non-blank line ends as a record or as a malformed
// one, and the rest of the dump still decodes. A pasted or truncated dump is the input a person has when
// something went wrong; before this test, a bad escape in a wanted field threw out of the decoder.
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { JournalDecoder } from "../../../src/domain/journal/decoder.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";

const LINES = [
  ...fixture("oom-tp2.journal.json").split("\n"),
  ...fixture("crash-loop.journal.json").split("\n"),
].filter((l) => l.trim() !== "");
const DAMAGE = [
  '"',
  "\\",
  "\\u",
  "\\ud800",
  "\\x",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "\t",
  "\x00",
  "\x1b",
  "\r",
  "null",
  "1e5",
  "true",
  "é",
  " ",
];

function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function damagedDump(r: () => number, n: number, from: readonly string[] = LINES): string[] {
  const lines: string[] = [];
  for (let k = 0; k < n; k++) {
    let l = from[Math.floor(r() * from.length)]!;
    for (let j = 1 + Math.floor(r() * 3); j > 0; j--) {
      const at = Math.floor(r() * l.length);
      const piece = DAMAGE[Math.floor(r() * DAMAGE.length)]!;
      const op = r();
      l =
        op < 0.4
          ? l.slice(0, at) + piece + l.slice(at)
          : op < 0.7
            ? l.slice(0, at) + l.slice(at + 1 + Math.floor(r() * 5))
            : l.slice(0, at) + piece + l.slice(at + 1);
    }
    lines.push(l);
  }
  return lines;
}

describe("the decoder on damaged dumps", () => {
  it("accounts for every line (a record or malformed) and never throws, on 1,500 damaged dumps", () => {
    const r = rng(20261201);
    let malformed = 0;
    let records = 0;
    for (let i = 0; i < 1500; i++) {
      const lines = damagedDump(r, 6);
      const d = new JournalDecoder();
      d.pushBytes(Buffer.from(lines.join("\n") + "\n"));
      d.flush();
      const nonBlank = lines.filter((l) => Buffer.from(l).some((b) => b > 32)).length;
      expect(d.stats.records + d.stats.malformed, lines.join("\n")).toBe(nonBlank);
      malformed += d.stats.malformed;
      records += d.stats.records;
    }
    // the damage reaches both outcomes: lines still read, and lines refused
    expect(malformed).toBeGreaterThan(1000);
    expect(records).toBeGreaterThan(3000);
  });

  it("a line with a bad escape in a wanted field is malformed and the next line still decodes", () => {
    const good = '{"__CURSOR":"c2","__REALTIME_TIMESTAMP":"2","MESSAGE":"after it"}';
    for (const bad of [
      '"UNIT":"a\\xb.service"',
      '"MESSAGE":"\\ud8"',
      '"__CURSOR":"c\\q"',
      '"MESSAGE":"tab\tin an \\"escaped\\" one"',
      '"_TRANSPORT":"std\\uZZZZ"',
    ]) {
      const d = new JournalDecoder();
      const out = d.pushBytes(Buffer.from(`{"__REALTIME_TIMESTAMP":"1",${bad}}\n${good}\n`));
      out.push(...d.flush());
      expect(d.stats.malformed, bad).toBe(1);
      expect(
        out.map((x) => x.text),
        bad,
      ).toEqual(["after it"]);
    }
  });

  it("explain still finds the OOM in the TP=2 dump with a tenth of its other lines damaged, on 40 seeds", () => {
    const lines = fixture("oom-tp2.journal.json")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const message = (l: string) => {
      try {
        const m = (JSON.parse(l) as { MESSAGE?: unknown }).MESSAGE;
        return Array.isArray(m) ? Buffer.from(m as number[]).toString("utf8") : String(m);
      } catch {
        return ""; // the fixture's line cut mid-way
      }
    };
    // the OOM's own pieces stay whole: damaging them is a different dump
    const keep = lines.map(
      (l) => /PARTIAL|_LINE_BREAK/.test(l) || /OutOfMemory|Tried to allocate|out of memory/.test(message(l)),
    );
    expect(keep.filter(Boolean).length).toBeGreaterThan(0);
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      let damaged = 0;
      const dump = lines.map((l, i) => {
        if (keep[i] || r() >= 0.1) return l;
        damaged++;
        return damagedDump(() => r(), 1, [l])[0]!;
      });
      expect(damaged, `seed ${seed}`).toBeGreaterThan(0);
      const verdict = explain(dump.join("\n"));
      expect(verdict.class, `seed ${seed}`).toBe("oom");
    }
  });
});
