// docs/architecture.md's folder rules, checked on every unit run: the layer order, no stage importing
// another stage, no I/O in domain/, the entries imported by nobody, no loose file, no import circle.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, importGraph, type ImportGraph } from "./helpers/import-graph.js";
import { layoutProblems } from "./helpers/layout-rules.js";

const SRC = join(import.meta.dirname, "../src");
const graph = importGraph(SRC);
const read = (f: string) => readFileSync(join(SRC, f), "utf8");

describe("the layout of src/", () => {
  it("has files to check (the reader found the tree)", () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect([...graph.edges.values()].flat().length).toBeGreaterThan(300);
  });

  it("keeps every folder rule", () => {
    expect(layoutProblems(graph, read)).toEqual([]);
  });

  it("has no import circle", () => {
    expect(circles(graph).map((c) => c.join(" <-> "))).toEqual([]);
  });
});

describe("the checker itself (each rule fails on a planted violation)", () => {
  // A small planted tree: one file per rule broken, so a checker that stopped looking would pass it.
  const planted: ImportGraph = {
    files: [
      "lib/a.ts",
      "domain/b.ts",
      "domain/io.ts",
      "domain/config/load.ts",
      "ports/p.ts",
      "stages/deploy/d.ts",
      "stages/verify/v.ts",
      "stages/context.ts",
      "commands/c.ts",
      "commands/shared/s.ts",
      "commands/options.ts",
      "cli/main.ts",
      "cli/bin.ts",
      "action/run.ts",
      "loose.ts",
    ],
    edges: new Map<string, string[]>([
      ["lib/a.ts", ["domain/b.ts"]], // lib up into domain
      ["domain/b.ts", ["ports/p.ts"]], // domain up into ports
      ["domain/io.ts", []],
      ["domain/config/load.ts", []],
      ["ports/p.ts", ["lib/a.ts"]],
      ["stages/deploy/d.ts", ["stages/verify/v.ts", "stages/context.ts"]], // a stage into another stage
      ["stages/verify/v.ts", ["commands/c.ts"]], // a stage up into commands
      ["stages/context.ts", []],
      ["commands/c.ts", ["cli/main.ts"]], // commands up into an entry
      ["commands/shared/s.ts", ["commands/c.ts", "commands/options.ts"]], // shared into a verb (options is allowed)
      ["commands/options.ts", []],
      ["cli/main.ts", ["action/run.ts"]], // one entry into the other
      ["cli/bin.ts", ["cli/main.ts"]],
      ["action/run.ts", ["cli/bin.ts"]], // an entry file imported
      ["loose.ts", []],
    ]),
  };
  const text: Record<string, string> = {
    "domain/io.ts": 'import { readFileSync } from "node:fs";\nexport const x = process.env.HOME;\n',
    "domain/config/load.ts": 'import { readFileSync } from "node:fs";\n',
    "commands/c.ts": "export const f = () => process.exit(1);\n",
  };
  const problems = layoutProblems(planted, (f) => text[f] ?? "");

  it.each([
    ["lib/a.ts -> domain/b.ts imports a layer above its own"],
    ["domain/b.ts -> ports/p.ts imports a layer above its own"],
    ["stages/verify/v.ts -> commands/c.ts imports a layer above its own"],
    ["commands/c.ts -> cli/main.ts imports a layer above its own"],
    ["stages/deploy/d.ts -> stages/verify/v.ts imports another stage"],
    ["cli/main.ts -> action/run.ts: one entry imports the other"],
    ["action/run.ts -> cli/bin.ts imports an entry file (only side effects live there)"],
    ["domain/io.ts does I/O (node:fs)"],
    ["domain/io.ts does I/O (process.env)"],
    ["commands/c.ts uses process.exit (the entry owns the process)"],
    ["commands/shared/s.ts -> commands/c.ts: commands/shared/ imports a verb"],
    ["loose.ts is not in a layer folder"],
  ])("names %s", (line) => {
    expect(problems).toContain(line);
  });

  it("allows the named exception and the layers to the right", () => {
    expect(
      problems.filter(
        (p) =>
          p.startsWith("domain/config/load.ts") ||
          p.startsWith("ports/p.ts") ||
          p.startsWith("stages/deploy/d.ts -> stages/context") ||
          p.startsWith("commands/shared/s.ts -> commands/options"),
      ),
    ).toEqual([]);
  });

  it("finds a planted circle", () => {
    const loop: ImportGraph = {
      files: ["a.ts", "b.ts", "c.ts", "d.ts"],
      edges: new Map([
        ["a.ts", ["b.ts"]],
        ["b.ts", ["c.ts"]],
        ["c.ts", ["a.ts"]],
        ["d.ts", ["a.ts"]],
      ]),
    };
    expect(circles(loop)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});
