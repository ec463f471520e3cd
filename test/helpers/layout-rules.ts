// The folder rules of docs/architecture.md as a function of the import graph: one line per broken rule.
import type { ImportGraph } from "./import-graph.js";

/** A file may import its own layer or the layers before it in this list. */
const ORDER = ["lib", "domain", "ports", "stages", "commands", "cli|action"] as const;
/** The entries' side-effect files: built, never imported. */
const ENTRY_FILES = ["cli/bin.ts", "action/index.ts"];
/** domain/ is pure, but for the one file that reads the config. */
const DOMAIN_IO_EXCEPTIONS = ["domain/config/load.ts"];
const DOMAIN_IO: readonly [RegExp, string][] = [
  [/from\s+["']node:(fs|fs\/promises|child_process|net|http|https|tls)["']/, "node:$1"],
  [/from\s+["']ssh2["']/, "ssh2"],
  [/\bprocess\.env\b/, "process.env"],
];
/** commands/ never touch the process: the entry passes io (out, err, env) and owns the exit code. */
const COMMAND_PROCESS: readonly [RegExp, string][] = [
  [/\bprocess\.exit\b/, "process.exit"],
  [/\bprocess\.(stdout|stderr)\b/, "process.$1"],
  [/\bprocess\.env\b/, "process.env"],
  [/from\s+["']@actions\/core["']/, "@actions/core"],
];

/** What commands/shared/ may import of commands/: itself and the option types, never a verb. */
const SHARED_MAY = /^commands\/(shared\/|options\.ts$|spec\.ts$)/;

export const layerOf = (f: string): number => ORDER.findIndex((l) => new RegExp(`^(${l})/`).test(f));
const entryOf = (f: string) => /^(cli|action)\//.exec(f)?.[1];
const stageOf = (f: string) => /^stages\/([^/]+)\//.exec(f)?.[1];

export function layoutProblems(graph: ImportGraph, read: (file: string) => string): string[] {
  const problems: string[] = [];
  for (const f of graph.files) {
    if (layerOf(f) < 0) {
      problems.push(`${f} is not in a layer folder`);
      continue;
    }
    for (const t of graph.edges.get(f) ?? []) {
      if (layerOf(t) > layerOf(f)) problems.push(`${f} -> ${t} imports a layer above its own`);
      if (entryOf(f) && entryOf(t) && entryOf(f) !== entryOf(t))
        problems.push(`${f} -> ${t}: one entry imports the other`);
      if (ENTRY_FILES.includes(t)) problems.push(`${f} -> ${t} imports an entry file (only side effects live there)`);
      if (stageOf(f) && stageOf(t) && stageOf(f) !== stageOf(t)) problems.push(`${f} -> ${t} imports another stage`);
      if (f.startsWith("commands/shared/") && t.startsWith("commands/") && !SHARED_MAY.test(t)) {
        problems.push(`${f} -> ${t}: commands/shared/ imports a verb`);
      }
    }
    const text = read(f);
    if (f.startsWith("domain/") && !DOMAIN_IO_EXCEPTIONS.includes(f)) {
      for (const [re, what] of DOMAIN_IO) {
        const m = re.exec(text);
        if (m) problems.push(`${f} does I/O (${what.replace("$1", m[1] ?? "")})`);
      }
    }
    if (f.startsWith("commands/")) {
      for (const [re, what] of COMMAND_PROCESS) {
        const m = re.exec(text);
        if (m) problems.push(`${f} uses ${what.replace("$1", m[1] ?? "")} (the entry owns the process)`);
      }
    }
  }
  return problems;
}
