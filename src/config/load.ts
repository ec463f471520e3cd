// Reads deploy-gate.yml into a typed Config, or throws ConfigError naming file, line, key and fix.
import { readFileSync } from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import * as z from "zod";
import { ConfigError, describeIssues } from "./errors.js";
import { configSchema, endpointSchema, type Config, type Endpoint } from "./schema.js";

export const DEFAULT_CONFIG = "deploy-gate.yml";

/** The keys a strict object accepts at a path of the config, for "did you mean". */
function knownKeys(path: PropertyKey[]): string[] {
  let schema: z.ZodType = configSchema;
  for (const seg of path) {
    const def = (schema as unknown as { def: Record<string, unknown> }).def;
    if (def.type === "object") schema = (def.shape as Record<string, z.ZodType>)[String(seg)] ?? schema;
    else if (def.type === "record") schema = def.valueType as z.ZodType;
    else if (def.type === "array") schema = def.element as z.ZodType;
    // unwrap optional/default/prefault/pipe layers
    for (;;) {
      const d = (schema as unknown as { def: Record<string, unknown> }).def;
      if (["optional", "default", "prefault", "nullable"].includes(d.type as string)) schema = d.innerType as z.ZodType;
      else if (d.type === "pipe") schema = d.in as z.ZodType;
      else break;
    }
  }
  const def = (schema as unknown as { def: Record<string, unknown> }).def;
  if (def.type === "object") return Object.keys(def.shape as object);
  // A record keyed by an enum (traps): its allowed keys are the enum's values.
  const keyDef = def.type === "record" ? (def.keyType as { def?: { type?: string; entries?: Record<string, string> } }).def : undefined;
  return keyDef?.type === "enum" ? Object.values(keyDef.entries ?? {}) : [];
}

export function parseConfig(text: string, file: string): Config {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ConfigError(file, doc.errors.map((e) => ({
      line: lc.linePos(e.pos[0]).line,
      path: "",
      message: `YAML syntax: ${e.message.split("\n")[0]} (fix the indentation or quoting on that line)`,
    })));
  }
  const result = configSchema.safeParse(doc.toJS(), { reportInput: true });
  if (!result.success) throw new ConfigError(file, describeIssues(result.error.issues, doc, lc, knownKeys));
  return result.data;
}

export function loadConfig(path: string): Config {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(path, [{ line: null, path: "", message: `cannot read the config (${(e as NodeJS.ErrnoException).code ?? String(e)}); pass --config FILE or run without one for repo-only preflight` }]);
  }
  return parseConfig(text, path);
}

/** Fields a stage needs beyond script/contracts; missing ones are a config error naming them. */
export function requireFor<K extends keyof Endpoint>(name: string, ep: Endpoint, stage: string, keys: readonly K[], file: string): asserts ep is Endpoint & Required<Pick<Endpoint, K>> {
  const missing = keys.filter((k) => ep[k] === undefined);
  if (missing.length) {
    throw new ConfigError(file, missing.map((k) => ({ line: null, path: `endpoints.${name}.${String(k)}`, message: `required by ${stage}; add it to the endpoint (see the README's config reference)` })));
  }
}

export { endpointSchema };
