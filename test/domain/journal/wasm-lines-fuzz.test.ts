// The WebAssembly half against the JavaScript scanner on damaged journal lines: bytes replaced, inserted and
// dropped (quotes, backslashes, brackets, digits, bytes over 0x7f) in records of every shape. Each path
// must read every line as the other does, the same records and the same counts, and never throw: the C side
// reads input from anywhere, so a line it misreads must not get past this.
import { describe, expect, it } from "vitest";
import { decodeJournal, JournalDecoder } from "../../../src/domain/journal/decoder.js";
import { rng } from "./same-records.js";

const NOISE = [
  '"',
  "\\",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  "0",
  "9",
  " ",
  "\n",
  "\x1b",
  "\r",
  "\xff",
  "ü",
  "n",
  "u",
  "l",
  "t",
  "true",
  "null",
  "\\n",
  '\\"',
  "\\u0041",
  "\\ud800",
];

function damagedDump(seed: number, n: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = pick([
      "plain",
      'with "quotes" and \\ slash\n',
      "\x1b[1;36mcolour\x1b[0m\r over",
      "ünïcode ✓",
      "",
      "two\nlines",
    ]);
    const rec: Record<string, unknown> = {
      __CURSOR: `s=1;i=${(i % 50).toString(16)}`,
      __REALTIME_TIMESTAMP: String(1000 + (i % 50)),
      MESSAGE: r() < 0.3 ? [...Buffer.from(text)] : text,
      PRIORITY: pick(["3", "6", "10"]),
      SYSLOG_IDENTIFIER: pick(["podman", "conmon", "a\tb"]),
    };
    if (r() < 0.5) Object.assign(rec, { CONTAINER_ID: pick(["abc", "def"]), CONTAINER_NAME: "c" });
    else Object.assign(rec, { _TRANSPORT: "stdout", _STREAM_ID: pick(["s1", "s2"]), _SYSTEMD_UNIT: "e.service" });
    if (r() < 0.2) rec.CONTAINER_PARTIAL_MESSAGE = "true";
    if (r() < 0.1) rec._LINE_BREAK = "line-max";
    let line = JSON.stringify(rec);
    for (let k = Math.floor(r() * 4); k > 0; k--) {
      const at = Math.floor(r() * line.length);
      const op = r();
      line =
        op < 0.4
          ? line.slice(0, at) + pick(NOISE) + line.slice(at + 1)
          : op < 0.8
            ? line.slice(0, at) + pick(NOISE) + line.slice(at)
            : line.slice(0, at) + line.slice(at + 1);
    }
    lines.push(line);
  }
  return lines.join("\n");
}

describe("the WebAssembly half reads damaged lines as the JavaScript scanner does", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])("seed %i: 1,500 damaged records", (seed) => {
    const text = damagedDump(seed, 1500);
    const wasm = decodeJournal(text); // whole lines go to the WebAssembly half
    const js = new JournalDecoder(); // one line at a time stays in JavaScript
    const records = text.split("\n").flatMap((l) => js.push(l));
    records.push(...js.flush());
    expect(wasm.records).toEqual(records);
    expect(wasm.stats).toEqual(js.stats);
    expect(wasm.stats.records + wasm.stats.malformed).toBeGreaterThan(1000);
  });
});

describe("the WebAssembly half on lines of random bytes", () => {
  it.each([1, 2, 3, 4])("seed %i: reads them as the JavaScript scanner does, and never traps", (seed) => {
    const r = rng(seed);
    const alphabet = Buffer.from('{}[]":,\\ntul0123456789 \t\r\x1bMESAGCURO_abc\x7f\xff\xc3');
    const lines: Buffer[] = [];
    for (let i = 0; i < 2000; i++) {
      const body = Buffer.from(
        Array.from({ length: Math.floor(r() * 120) }, () => alphabet[Math.floor(r() * alphabet.length)]!),
      );
      // Most start and end as an object does, so the key walk runs on them.
      lines.push(r() < 0.8 ? Buffer.concat([Buffer.from('{"MESSAGE":'), body, Buffer.from("}")]) : body);
    }
    const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
    const wasm = new JournalDecoder();
    const out = wasm.pushBytes(bytes);
    out.push(...wasm.flush());
    const js = new JournalDecoder();
    const records = bytes
      .toString("utf8")
      .split("\n")
      .flatMap((l) => js.push(l));
    records.push(...js.flush());
    expect(out).toEqual(records);
    expect(wasm.stats).toEqual(js.stats);
  });
});
