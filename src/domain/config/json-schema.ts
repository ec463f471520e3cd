// The JSON Schema of deploy-gate.yml for editors: zod's schema plus an $id, a title, a description on
// every key (descriptions.ts) and the checks zod cannot express, so the editor accepts what the CLI does.
import * as z from "zod";
import { DESCRIPTIONS } from "./descriptions.js";
import { configSchema } from "./schema.js";

export const SCHEMA_ID = "https://raw.githubusercontent.com/deploy-gate/deploy-gate/main/dist/deploy-gate.schema.json";

type Node = {
  [k: string]: unknown;
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  items?: Node;
  anyOf?: Node[];
};

/** Checks added by path that zod's refinements carry but its JSON Schema cannot. */
const EXTRA: Record<string, Record<string, unknown>> = {
  endpoints: { minProperties: 1 },
  "endpoints.*.url": { pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" },
};

/** Every key path of the schema, as descriptions.ts names them. */
export function walkSchema(node: Node, visit: (path: string, node: Node) => void, path = ""): void {
  visit(path, node);
  const join = (k: string) => (path ? `${path}.${k}` : k);
  for (const [k, child] of Object.entries(node.properties ?? {})) walkSchema(child, visit, join(k));
  if (node.additionalProperties && typeof node.additionalProperties === "object")
    walkSchema(node.additionalProperties, visit, join("*"));
  if (node.items) walkSchema(node.items, visit, `${path}[]`);
  // A union (one number or a list of them) describes its list items under the same key.
  for (const alt of node.anyOf ?? []) if (alt.items) walkSchema(alt.items, visit, `${path}[]`);
}

/** What the schema says of a trap rule (the rules live in stages/preflight/traps; the schema verb passes them). */
export interface TrapRuleDoc {
  readonly id: string;
  readonly defaultLevel: string;
  readonly why: string;
}

/** Each trap rule as a key of its own, so an editor completes the ids and shows why each matters. */
function trapRules(traps: Node, rules: readonly TrapRuleDoc[]): void {
  const level = traps.additionalProperties as Node;
  traps.properties = Object.fromEntries(
    rules.map((r) => [r.id, { ...level, description: `${r.id} (default ${r.defaultLevel}): ${r.why}.` }]),
  );
}

export function jsonSchema(rules: readonly TrapRuleDoc[]): Record<string, unknown> {
  const raw = z.toJSONSchema(configSchema, { io: "input", unrepresentable: "any", target: "draft-7" }) as Node;
  walkSchema(raw, (path, node) => {
    if (path === "endpoints.*.traps") trapRules(node, rules);
    const d = DESCRIPTIONS[path];
    if (d) node.description = d;
    Object.assign(node, EXTRA[path] ?? {});
  });
  const { $schema, ...rest } = raw;
  return { $schema, $id: SCHEMA_ID, title: "deploy-gate.yml", ...rest };
}
