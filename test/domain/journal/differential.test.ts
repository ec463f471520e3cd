// The fast decoder (field scanner, src/forensics/journal.ts) against the reference decoder (JSON.parse per
// line, test/forensics/journal-reference.ts): the same records and the same counts on every fixture, on a
// generated dump, and on random records built to hit the scanner's edges (escapes, byte arrays, arrays of
// strings, spaced JSON, lines cut mid-way, overlapping exports, keys spelled inside values).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateJournalDump } from "../../../bench/journal/generate.js";
import { JournalDecoder } from "../../../src/domain/journal/decoder.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";
import { decodeJournalReference } from "./reference-decoder.js";
import { rng, same } from "./same-records.js";

const deployFixture = (n: string) => readFileSync(join(import.meta.dirname, "../../fixtures/journal/polls", n), "utf8");

function randomDump(seed: number, n: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const texts = [
    "plain line",
    'quote " and backslash \\ here',
    "tab\there",
    "two\nlines\n",
    "ü ñ 日本 ✓",
    "\x1b[1;36m(VllmWorker rank=0 pid=9)\x1b[0m ERROR x\r",
    "tqdm 10%\r tqdm 100%\r",
    '"MESSAGE":"fake"',
    "",
    "]}{[,:",
    "MESSAGE",
    "\x1b[31mred\x1b[0m\n",
    "\x1b[?25l\x1b[2K",
    "\x1b[ not a CSI \x1b",
    "cut \x1b[1;3",
    "\x1b[0m\n\n",
    "\x1b[1mü\x1b[0m",
  ];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const text = pick(texts) + (r() < 0.5 ? ` #${Math.floor(r() * 5)}` : "");
    const rec: Record<string, unknown> = {
      __CURSOR: `s=1;i=${Math.floor(r() * n).toString(16)}`,
      __REALTIME_TIMESTAMP: String(1000 + Math.floor(r() * n)),
    };
    const form = r();
    rec.MESSAGE =
      form < 0.5
        ? text
        : form < 0.75
          ? [...Buffer.from(text)]
          : form < 0.8
            ? [text, `${text}!`]
            : form < 0.85
              ? null
              : form < 0.9
                ? []
                : text;
    if (r() < 0.5)
      Object.assign(rec, {
        CONTAINER_NAME: "c1",
        CONTAINER_ID: "abc",
        SYSLOG_IDENTIFIER: "c1",
        PRIORITY: pick(["3", "6"]),
        _SYSTEMD_UNIT: "e.service",
      });
    else
      Object.assign(rec, {
        SYSLOG_IDENTIFIER: pick(["podman", "systemd"]),
        _TRANSPORT: pick(["stdout", "journal"]),
        _STREAM_ID: "s1",
        UNIT: pick(["e.service", undefined]),
      });
    if (r() < 0.1) rec.CONTAINER_PARTIAL_MESSAGE = "true";
    if (r() < 0.05) rec._LINE_BREAK = "line-max";
    if (r() < 0.05) rec.OTHER = pick([["a]", "b"], [1, 2], { nested: 1 }, 42, true, "UNIT"]);
    if (r() < 0.05) rec.PRIORITY = 3; // a number: the fallback path
    let line = JSON.stringify(rec);
    if (r() < 0.1) line = line.replace(/":/g, '" : ').replace(/,"/g, ', "'); // older journalctl spacing
    if (r() < 0.03) line = line.slice(0, Math.floor(r() * line.length)); // cut by an output cap
    if (r() < 0.02) line = `  ${line}\r`;
    lines.push(line);
  }
  return lines.join("\n");
}

describe("fast decoder = reference decoder", () => {
  it.each(["oom-tp2.journal.json", "crash-loop.journal.json"])("on the fixture %s", (name) => same(fixture(name)));

  it.each(["poll-booting.txt", "poll-auto-restart.txt", "poll-no-container.txt"])(
    "on the journal lines of %s (captured on the sandbox host)",
    (name) => {
      same(
        deployFixture(name)
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .join("\n"),
      );
    },
  );

  it("on a generated 2 MB dump (the bench's generator)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dg-journal-diff-"));
    try {
      const path = join(dir, "dump.json");
      await generateJournalDump(path, 2 << 20);
      same(readFileSync(path, "utf8"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("on random records, seed %i", (seed) => same(randomDump(seed, 600)));

  it("on hand-made lines aimed at a key search (keys spelled inside values, nesting, escapes, CRLF)", () => {
    const c = (i: number) => `"__CURSOR":"s=1;i=${i}","__REALTIME_TIMESTAMP":"${1000 + i}"`;
    const lines = [
      `{${c(1)},"MESSAGE":"say \\"MESSAGE\\":\\"fake\\" here","SYSLOG_IDENTIFIER":"a"}`, // the key text escaped inside a value
      `{${c(2)},"X\\"MESSAGE":"not the message","MESSAGE":"real"}`, // a key that ends in "MESSAGE
      `{${c(3)},"OTHER":{"MESSAGE":"nested"},"MESSAGE":"top"}`, // the key inside a nested object
      `{${c(4)},"MESSAGE":"first","MESSAGE":"second"}`, // a key twice: JSON.parse keeps the last
      `{${c(5)},"MESSAGE":"back\\\\","UNIT":"u.service"}`, // an escaped backslash before the closing quote
      `{${c(6)},"MESSAGE":"\\u00fc \\ud83d\\ude00 \\ud800 end"}`, // unicode escapes, a lone surrogate
      `{${c(7)},"MESSAGE":[255,254,65,10,66],"CONTAINER_NAME":"c"}`, // a byte array that is not UTF-8
      `{${c(8)},"MESSAGE":"crlf line"}\r`, // CRLF
      `{${c(9)},"MESSAGE":"ends in a brace }"}`,
      `{${c(10)},"MESSAGE" :"spaced colon","UNIT" :"v.service"}`,
      `{${c(11)}, "MESSAGE":"spaced comma"}`,
      `{${c(12)},"MESSAGE":"cut mid-way }`,
      `{${c(13)},"USER_UNIT":"w.service","MESSAGE":"UNIT inside USER_UNIT"}`,
      `{${c(14)},"MESSAGE":"\\"quoted\\" \\"GET / HTTP/1.1\\" 200"}`,
      `{${c(15)},"MESSAGE":[27,91,48,109,65,13]}`, // compact byte array: the fast path
      `{${c(16)},"MESSAGE":[ 27, 91, 48, 109, 66 ]}`, // spaced (older journalctl)
      `{${c(17)},"MESSAGE":[]}`,
      `{${c(18)},"MESSAGE":[300,65]}`, // not a byte: JSON.parse decides
      `{${c(19)},"MESSAGE":[1000,65]}`,
      `{${c(20)},"MESSAGE":"trailing comma",}`, // not JSON: malformed, as JSON.parse says
      `{${c(21)},"MESSAGE":"only a newline escape\\n","CONTAINER_NAME":"c"}`,
      `{${c(22)},"MESSAGE":"\\n"}`,
      `{${c(23)},"__CURSOR":"s=1;i=23","MESSAGE":"a cursor twice: the last one counts"}`,
      `{${c(24)},"MESSAGE":"a\\/b \\t\\n \\\\ \\"q\\" tab\\tend\\n\\n"}`, // the escapes undone on the bytes
      `{${c(25)},"MESSAGE":"bell \\b feed \\f cr \\r esc \\u001b[0m"}`, // escapes left to JSON.parse
      `{${c(26)},"MESSAGE":"line one\\n\\nline three\\n"}`, // an empty line between
      `{${c(27)},"MESSAGE":"raw\ttab and \\"escape\\""}`, // a raw control byte: not JSON, malformed for both
      `{${c(28)},"MESSAGE":"\\"escape\\" then raw\x01"}`,
      `{${c(29)},"CONTAINER_ID":"p","CONTAINER_PARTIAL_MESSAGE":"true","MESSAGE":"piece \\"one\\" "}`, // escaped pieces joined as bytes
      `{${c(30)},"CONTAINER_ID":"p","MESSAGE":"piece \\\\two\\n"}`,
      `{${c(31)},"__CURSOR":"s=1;\\u0069=31","MESSAGE":"an escaped cursor"}`,
    ];
    same(lines.join("\n"));
  });

  it("on raw bytes that are not UTF-8 between records, cut at every offset", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"__CURSOR":"a","MESSAGE":"before \xff'),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}\n{"__CURSOR":"b","MESSAGE":"after \u00e9"}\n{"__CURSOR":"c","MESSAGE":"x'),
      Buffer.from([0xe6, 0x97]),
      Buffer.from('"}\n'),
    ]);
    const ref = decodeJournalReference(bytes.toString("utf8"));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const d = new JournalDecoder();
      const out = d.pushBytes(bytes.subarray(0, cut));
      d.pushBytes(bytes.subarray(cut), out);
      out.push(...d.flush());
      expect(out, `cut at ${cut}`).toEqual(ref.records);
    }
    expect(ref.records.map((r) => r.text)).toEqual(["before ÿ\ufffd\ufffd", "after é", "x\ufffd"]);
  });

  it("on bytes that are not UTF-8 next to escapes", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"__CURSOR":"a","MESSAGE":"cut '),
      Buffer.from([0xc3]),
      Buffer.from('\\"q\\" '),
      Buffer.from([0xe2, 0x82]),
      Buffer.from("\\n"),
      Buffer.from([0xf0, 0x9f, 0x98]),
      Buffer.from('\\t end"}\n'),
    ]);
    const ref = decodeJournalReference(bytes.toString("utf8"));
    const d = new JournalDecoder();
    const out = d.pushBytes(bytes);
    out.push(...d.flush());
    expect(out).toEqual(ref.records);
    expect(ref.records.map((r) => r.text)).toEqual(['cut \ufffd"q" \ufffd', "\ufffd\t end"]);
  });

  it("on an overlapping export (the same records twice) and a BOM", () => {
    const one = fixture("oom-tp2.journal.json");
    same(`\ufeff${one}\n${one}`);
  });
});
