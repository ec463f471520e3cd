// `deploy-gate explain` through main(), on the real fixture files.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";

const LOGS = join(import.meta.dirname, "..", "fixtures", "journal", "classes");

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s), isTTY: false, env: {}, cwd: LOGS });
  return { code, out, err };
}

describe("deploy-gate explain", () => {
  it("prints DESIGN's explain JSON for a journal dump and exits 1 on a failure", async () => {
    const { code, out } = await run("explain", "oom-tp2.journal.json", "--json");
    expect(code).toBe(1);
    const r = JSON.parse(out);
    expect(Object.keys(r)).toEqual(
      expect.arrayContaining(["schema", "class", "decisive", "plan", "oom", "specDecode"]),
    );
    expect(r.class).toBe("oom");
    expect(r.oom.shortfallGiB).toBeCloseTo(1.38, 2);
    expect(r.decisive).toMatch(/Tried to allocate 2\.50 GiB/);
  });
  it("renders the terminal diagnosis with the decisive line", async () => {
    const { out } = await run("explain", "crash-loop.journal.json");
    expect(out).toMatch(/^CRASH-LOOP/);
    expect(out).toContain("decisive: frank-archon.service: Start request repeated too quickly.");
  });
  it("exits 2 naming a missing file", async () => {
    const { code, err } = await run("explain", "nope.json");
    expect(code).toBe(2);
    expect(err).toContain("nope.json does not exist");
  });
});
