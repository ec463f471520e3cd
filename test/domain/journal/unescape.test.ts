// unescapeSimple against JSON.parse on every short string over an alphabet of escapes, raw bytes and text.
import { describe, expect, it } from "vitest";
import { unescapeSimple } from "../../../src/domain/journal/unescape.js";

const PIECES = [
  '\\"',
  "\\\\",
  "\\/",
  "\\n",
  "\\t",
  "\\r",
  "\\b",
  "\\f",
  "\\u0041",
  "\\x",
  "a",
  "é",
  "\t",
  "\x1b",
  "\\",
];

/** A value the scanner can hand over: no unescaped quote inside, and its closing quote not escaped. */
function possible(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") i++;
    else if (body[i] === '"') return false;
  }
  return !/(^|[^\\])(\\\\)*\\$/.test(body);
}

function parsed(body: string): Buffer | null {
  try {
    return Buffer.from(JSON.parse(`"${body}"`) as string, "utf8");
  } catch {
    return null;
  }
}

describe("unescapeSimple", () => {
  it('undoes \\" \\\\ \\/ \\n \\t as JSON.parse does, and leaves every other escape and raw control byte to it', () => {
    let undone = 0;
    let left = 0;
    const out = Buffer.alloc(64);
    for (const a of PIECES)
      for (const b of PIECES)
        for (const c of PIECES) {
          const body = `${a}${b}${c}`;
          if (!possible(body)) continue;
          const src = Buffer.from(`"${body}"`, "utf8");
          const n = unescapeSimple(src, 1, src.length - 1, out);
          const want = parsed(body);
          const simple = /^(?:[^\\\x00-\x1f]|\\["\\/nt])*$/.test(body);
          if (simple) {
            expect(n, body).toBeGreaterThanOrEqual(0);
            expect(out.subarray(0, n).equals(want!), body).toBe(true);
            undone++;
          } else {
            expect(n, body).toBe(-1);
            left++;
          }
        }
    expect(undone).toBeGreaterThan(200);
    expect(left).toBeGreaterThan(200);
  });

  it("never reads past the value: a backslash as its last byte is left to JSON.parse", () => {
    const src = Buffer.from('"ab\\"', "latin1"); // the value is ab\ (its closing quote escaped)
    expect(unescapeSimple(src, 1, 4, Buffer.alloc(8))).toBe(-1);
  });
});
