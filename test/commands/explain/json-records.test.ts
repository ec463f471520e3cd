// The record splitter: top-level objects by depth outside strings, one line each, whatever the cut.
import { describe, expect, it } from "vitest";
import { RecordSplitter } from "../../../src/commands/explain/json-records.js";

function split(text: string, size: number): string[] {
  const s = new RecordSplitter();
  const bytes = Buffer.from(text, "utf8");
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  out.push(...s.end());
  return Buffer.concat(out).toString("utf8").split("\n").filter(Boolean);
}

describe("RecordSplitter", () => {
  it("keeps braces, brackets and escaped quotes inside strings, and makes raw newlines spaces", () => {
    const a = { MESSAGE: 'a } ] [ { "quoted" \\\\ end', X: ["y", { z: 1 }] };
    const b = { MESSAGE: "line\nbreak é" };
    const text = `[\n ${JSON.stringify(a, null, 2)},\n${JSON.stringify(b, null, "\t")}\n]\n`;
    for (const size of [1, 3, 64, 1 << 16]) {
      const lines = split(text, size);
      expect(
        lines.map((l) => JSON.parse(l) as unknown),
        `chunks of ${size}`,
      ).toEqual([a, b]);
    }
  });

  it("passes a stray line between records on as a line of its own, and an unfinished record at the end", () => {
    expect(split('{"a":1}\nnot json\n{"b":', 4)).toEqual(['{"a":1}', "not json", '{"b":']);
  });
});
