// Directories in a launch file: which a command creates, and when two spellings name the same path.
// Questions about the launch model that preflight's traps and verify's compile-cache check both ask.
import type { Command } from "./model.js";
import { programWords } from "./words.js";

/** The directories a `mkdir -p` / `install -d` creates (parents included). */
export function createdDirs({ item }: { item: Command }) {
  const words = programWords(item.words);
  const prog = words[0]?.text.replace(/^.*\//, "");
  const args = words.slice(1);
  const opts = args.filter((w) => w.text.startsWith("-")).map((w) => w.text);
  const makesParents = prog === "mkdir" && opts.some((o) => o === "--parents" || /^-[a-zA-Z]*p/.test(o));
  const installDir = prog === "install" && opts.some((o) => o === "--directory" || /^-[a-zA-Z]*d/.test(o));
  if (!makesParents && !installDir) return [];
  return args.filter((w) => !w.text.startsWith("-"));
}

/** `${DIR}`, `${DIR:-/x}` and `$DIR` name the same thing; trailing slashes do not matter. */
export function samePath(a: { text: string; resolved?: string }, b: { text: string; resolved?: string }): boolean {
  const norm = (t: string) => t.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?:[:=+?-][^}]*)?\}/g, "$$$1").replace(/\/+$/, "");
  if (norm(a.text) === norm(b.text)) return true;
  return a.resolved !== undefined && b.resolved !== undefined && norm(a.resolved) === norm(b.resolved);
}
