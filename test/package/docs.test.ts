// The README's install line, Action inputs table, CLI options table and config reference match the code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { OPTION_SPECS } from "../../src/commands/spec.js";
import { configJsonSchema as jsonSchema } from "../../src/commands/schema.js";

const ROOT = join(import.meta.dirname, "..", "..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const section = (from: string, to: string) => readme.slice(readme.indexOf(from), readme.indexOf(to, readme.indexOf(from)));

describe("README", () => {
  it("never tells a reader to run the unpublished name from the registry", () => {
    // Every mention of `npx deploy-gate` is the warning not to run it.
    for (const m of readme.matchAll(/npx deploy-gate/g)) expect(readme.slice(Math.max(0, m.index! - 120), m.index!)).toMatch(/not|never/i);
    // --yes: without it npx asks before installing, and fails where nothing answers (CI)
    expect(readme).toMatch(/npx --yes --package=\/path\/to\/deploy-gate-\d+\.\d+\.\d+\.tgz deploy-gate preflight/);
    expect(readme).toContain("RELEASING.md");
  });

  it("documents each action input", () => {
    const table = section("| input | default | meaning |", "Outputs:");
    for (const name of Object.keys(parse(readFileSync(join(ROOT, "action.yml"), "utf8")).inputs)) expect(table, name).toContain(`\`${name}\``);
  });

  it("documents each CLI option", () => {
    const table = section("| option | commands | meaning |", "Exit codes:");
    for (const o of OPTION_SPECS.filter((x) => !["help", "version"].includes(x.name))) expect(table, o.name).toContain(`\`--${o.name}`);
  });

  it("documents each endpoint, host and contracts key in the config reference", () => {
    const table = section("| key | type | default | used by | meaning |", "## Performance");
    const ep = (jsonSchema() as { properties: { endpoints: { additionalProperties: { properties: Record<string, { properties?: Record<string, unknown> }> } } } }).properties.endpoints.additionalProperties.properties;
    for (const k of Object.keys(ep)) expect(table, k).toMatch(new RegExp(`\\\`\\.${k}[\`.[]`));
    for (const k of Object.keys(ep.host!.properties!)) expect(table.split("\n").find((l) => l.startsWith("| `.host`")), k).toContain(k);
    for (const k of Object.keys(ep.contracts!.properties!)) expect(table, k).toMatch(new RegExp(`\\.contracts\\.${k}|/ \\\`\\.${k}\\\``));
  });
});
