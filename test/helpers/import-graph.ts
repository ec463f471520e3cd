// The import graph of src/ read from the files' text: what test/architecture.test.ts checks the layout on.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface ImportGraph {
  /** every .ts file, relative to the source root, with "/" separators */
  files: string[];
  /** file -> the src files it imports (static, re-exports, type-only and dynamic alike) */
  edges: Map<string, string[]>;
}

// `import x from`, `import type {..} from`, `export * from`, `import "./side-effect.js"`, `import("./lazy.js")`
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']|(?:^|\n)\s*import\s*["'](\.{1,2}\/[^"']+)["']|\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

export function importGraph(root: string): ImportGraph {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .map((f) => f.split("\\").join("/"))
    .filter((f) => f.endsWith(".ts"))
    .sort();
  const edges = new Map<string, string[]>();
  for (const f of files) edges.set(f, importsOf(root, f, readFileSync(join(root, f), "utf8")));
  return { files, edges };
}

export function importsOf(root: string, file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    out.push(
      relative(root, resolve(dirname(join(root, file)), spec))
        .split("\\")
        .join("/")
        .replace(/\.js$/, ".ts"),
    );
  }
  return out;
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
export function circles(graph: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.edges.get(v) ?? []) {
      if (!graph.edges.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.edges.get(v) ?? []).includes(v)) found.push(comp.sort());
    }
  };
  for (const f of graph.files) if (!idx.has(f)) visit(f);
  return found;
}
