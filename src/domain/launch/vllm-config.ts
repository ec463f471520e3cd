// vLLM's `--config FILE.yaml`: the file's top-level keys are engine flags (`max_model_len: 32768` is
// `--max_model_len 32768`; `true` a switch; a flag on the command line wins over the file's key). Each flag keeps
// the file and line it is written on. Pure.
import { isMap, isScalar, isSeq } from "yaml";
import type { Flag } from "./model.js";
import { readYaml, YamlReader } from "./yaml-node.js";

/** The flags a config file stands for; null when the text is no YAML map. */
export function configFileFlags(text: string, file: string): Flag[] | null {
  const src = readYaml(text);
  const doc = src?.docs[0];
  if (!src || !doc || !isMap(doc.contents)) return null;
  const y = new YamlReader(src, doc);
  const out: Flag[] = [];
  for (const key of y.keys(doc.contents)) {
    const node = y.get(doc.contents, key);
    const line = y.keyLine(doc.contents, key);
    const name = `--${key}`;
    if (isScalar(node)) {
      if (node.value === false || node.value === null) continue;
      const value = node.value === true ? null : (y.str(node) ?? "");
      out.push({ name, value, line, optional: false, file, ...(value !== null ? { resolvedValue: value } : {}) });
    } else if (node && (isSeq(node) || isMap(node))) {
      const value = JSON.stringify(node.toJSON());
      out.push({ name, value, line, optional: false, file, resolvedValue: value });
    }
  }
  return out;
}

/** The file a `--config` flag names, when the engine reads one (vLLM). */
export function configFlagPath(flags: readonly Flag[]): string | null {
  const f = flags.filter((x) => x.name === "--config" && (x.resolvedValue ?? x.value)).at(-1);
  return f ? (f.resolvedValue ?? f.value) : null;
}

/** The command line wins: the file's keys fill in only what the argv does not set. */
export function mergeConfigFlags(argv: readonly Flag[], fromFile: readonly Flag[]): Flag[] {
  const norm = (n: string) => n.replace(/_/g, "-");
  const set = new Set(argv.map((f) => norm(f.name)));
  return [...argv, ...fromFile.filter((f) => !set.has(norm(f.name)))];
}
