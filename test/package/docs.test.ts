// The README and docs/: the README's promises (size, install form, links), and the reference tables in
// docs/ equal to what scripts/docs.ts generates from their sources of truth.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { between, generated } from "../../scripts/docs.js";
import { OPTION_SPECS } from "../../src/commands/spec.js";

const ROOT = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const doc = (f: string) => readFileSync(join(ROOT, f), "utf8");

describe("README", () => {
  it("fits a screenful of reading: at most 15 KB", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });

  it("never tells a reader to run the unpublished name from the registry", () => {
    // Every mention of `npx deploy-gate` is the warning not to run it.
    for (const m of readme.matchAll(/npx deploy-gate/g))
      expect(readme.slice(Math.max(0, m.index! - 120), m.index!)).toMatch(/not|never/i);
    // --yes: without it npx asks before installing, and fails where nothing answers (CI)
    expect(readme).toMatch(/npx --yes --package=\/path\/to\/deploy-gate-\d+\.\d+\.\d+\.tgz deploy-gate preflight/);
    expect(readme).toContain("RELEASING.md");
  });

  it("links every page of docs/ and CONTRIBUTING.md, and every link it makes resolves", () => {
    for (const page of readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")))
      expect(readme, page).toContain(`docs/${page}`);
    expect(readme).toContain("CONTRIBUTING.md");
    for (const m of readme.matchAll(/\]\((?!https?:|#)([^)#\s]+)/g))
      expect(existsSync(join(ROOT, m[1]!)), m[1]).toBe(true);
  });
});

describe("generated reference tables", () => {
  it.each(generated(ROOT).map((g) => [`${g.file} ${g.name}`, g] as const))(
    "%s equals a fresh render (npm run docs)",
    (_label, g) => {
      expect(between(doc(g.file), g.name), `${g.file}: run npm run docs and commit it`).toBe(g.body);
    },
  );

  it("name every action input and output, every CLI option and every config key", () => {
    const action = parse(doc("action.yml")) as { inputs: object; outputs: object };
    const inputs = between(doc("docs/action.md"), "action-inputs")!;
    for (const k of Object.keys(action.inputs)) expect(inputs, k).toContain(`\`${k}\``);
    for (const k of Object.keys(action.outputs))
      expect(between(doc("docs/action.md"), "action-outputs"), k).toContain(`\`${k}\``);
    const options = between(doc("docs/cli.md"), "cli-options")!;
    for (const o of OPTION_SPECS) expect(options, o.name).toContain(`\`--${o.name}`);
    const keys = between(doc("docs/config.md"), "config-keys")!;
    for (const k of [
      "endpoints.*.host.hostKey",
      "endpoints.*.contracts.flags",
      "endpoints.*.traps.memlock",
      "endpoints.*.hosts[].url",
    ])
      expect(keys, k).toContain(`\`${k}\``);
  });

  it("a stale table is caught: the check compares text, not presence", () => {
    const g = generated(ROOT)[1]!;
    const stale = doc(g.file).replace(g.body, g.body.replace("`--dry-run`", "`--dry-runs`"));
    expect(between(stale, g.name)).not.toBe(g.body);
  });
});
