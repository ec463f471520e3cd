// action.yml and the action's code agree: every input the code reads is declared, and none is unused.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = join(import.meta.dirname, "..", "..");
const declared = Object.keys(parse(readFileSync(join(ROOT, "action.yml"), "utf8")).inputs).sort();
const src = readFileSync(join(ROOT, "src", "action", "inputs.ts"), "utf8");
const read = [
  ...new Set(
    [...src.matchAll(/(?:getInput|booleanInput|durationInput|portInput|matching|secretToEnv)\("([a-z-]+)"/g)].map(
      (m) => m[1]!,
    ),
  ),
].sort();

describe("action.yml", () => {
  it("declares exactly the inputs the action reads", () => {
    expect(read.length).toBeGreaterThan(10);
    expect(declared).toEqual(read);
  });
});
