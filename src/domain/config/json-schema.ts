// The JSON Schema of deploy-gate.yml for editors: zod's schema plus an $id, a title, a description on
// every key (descriptions.ts) and the checks zod cannot express, so the editor accepts what the CLI does.
import * as z from "zod";
import { DESCRIPTIONS } from "./descriptions.js";
import { configSchema } from "./schema.js";
import { VERSION } from "../../lib/version.js";

/**
 * The packaged schema (dist/ is committed) at this version's release tag: what an editor fetches matches the
 * gate that wrote the modeline, and a later release never changes it under an older config.
 */
export const SCHEMA_ID = `https://raw.githubusercontent.com/deploy-gate/deploy-gate/v${VERSION}/dist/deploy-gate.schema.json`;

type Node = {
  [k: string]: unknown;
  properties?: Record<string, Node>;
  additionalProperties?: Node | boolean;
  items?: Node;
  anyOf?: Node[];
  patternProperties?: Record<string, Node>;
};

/** Checks added by path that zod's refinements carry but its JSON Schema cannot. */
const EXTRA: Record<string, Record<string, unknown>> = {
  endpoints: { minProperties: 1 },
  "endpoints.*.url": {
    pattern: "^[Hh][Tt][Tt][Pp][Ss]?://",
    patternErrorMessage: "expected an http:// or https:// URL, e.g. http://gpu1.lan:8000",
    errorMessage: "expected an http:// or https:// URL, e.g. http://gpu1.lan:8000",
  },
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

/** The message a zod regex check carries ("expected a user name ..."), for the editor to show instead of the regex. */
function patternMessage(schema: unknown): string | null {
  const checks = (schema as { _zod?: { def?: { checks?: { _zod: { def: Record<string, unknown> } }[] } } })._zod?.def
    ?.checks;
  for (const c of checks ?? []) {
    const d = c._zod.def;
    if (d.format === "regex" && typeof d.error === "function") {
      const m = (d.error as (i: unknown) => unknown)({});
      if (typeof m === "string") return m;
    }
  }
  return null;
}

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A regex for the words one edit (a letter added, dropped, changed, or two swapped) from `word`, never a real key. */
export function nearMiss(word: string, keys: readonly string[]): string {
  const w = [...word].map(reEscape);
  const alts = new Set<string>();
  for (let i = 0; i <= w.length; i++) {
    alts.add([...w.slice(0, i), ".", ...w.slice(i)].join("")); // added
    if (i === w.length) continue;
    alts.add([...w.slice(0, i), ...w.slice(i + 1)].join("")); // dropped
    alts.add([...w.slice(0, i), ".", ...w.slice(i + 1)].join("")); // changed
    if (i + 1 < w.length) alts.add([...w.slice(0, i), w[i + 1], w[i], ...w.slice(i + 2)].join("")); // swapped
  }
  alts.delete("");
  return `^(?!(?:${keys.map(reEscape).join("|")})$)(?:${[...alts].join("|")})$`;
}

/**
 * A misspelt key in an editor gets the CLI's "did you mean": near misses of each key are matched by a pattern
 * whose schema no value meets, and its message names the key. Other validators refuse them as before.
 */
function didYouMean(node: Node): void {
  if (node.additionalProperties !== false || !node.properties) return;
  const keys = Object.keys(node.properties);
  const near: Record<string, Node> = {};
  for (const k of keys) {
    if (k.length < 3) continue; // every two-letter word is one edit from a short key
    const message = `unknown key: did you mean "${k}"? Allowed here: ${keys.join(", ")}.`;
    // no value equals this one: the key is refused whatever it holds, with the message
    near[nearMiss(k, keys)] = { const: "\u0000not a key of deploy-gate.yml", errorMessage: message };
  }
  node.patternProperties = near;
}

export function jsonSchema(rules: readonly TrapRuleDoc[]): Record<string, unknown> {
  const raw = z.toJSONSchema(configSchema, {
    io: "input",
    unrepresentable: "any",
    target: "draft-7",
    // the CLI's words for a value of the wrong form, never the regular expression itself
    override: (ctx) => {
      const m = patternMessage(ctx.zodSchema);
      if (m && ctx.jsonSchema.pattern) Object.assign(ctx.jsonSchema, { patternErrorMessage: m, errorMessage: m });
    },
  }) as Node;
  walkSchema(raw, (path, node) => {
    if (path === "endpoints.*.traps") trapRules(node, rules);
    const d = DESCRIPTIONS[path];
    if (d) node.description = d;
    Object.assign(node, EXTRA[path] ?? {});
    didYouMean(node);
  });
  const { $schema, ...rest } = raw;
  return { $schema, $id: SCHEMA_ID, title: "deploy-gate.yml", ...rest };
}
