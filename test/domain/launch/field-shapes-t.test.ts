// Shapes held-out set T2 missed, written here in our own words: a flag held in a string variable that an if-branch
// switches to its opposite only when a setting the defaults do not give asks for it
// (`F=--enable-prefix-caching; if [ "$OFF" = 1 ]; then F=--no-enable-prefix-caching; fi` ... `"$F"`).
import { describe, expect, it } from "vitest";
import { parseServeScript } from "../../../src/domain/launch/parse.js";

const script = (setting: string, use: string) =>
  [
    "#!/bin/bash",
    `ENABLE="\${ENABLE:-${setting}}"`,
    'F="--enable-prefix-caching"',
    'if [ "$ENABLE" = "0" ]; then',
    '  F="--no-enable-prefix-caching"',
    "fi",
    "vllm serve m \\",
    "  --port 8000 \\",
    `  ${use}`,
    "",
  ].join("\n");
const flags = (text: string) =>
  parseServeScript(text)
    .engine!.flags.filter((f) => !f.offDefault)
    .map((f) => `${f.name}@${f.line}`);

describe("a flag variable an if-branch the defaults do not take switches", () => {
  it("quoted, it is the default value's flag, at the line that set it", () => {
    expect(flags(script("1", '"$F"'))).toEqual(["--port@8", "--enable-prefix-caching@3"]);
  });

  it("unquoted too; the branch's flag rides along only off the default path", () => {
    const all = parseServeScript(script("1", "$F")).engine!.flags;
    expect(all.map((f) => `${f.name}@${f.line}${f.offDefault ? "!" : ""}`)).toEqual([
      "--port@8",
      "--enable-prefix-caching@3",
      "--no-enable-prefix-caching@5!",
    ]);
  });

  it("when the defaults take the branch, its flag is the one", () => {
    expect(flags(script("0", '"$F"'))).toEqual(["--port@8", "--no-enable-prefix-caching@5"]);
  });
});
