import { expect, it } from "vitest";
import { formatElapsed } from "../../src/lib/elapsed.js";

it("shows seconds, then minutes with two-digit seconds; never negative", () => {
  expect([42_900, 65_000, 600_000, -5].map(formatElapsed)).toEqual(["42s", "1m05s", "10m00s", "0s"]);
});
