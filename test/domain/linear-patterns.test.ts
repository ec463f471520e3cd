// Every pattern that runs on host or log text stays linear in a line's length (issue 27: a long run of
// word characters, a prompt or a base64 blob, made the redactor and a diagnosis rule quadratic: 8 s for one
// 40 KB line). Growth is measured, not a deadline: 8x the input may cost at most ~25x the time (a quadratic
// pattern costs 64x), the best of three runs each, with a generous ceiling on the larger input.
import { describe, expect, it } from "vitest";
import { explainBytes } from "../../src/commands/explain/sniff.js";
import { redact } from "../../src/domain/redact/redact.js";
import { sanitizeText } from "../../src/domain/report/sanitize.js";

const SHAPES: [string, (n: number) => string][] = [
  ["a word", (n) => "a".repeat(n)],
  ["word_with_underscores", (n) => "a_".repeat(n / 2)],
  ["dotted.words", (n) => "a.".repeat(n / 2)],
  ["dashed-words", (n) => "a-".repeat(n / 2)],
  ["--a-flag-name", (n) => "--" + "a".repeat(n)],
  ["base64", (n) => "QUJD".repeat(n / 4)],
  ["an Error: word", (n) => "Error: " + "a".repeat(n)],
  ["a quoted word", (n) => "'" + "a".repeat(n)],
  [
    "a prompt in vLLM's request log",
    (n) => `INFO [logger.py:43] Received request 1: prompt: '${"ab1 ".repeat(n / 4)}'`,
  ],
  // issue 25's shapes: each holds the literal its group's prefilter needs, and then fails late
  ["systemctl status's Process: line", (n) => `   Process: 1 ExecStart=${"a".repeat(n)} code=exited`],
  ["a path before bash's bad interpreter", (n) => `${"/a".repeat(n / 2)} : bad interpreter`],
  ["GNU env's quoted interpreter", (n) => `env: '${"a".repeat(n)}\\r: No such file`],
  ["an ERR trap line", (n) => `[ERROR] in line 3: ${"exit ".repeat(n / 5)}`],
  ["a Kubernetes event row", (n) => `Warning${" ".repeat(n)}x`],
  ["a kubectl get pods row", (n) => `pod-0   1/1${" ".repeat(n)}Running`],
  ["describe pod's Reason:", (n) => `  Reason:${" ".repeat(n)}x y`],
  ["a journal line in a German locale", (n) => `Dez 03 10:00:00 host ${"a".repeat(n)}`],
  ["journalctl short-full with an offset zone", (n) => `Do 2026-12-03 10:00:00 +01 host ${"a".repeat(n)}`],
  ["a CR inside a quoted name", (n) => `'${"\r".repeat(n)}`],
];

/** The best of three runs: the least disturbed by whatever else the machine is doing. */
async function bestMs(f: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const SMALL = 10_000;
const LARGE = 80_000;
const linear = (small: number, large: number) => large < 25 * Math.max(small, 4) && large < 8_000;

describe("patterns over long lines grow linearly", () => {
  it.each(SHAPES)("the redactor and the sanitize pass on %s", async (_name, make) => {
    const [s, l] = [make(SMALL), make(LARGE)];
    const t = [await bestMs(() => sanitizeText(s)), await bestMs(() => sanitizeText(l))] as const;
    expect(linear(...t), `${t.map((x) => x.toFixed(0)).join(" -> ")} ms`).toBe(true);
    expect(redact(l).length).toBeGreaterThan(0);
  });

  it.each(SHAPES)(
    "the diagnosis of a log holding %s",
    async (_name, make) => {
      const log = (n: number) => Buffer.from(`INFO boot\n${make(n)}\n`);
      async function* one(b: Buffer) {
        yield b;
      }
      const [s, l] = [log(SMALL), log(LARGE)];
      const t = [await bestMs(() => explainBytes(one(s))), await bestMs(() => explainBytes(one(l)))] as const;
      expect(linear(...t), `${t.map((x) => x.toFixed(0)).join(" -> ")} ms`).toBe(true);
    },
    120_000,
  );
});
