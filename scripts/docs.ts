// docs/cli.md, docs/action.md and docs/config.md carry reference tables generated from their sources of
// truth (the command spec, action.yml, the config schema with its descriptions), between markers:
//   <!-- generated:NAME --> ... <!-- /generated:NAME -->
// `npm run docs` rewrites them; test/package/docs.test.ts fails on a stale copy.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "yaml";
import { configJsonSchema } from "../src/commands/schema.js";
import { COMMAND_SPECS, OPTION_SPECS } from "../src/commands/spec.js";
import { walkSchema } from "../src/domain/config/json-schema.js";

export interface Generated {
  file: string;
  name: string;
  body: string;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");

function cliCommands(): string {
  return table(
    ["command", "what it does"],
    COMMAND_SPECS.map((c) => [`\`${c.name}${"args" in c && c.args ? ` ${c.args}` : ""}\``, c.summary]),
  );
}

function cliOptions(): string {
  return table(
    ["option", "commands", "meaning"],
    OPTION_SPECS.map((o) => [
      `${o.short ? `\`-${o.short}\`, ` : ""}\`--${o.name}${o.arg ? ` ${o.arg}` : ""}\``,
      o.commands === "all" ? "all" : o.commands.join(", "),
      o.help,
    ]),
  );
}

type ActionYml = {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string }>;
};

function actionInputs(root: string): string {
  const a = parse(readFileSync(join(root, "action.yml"), "utf8")) as ActionYml;
  return table(
    ["input", "default", "meaning"],
    Object.entries(a.inputs).map(([k, v]) => [
      `\`${k}\``,
      v.default !== undefined && v.default !== "" ? `\`${v.default}\`` : "—",
      v.description,
    ]),
  );
}

function actionOutputs(root: string): string {
  const a = parse(readFileSync(join(root, "action.yml"), "utf8")) as ActionYml;
  return table(
    ["output", "meaning"],
    Object.entries(a.outputs).map(([k, v]) => [`\`${k}\``, v.description]),
  );
}

type Node = {
  type?: string | string[];
  default?: unknown;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Node[];
  properties?: Record<string, Node>;
};
const typeOf = (n: Node): string => {
  if (n.const !== undefined) return `\`${JSON.stringify(n.const)}\``;
  if (n.enum) return n.enum.map((e) => `\`${String(e)}\``).join(" \\| ");
  if (n.anyOf) return [...new Set(n.anyOf.map(typeOf))].join(" or ");
  return Array.isArray(n.type) ? n.type.join(" or ") : (n.type ?? "any");
};

function configKeys(): string {
  const rows: string[][] = [];
  walkSchema(configJsonSchema() as never, (path, node) => {
    const n = node as Node;
    if (!path || !n.description) return;
    const def = n.default === undefined ? "—" : `\`${JSON.stringify(n.default)}\``;
    rows.push([`\`${path}\``, typeOf(n), def, n.description]);
  });
  return table(["key", "type", "default", "meaning"], rows);
}

export function generated(root: string): Generated[] {
  return [
    { file: "docs/cli.md", name: "cli-commands", body: cliCommands() },
    { file: "docs/cli.md", name: "cli-options", body: cliOptions() },
    { file: "docs/action.md", name: "action-inputs", body: actionInputs(root) },
    { file: "docs/action.md", name: "action-outputs", body: actionOutputs(root) },
    { file: "docs/config.md", name: "config-keys", body: configKeys() },
  ];
}

/** The text between a marker pair, or null when the pair is missing. */
export function between(text: string, name: string): string | null {
  const m = new RegExp(`<!-- generated:${name} -->\\n([\\s\\S]*?)\\n?<!-- /generated:${name} -->`).exec(text);
  return m ? m[1]! : null;
}

export function write(root: string): string[] {
  const changed: string[] = [];
  for (const g of generated(root)) {
    const path = join(root, g.file);
    const text = readFileSync(path, "utf8");
    if (between(text, g.name) === null)
      throw new Error(
        `${g.file}: no <!-- generated:${g.name} --> ... <!-- /generated:${g.name} --> pair: add the markers where the table belongs`,
      );
    const next = text.replace(
      new RegExp(`(<!-- generated:${g.name} -->\\n)[\\s\\S]*?\\n?(<!-- /generated:${g.name} -->)`),
      (_m, a: string, b: string) => `${a}${g.body}\n${b}`,
    );
    if (next === text) continue;
    writeFileSync(path, next);
    changed.push(`${g.file} (${g.name})`);
  }
  return changed;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const changed = write(join(import.meta.dirname, ".."));
  process.stdout.write(changed.length ? `rewrote: ${changed.join(", ")}\n` : "docs: generated tables up to date\n");
}
