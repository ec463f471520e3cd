// Reads deploy-gate.yml into a typed Config, or throws ConfigError naming file, line, key and fix.
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
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
  const keyDef =
    def.type === "record"
      ? (def.keyType as { def?: { type?: string; entries?: Record<string, string> } }).def
      : undefined;
  return keyDef?.type === "enum" ? Object.values(keyDef.entries ?? {}) : [];
}

/** A deploy-gate.yml is a few kB; anything this big is a mistake or an attack on the parser. */
export const MAX_CONFIG_BYTES = 1 << 20;
const tooBig = (file: string, bytes: number) =>
  new ConfigError(file, [
    {
      line: null,
      path: "",
      message: `the config is ${(bytes / (1 << 20)).toFixed(1)} MiB, larger than 1 MiB: check that --config names deploy-gate.yml, and list only the flags and env the contract needs`,
    },
  ]);

export function parseConfig(text: string, file: string): Config {
  if (text.length > MAX_CONFIG_BYTES) throw tooBig(file, Buffer.byteLength(text));
  // read as UTF-8, a UTF-16 file (Windows editors, PowerShell's >) shows as NULs between its characters
  if (/^(?:\uFFFD\uFFFD|\uFEFF?[^\0\n]?\0)/.test(text) || text.slice(0, 200).split("\0").length > 20) {
    throw new ConfigError(file, [
      {
        line: null,
        path: "",
        message:
          "the file is UTF-16, not UTF-8: save it as UTF-8 (in PowerShell: Out-File -Encoding utf8, or Set-Content)",
      },
    ]);
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ConfigError(
      file,
      doc.errors.map((e) => ({
        line: lc.linePos(e.pos[0]).line,
        path: "",
        message:
          e.code === "MULTIPLE_DOCS"
            ? "more than one YAML document (a second `---`): deploy-gate.yml is one document; remove the `---` line and merge what follows it"
            : `YAML syntax: ${e.message.split("\n")[0]} (fix the indentation or quoting on that line)`,
      })),
    );
  }
  let value: unknown;
  try {
    // Aliases are fine in moderation; a nest of them (a "billion laughs") would expand without end.
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new ConfigError(file, [
      {
        line: null,
        path: "",
        message: `YAML aliases: ${(e as Error).message.split("\n")[0]}; write the repeated values out instead of nesting aliases`,
      },
    ]);
  }
  const result = configSchema.safeParse(value, { reportInput: true });
  if (!result.success) throw new ConfigError(file, describeIssues(result.error.issues, doc, lc, knownKeys));
  return result.data;
}

export function loadConfig(path: string): Config {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_CONFIG_BYTES) throw tooBig(path, size);
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EISDIR")
      throw new ConfigError(path, [
        { line: null, path: "", message: "is a directory: pass --config with the deploy-gate.yml file itself" },
      ]);
    throw new ConfigError(path, [
      {
        line: null,
        path: "",
        message: `cannot read the config (${(e as NodeJS.ErrnoException).code ?? String(e)}); pass --config FILE or run without one for repo-only preflight`,
      },
    ]);
  }
  return withPathsFrom(parseConfig(text, path), path);
}

/** identityFile is relative to the config file (as docs/config.md says), wherever the gate runs from. */
function withPathsFrom(config: Config, file: string): Config {
  const base = dirname(resolve(file));
  for (const ep of Object.values(config.endpoints)) {
    for (const t of [ep.host, ep.peer])
      if (t?.identityFile && !isAbsolute(t.identityFile)) t.identityFile = resolve(base, t.identityFile);
  }
  return config;
}

/** Fields a stage needs beyond script/contracts; missing ones are a config error naming them. */
export function requireFor<K extends keyof Endpoint>(
  name: string,
  ep: Endpoint,
  stage: string,
  keys: readonly K[],
  file: string,
): asserts ep is Endpoint & Required<Pick<Endpoint, K>> {
  const missing = keys.filter((k) => ep[k] === undefined);
  if (missing.length) {
    throw new ConfigError(
      file,
      missing.map((k) => ({
        line: null,
        path: `endpoints.${name}.${String(k)}`,
        message: `required by ${stage}; add it to the endpoint${k === "host" ? " (or give the action's host and user inputs)" : ""} (see docs/config.md)`,
      })),
    );
  }
}

export { endpointSchema };
