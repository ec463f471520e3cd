// The WebAssembly half of the journal decoder (src/forensics/wasm/) at its own edges, each checked
// against the reference decoder: the name table started again while pieces are held, cursors longer than a
// ring slot, lines it leaves to the JavaScript decoder between lines it reads (one cursor ring for both),
// the ASCII cleaner, a line longer than a run, more lines in a run than one call returns. And which lines
// it reads itself: a journalctl dump must not fall back line by line (the decoder would be slow, not wrong).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJournalDump } from "../../../bench/journal/generate.js";
import { E_SLOW, EM_JS, EM_LINES, EM_ONE, WasmLines } from "../../../src/domain/journal/wasm-lines.js";
import { same } from "./same-records.js";

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const rec = (i: number, extra: Record<string, unknown>) => ({
  __CURSOR: `s=1;i=${i}`,
  __REALTIME_TIMESTAMP: String(1000 + i),
  ...extra,
});

/** Runs the WebAssembly half alone over `text`: per line, SLOW or how it is emitted. */
function entries(text: string): string[] {
  const w = new WasmLines();
  const buf = Buffer.from(text);
  w.load(buf, 0, buf.length);
  const out: string[] = [];
  for (let from = 0; from < buf.length; from = w.resume()) {
    const n = w.run(from, buf.length);
    for (let i = 0; i < n; i++)
      out.push(
        w.status[i] === E_SLOW
          ? "slow"
          : ({ [EM_ONE]: "one", [EM_LINES]: "lines", [EM_JS]: "js" } as Record<number, string>)[w.emit[i]!]!,
      );
  }
  return out;
}

describe("the WebAssembly half of the journal decoder", () => {
  it("reads a generated journalctl dump itself, every line of it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-journal-lines-"));
    try {
      const path = join(dir, "dump.json");
      await generateJournalDump(path, 1 << 20);
      const kinds = entries(readFileSync(path, "utf8"));
      expect(kinds.length).toBeGreaterThan(1000);
      expect(kinds.filter((k) => k === "slow")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves to the JavaScript decoder what it does not read exactly, and says how the rest is emitted", () => {
    const lines = [
      line(rec(1, { MESSAGE: "plain" })),
      line(rec(2, { MESSAGE: "conmon keeps the newline\n" })),
      line(rec(3, { MESSAGE: "two\nlines\n" })),
      line(rec(4, { MESSAGE: [...Buffer.from("\x1b[1mbold\x1b[0m\n")] })),
      line(rec(5, { MESSAGE: [...Buffer.from("\x1b[1mü\x1b[0m")] })), // not ASCII: JavaScript cleans it
      line(rec(6, { MESSAGE: "x", UNIT: "a\u0001b" })), // an escaped name
      line(rec(7, { MESSAGE: "x", PRIORITY: "10" })),
      line(rec(8, { MESSAGE: "x", __REALTIME_TIMESTAMP: " 12" })),
      line(rec(9, { MESSAGE: "bell \u0007" })), // an escape the C side does not undo
      line(rec(10, { MESSAGE: "x", SYSLOG_IDENTIFIER: "n".repeat(256) })), // too long to intern
      line(rec(11, { MESSAGE: "x", PRIORITY: 3 })), // a number
    ];
    expect(lines.map((l) => entries(l)[0])).toEqual([
      "one",
      "one",
      "lines",
      "one",
      "js",
      "slow",
      "slow",
      "slow",
      "slow",
      "slow",
      "slow",
    ]);
  });

  it("starts its name table again when it is full, pieces held across it keep their names", () => {
    const lines: string[] = [];
    // A piece held by one container while 3,000 streams each log a line, then ended.
    lines.push(
      line(
        rec(0, {
          CONTAINER_ID: "held",
          CONTAINER_NAME: "held-name",
          CONTAINER_PARTIAL_MESSAGE: "true",
          MESSAGE: "start of ",
        }),
      ),
    );
    for (let i = 1; i <= 3000; i++)
      lines.push(
        line(
          rec(i, {
            _STREAM_ID: `stream-${i}`,
            _TRANSPORT: "stdout",
            SYSLOG_IDENTIFIER: `id-${i % 7}`,
            UNIT: `u-${i}.service`,
            MESSAGE: `line ${i}`,
          }),
        ),
      );
    lines.push(line(rec(3001, { CONTAINER_ID: "held", CONTAINER_NAME: "held-name", MESSAGE: "a long message\n" })));
    const text = lines.join("\n");
    same(text, [4096]);
    const w = new WasmLines();
    const buf = Buffer.from(text);
    w.load(buf, 0, buf.length);
    for (let from = 0; from < buf.length; from = w.resume()) w.run(from, buf.length);
    expect(w.generation).toBeGreaterThan(1); // the table did start again
  });

  it("tells cursors longer than a ring slot apart by every byte, and finds their repeats", () => {
    const long = (n: number, last: string) => `s=${"a".repeat(n - 3)}${last}`;
    const export1 = [255, 256, 257, 600].flatMap((n, i) => [
      line({ __CURSOR: long(n, "1"), __REALTIME_TIMESTAMP: String(5000 + i), MESSAGE: `first ${n}` }),
      line({
        __CURSOR: long(n, "2"),
        __REALTIME_TIMESTAMP: String(5000 + i),
        MESSAGE: `same time, cursor differs in its last byte ${n}`,
      }),
    ]);
    // An overlapping second export repeats them all: every repeat is dropped, nothing else.
    same([...export1, ...export1].join("\n"), [64, 4096]);
  });

  it("shares one cursor ring with the lines it leaves to the JavaScript decoder", () => {
    const slow = line(rec(1, { MESSAGE: "read by JavaScript", UNIT: "a\u0001b" }));
    const fast = line(rec(2, { MESSAGE: "read in WebAssembly" }));
    // The repeats come in the other path: a repeat is found whichever path read the first copy.
    const slowRepeat = line(rec(2, { MESSAGE: "read in WebAssembly", UNIT: "a\u0001b" }));
    const fastRepeat = line(rec(1, { MESSAGE: "read by JavaScript" }));
    same([slow, fast, slowRepeat, fastRepeat, fast, slow].join("\n"));
  });

  it("cleans ASCII byte arrays as the JavaScript cleaner does (ANSI, \\r rewrites, empty lines, cut sequences)", () => {
    const texts = [
      "\x1b[1;36mA\x1b[0m\rB\r\r\n\nC\x1b[K",
      "tqdm 1%\rtqdm 50%\rtqdm 100%\r\n",
      "\x1b[?25l\x1b[2K\r",
      "\x1b[ not CSI \x1b[12",
      "a\n\n\nb\n\n",
      "\r\r",
      "",
      "\x1b[31mred\x1b[0m\rover\x1b[m\r\n",
      "x\x1b[1;2;3;",
      "tab\tand\x07bell",
    ];
    same(texts.map((t, i) => line(rec(i, { MESSAGE: [...Buffer.from(t)], CONTAINER_NAME: "c" }))).join("\n"));
  });

  it("reads a line longer than a run, and more lines in a run than one call returns", () => {
    const big = line(rec(1, { MESSAGE: "x".repeat(3 << 20) }));
    const many = Array.from({ length: 9000 }, (_, i) => line(rec(i + 2, { MESSAGE: `m${i}` })));
    same([line(rec(0, { MESSAGE: "before" })), big, ...many].join("\n"), [1 << 20]);
  });
});
