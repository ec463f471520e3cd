// Values lists found in a rendered args list: items read as helm renders them (quotes and trailing comments off).
import { describe, expect, it } from "vitest";
import { listAround, listsWithin, siblingValues } from "../../../src/domain/launch/values-list.js";

const VALUES = [
  "servingEngineSpec:",
  "  modelSpec:",
  "    - name: hermes",
  "      maxModelLen: 16384",
  "      extraArgs:",
  '        - "--enforce-eager" # CUDA graphs off: an OOM workaround',
  "        - --enable-prefix-caching",
  "        # the KV cache in fp8",
  "        - '--kv-cache-dtype'",
  '        - "fp8_e4m3" # halves the cache',
  "",
].join("\n");

describe("values lists", () => {
  it("reads each item without its quotes or its trailing comment, skipping comment lines", () => {
    const lines = VALUES.split("\n");
    expect(listAround(lines, 6)).toEqual({
      start: 5,
      items: ["--enforce-eager", "--enable-prefix-caching", "--kv-cache-dtype", "fp8_e4m3"],
    });
  });

  it("finds the list a rendered args list holds as a run, and the entry's other values", () => {
    const rendered = [
      "--host",
      "0.0.0.0",
      "--enforce-eager",
      "--enable-prefix-caching",
      "--kv-cache-dtype",
      "fp8_e4m3",
    ];
    expect(listsWithin(VALUES, rendered)).toEqual([5]);
    expect(listsWithin(VALUES, rendered.slice(0, 4))).toEqual([]);
    expect(siblingValues(VALUES, 5)).toEqual(["16384", "hermes"]);
  });
});
