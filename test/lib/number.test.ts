import { expect, it } from "vitest";
import { parseNumber } from "../../src/lib/number.js";

it("reads thousands separators", () => {
  expect(parseNumber("42,656")).toBe(42656);
  expect(parseNumber("nan")).toBeNull();
});
