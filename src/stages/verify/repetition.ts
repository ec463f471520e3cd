// A loop detector for generated text: a sample whose tail repeats one block over and over is a
// degenerate completion (seed 003: a loop makes expert-cache hits ~100% and fakes a 3-4x decode).
// Pure.

export interface LoopVerdict {
  looping: boolean;
  /** the repeated block (first words), when one was found */
  block: string | null;
  /** how many times the block repeats back to back at the end */
  repeats: number;
  /** share of the words covered by that run of repeats */
  coverage: number;
  /** distinct word 4-grams / all word 4-grams: natural prose stays near 1 */
  distinct4: number;
}

const MAX_PERIOD = 64;

function tailRun(words: readonly string[]): { period: number; repeats: number } {
  let best = { period: 0, repeats: 1, covered: 0 };
  for (let p = 1; p <= Math.min(MAX_PERIOD, Math.floor(words.length / 2)); p++) {
    let reps = 1;
    // count back-to-back copies of the last p words, walking back one block at a time
    while ((reps + 1) * p <= words.length) {
      const a = words.length - p;
      const b = words.length - (reps + 1) * p;
      let same = true;
      for (let i = 0; i < p && same; i++) same = words[a + i] === words[b + i];
      if (!same) break;
      reps++;
    }
    if (reps > 1 && reps * p > best.covered) best = { period: p, repeats: reps, covered: reps * p };
  }
  return { period: best.period, repeats: best.repeats };
}

export function detectLoop(text: string): LoopVerdict {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .filter(Boolean);
  const grams = new Set<string>();
  for (let i = 0; i + 4 <= words.length; i++) grams.add(words.slice(i, i + 4).join(" "));
  const total = Math.max(0, words.length - 3);
  const distinct4 = total === 0 ? 1 : grams.size / total;
  const { period, repeats } = tailRun(words);
  const coverage = words.length === 0 || period === 0 ? 0 : (period * repeats) / words.length;
  // A tail that is one block repeated 3+ times over a quarter of the text, or prose that keeps
  // re-saying the same phrases, is a loop; a doubled word ("very very") is not.
  const tailLoop = repeats >= 3 && coverage >= 0.25 && period * repeats >= 12;
  const looping = words.length >= 16 && (tailLoop || distinct4 < 0.5);
  return {
    looping,
    block: period
      ? words
          .slice(words.length - period)
          .slice(0, 12)
          .join(" ")
      : null,
    repeats,
    coverage,
    distinct4,
  };
}
