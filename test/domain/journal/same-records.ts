// The differential check shared by the decoder's tests: the fast decoder (src/forensics/journal.ts, its
// per-line work in WebAssembly) gives the reference decoder's records and counts for a text, whether it
// comes whole, line by line, or as raw bytes cut anywhere.
import { expect } from "vitest";
import { decodeJournal, JournalDecoder } from "../../../src/domain/journal/decoder.js";
import { decodeJournalReference } from "./reference-decoder.js";

/** `sizes`: the raw-byte chunk sizes tried (1-byte chunks take long on a text of megabytes). */
export function same(text: string, sizes: readonly number[] = [1, 7, 64, 4096]): void {
  const ref = decodeJournalReference(text);
  const fast = decodeJournal(text);
  expect(fast.records).toEqual(ref.records);
  expect(fast.stats).toEqual(ref.stats);
  // line by line (the poll and explain paths) gives the same as a text at once
  const d = new JournalDecoder();
  const byLine = text.split("\n").flatMap((l) => d.push(l));
  byLine.push(...d.flush());
  expect(byLine).toEqual(ref.records);
  // raw bytes in chunks of every size, cut anywhere (inside UTF-8 characters too)
  for (const size of sizes) {
    const b = new JournalDecoder();
    const bytes = Buffer.from(text, "utf8");
    const out: ReturnType<JournalDecoder["flush"]> = [];
    for (let i = 0; i < bytes.length; i += size) b.pushBytes(bytes.subarray(i, i + size), out);
    out.push(...b.flush());
    expect(out, `chunks of ${size} bytes`).toEqual(ref.records);
  }
}

/** A small deterministic PRNG so a failure reproduces. */
export function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (x * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
