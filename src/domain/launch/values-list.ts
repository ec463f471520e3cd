// A chart that renders one container per entry of a values list (`{{ range .Values.models }} ... args: {{ toYaml
// .args }}`) writes the same flag from several values lists: each rendered args list is placed on the values list
// it holds, not on the first values line that holds the flag. Pure.
import { plainLine, uncommented } from "./template-align.js";

const ITEM = /^(\s*)-(\s|$)/;
const SKIP = /^\s*(#.*)?$/;

const indentOf = (line: string) => ITEM.exec(line)?.[1]!.length ?? -1;

/** The block list the item at `at` (0-based) belongs to: its first item's line and its items, quotes off. */
export function listAround(lines: readonly string[], at: number): { start: number; items: string[] } | null {
  const indent = indentOf(lines[at] ?? "");
  if (indent < 0) return null;
  // a line deeper than the items continues the item above it; a comment or blank line inside the list is skipped
  const inList = (l: string) => SKIP.test(l) || indentOf(l) === indent || (!ITEM.test(l) && lead(l) > indent);
  let start = at;
  for (let i = at - 1; i >= 0 && inList(lines[i]!); i--) if (indentOf(lines[i]!) === indent) start = i;
  const items: string[] = [];
  for (let i = start; i < lines.length && inList(lines[i]!); i++)
    // (`- "--enforce-eager" # why`: the comment is no part of the item)
    if (indentOf(lines[i]!) === indent) items.push(plainLine(uncommented(lines[i]!)).replace(/^- ?/, ""));
  return { start, items };
}

/**
 * The first line (0-based) of every block list in `text` whose items are a run of `items` (the rendered list may add
 * the template's own flags around the values list), the longest lists first, then in order.
 */
export function listsWithin(text: string, items: readonly string[]): number[] {
  const lines = text.split("\n");
  const out: { start: number; length: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const list = indentOf(lines[i]!) >= 0 ? listAround(lines, i) : null;
    if (!list || list.start !== i || !list.items.length) continue;
    if (runOf(list.items, items)) out.push({ start: i, length: list.items.length });
  }
  return out.sort((a, b) => b.length - a.length || a.start - b.start).map((x) => x.start);
}

function runOf(run: readonly string[], items: readonly string[]): boolean {
  for (let i = 0; i + run.length <= items.length; i++) if (run.every((x, j) => x === items[i + j])) return true;
  return false;
}

const lead = (l: string) => l.length - l.trimStart().length;

/**
 * The scalar values beside the list starting at `start` (0-based) in its entry's mapping (`model: Qwen/Qwen3-8B`,
 * `maxModelLen: 65536` beside `extraArgs:`): what tells two identical lists of two entries apart in a render.
 * Booleans and values of one or two characters say nothing.
 */
export function siblingValues(text: string, start: number): string[] {
  const lines = text.split("\n");
  let key = start - 1;
  while (key >= 0 && SKIP.test(lines[key]!)) key--;
  if (key < 0 || ITEM.test(lines[key]!)) return [];
  const indent = lead(lines[key]!);
  const out: string[] = [];
  const take = (l: string) => {
    const m = /^\s*[\w.-]+:\s+["']?([^"'#\s][^"'#]*?)["']?\s*(#.*)?$/.exec(l);
    if (m && m[1]!.length > 2 && !/^(true|false|null|\{\}|\[\])$/.test(m[1]!)) out.push(m[1]!);
  };
  for (const step of [-1, 1])
    for (let i = key + step; i >= 0 && i < lines.length; i += step) {
      const l = lines[i]!;
      if (SKIP.test(l)) continue;
      // (the entry's first key shares its dash's line: `- name: hermes` above `maxModelLen:`)
      const dashed = ITEM.exec(l);
      if (step < 0 && dashed && lead(l) + 1 + dashed[2]!.length === indent)
        take(l.replace(/^\s*-/, (d) => " ".repeat(d.length)));
      if (lead(l) < indent || (lead(l) === indent && ITEM.test(l))) break;
      if (lead(l) === indent) take(l);
    }
  return out;
}
