import { describe, expect, it } from "vitest";
import { cleanLine, stripAnsi, stripControl } from "../../../src/domain/journal/line.js";

describe("cleanLine", () => {
  it("strips ANSI and keeps the last \\r rewrite", () => {
    expect(cleanLine("\x1b[32mA\x1b[0m\rLoading 50%\rLoading 100%\x1b[K")).toBe("Loading 100%");
    expect(cleanLine("Traceback (most recent call last):\r")).toBe("Traceback (most recent call last):");
  });
});

// The two strippers on the same text: an engine line keeps everything but colour and cursor codes (the parsers
// read the rest, `\r` included); text shown to a reader loses every escape and control character.
describe("stripAnsi and stripControl side by side", () => {
  const CASES: [string, string, string, string][] = [
    ["colour", "\x1b[1;31mERROR\x1b[0m x", "ERROR x", "ERROR x"],
    ["a tqdm rewrite", "50%\r100%\x1b[K", "50%\r100%", "50%100%"],
    ["CRLF", "a\r\nb", "a\r\nb", "a\nb"],
    ["an OSC title", "\x1b]0;pwned\x07ok", "\x1b]0;pwned\x07ok", "ok"],
    ["an 8-bit CSI", "\x9b31mred", "\x9b31mred", "red"],
    ["a bidi override", "a\u202eb", "a\u202eb", "ab"],
    ["tab and newline", "a\tb\nc", "a\tb\nc", "a\tb\nc"],
  ];
  it.each(CASES)("%s", (_what, text, ansi, control) => {
    expect([stripAnsi(text), stripControl(text)]).toEqual([ansi, control]);
  });
});
