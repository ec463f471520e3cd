// contracts.decode, contracts.plan and images: defaults, and line-precise errors.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/domain/config/errors.js";
import { parseConfig } from "../../../src/domain/config/load.js";

const problems = (text: string) => {
  try {
    parseConfig(text, "deploy-gate.yml");
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error("expected a ConfigError");
};

const HEAD = "version: 1\nendpoints:\n  archon:\n    script: s.sh\n    contracts:\n";

describe("seed-complete contracts in deploy-gate.yml", () => {
  it("fills the decode defaults and reads plan lines and images", () => {
    const c = parseConfig(
      `${HEAD}      decode: { minTokPerS: 20 }
      plan:
        - { name: arena-slots, pattern: "expert cache space +[0-9.]+ GiB +([0-9,]+) slots", min: 100 }
    images:
      docker.io/tcclaviger/vllm: { entrypointServes: true }
`,
      "x.yml",
    );
    const ep = c.endpoints.archon!;
    expect(ep.contracts.decode).toEqual({ minTokPerS: 20, depths: [166, 1087, 4064], maxTokens: 256 });
    expect(ep.contracts.plan[0]).toMatchObject({ name: "arena-slots", min: 100 });
    expect(ep.images["docker.io/tcclaviger/vllm"]).toEqual({ entrypointServes: true });
  });

  it("points at a per-depth floor list of the wrong length, a pattern without a group and a typo, by line", () => {
    const p = problems(`${HEAD}      decode:
        minTokPerS: [30, 25]
        maxTokens: 8
      plan:
        - name: budget
          pattern: "budget [0-9.]+"
        - { name: slots, pattern: "slots ([0-9,]+", mni: 3 }
    images:
      vllm/vllm-openai: { entrypointServe: true }
`);
    const at = (path: string) => p.find((x) => x.path === path);
    expect(at("endpoints.archon.contracts.decode.minTokPerS")?.line).toBe(7);
    expect(at("endpoints.archon.contracts.decode.minTokPerS")?.message).toMatch(/one floor per depth/);
    expect(at("endpoints.archon.contracts.decode.maxTokens")?.line).toBe(8);
    expect(at("endpoints.archon.contracts.plan.0.pattern")?.line).toBe(11);
    expect(at("endpoints.archon.contracts.plan.0.pattern")?.message).toMatch(/capture group/);
    expect(at("endpoints.archon.contracts.plan.1.pattern")?.line).toBe(12);
    expect(
      p.some(
        (x) =>
          x.path.startsWith("endpoints.archon.contracts.plan.1") &&
          /mni/.test(`${x.path} ${x.message}`) &&
          x.line === 12,
      ),
    ).toBe(true);
    expect(
      p.some((x) => x.path.includes("images") && /entrypointServe/.test(`${x.path} ${x.message}`) && x.line === 14),
    ).toBe(true);
  });

  it("an inline flag such as (?i) says JavaScript has none, not that the capture group is missing", () => {
    const p = problems(
      `${HEAD}      plan:\n        - { name: slots, pattern: "(?i)expert cache space +[0-9.]+ GiB +([0-9,]+) slots" }\n`,
    );
    const m = p.find((x) => x.path === "endpoints.archon.contracts.plan.0.pattern");
    expect(m?.message).toMatch(/^inline flags such as \(\?i\) are not supported/);
    expect(m?.line).toBe(7);
    expect(p.filter((x) => x.path === "endpoints.archon.contracts.plan.0.pattern")).toHaveLength(1);
  });
});
