// A script that sources a library of its repository (`source "$SCRIPT_DIR/common.sh"`, `. ./lib.sh`) and calls the
// function there that starts the engine: the launch is read from the script with the library's text after it (bash
// has defined the function by the time the call runs), then each flag the library writes is given back to the
// library's own file and line, and the rest of the library's lines to the line that sources it. Pure.
import { parseServeScript } from "./parse.js";
import type { ServeScript } from "./model.js";
import { remapLines } from "./remap-lines.js";

export interface Sourced {
  /** the path as the script names it, relative to the script's directory */
  path: string;
  /** the line of the `source` / `.` statement */
  line: number;
}

/** The script's own directory, however it is spelt: `$SCRIPT_DIR/`, `$(dirname "$0")/`, `${BASH_SOURCE%/*}/`, `./`. */
const HERE =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/|\$\(\s*dirname\s+"?\$(?:0|\{?BASH_SOURCE(?:\[0\])?\}?)"?\s*\)\/|\$\{(?:BASH_SOURCE(?:\[0\])?|0)%\/\*\}\/|\.\/)?/;

/** The repository files a script sources, by a path relative to its own directory (none through PATH or $HOME). */
export function sourcedFiles(text: string): Sourced[] {
  const out: Sourced[] = [];
  text.split("\n").forEach((l, i) => {
    const m = /^\s*(?:source|\.)\s+("[^"]*(?:"[^"]*"[^"]*)*"|'[^']*'|[^\s"';|&]+)\s*(?:#.*)?$/.exec(l);
    if (!m) return;
    const word = /^["']/.test(m[1]!) ? m[1]!.slice(1, -1) : m[1]!;
    const here = HERE.exec(word)![0];
    // a variable other than the script's own directory is read only when the text sets it from dirname / BASH_SOURCE
    const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\/$/.exec(here)?.[1];
    if (variable && !new RegExp(`\\b${variable}=.*(dirname|BASH_SOURCE|\\$0)`).test(text)) return;
    const rest = word.slice(here.length);
    if (!rest || rest.includes("$") || rest.startsWith("/") || rest.startsWith("~")) return;
    out.push({ path: rest, line: i + 1 });
  });
  return out;
}

/**
 * The script's launch with the libraries it sources (their text and repository path) read in: null when the script
 * starts an engine of its own, or none with them either.
 */
export function launchWithLibraries(
  text: string,
  libraries: ReadonlyArray<Sourced & { file: string; text: string }>,
): ServeScript | null {
  if (!libraries.length || parseServeScript(text).engine) return null;
  // the libraries first: bash has defined their functions by the time the script's call runs
  let combined = "";
  const spans: { from: number; to: number; lib: (typeof libraries)[number] }[] = [];
  for (const lib of libraries) {
    const from = combined.split("\n").length; // the library's first line in the combined text
    combined += lib.text.endsWith("\n") ? lib.text : `${lib.text}\n`;
    spans.push({ from, to: combined.split("\n").length, lib }); // [from, to): the library's lines
  }
  const offset = combined.split("\n").length - 1; // the script's line n is the combined text's n + offset
  const script = parseServeScript(combined + text);
  if (!script.engine) return null;
  const spanOf = (line: number) => spans.find((s) => line >= s.from && line < s.to);
  const placed = script.engine.flags.map((f) => {
    const s = f.file ? undefined : spanOf(f.line);
    return s ? { file: s.lib.file, line: f.line - s.from + 1 } : null;
  });
  // the library's other lines (its engine command, a container's options) are the sourcing line's, in this file
  remapLines(script, (line) => spanOf(line)?.lib.line ?? line - offset);
  script.engine.flags.forEach((f, i) => {
    const p = placed[i];
    if (p) [f.file, f.line] = [p.file, p.line];
  });
  return { ...script, text, lines: text.split("\n") };
}
