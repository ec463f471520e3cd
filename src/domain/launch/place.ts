// Puts flags read from a string that lost its line breaks back on the lines that write them. Pure.
/**
 * A `sh -c` string in YAML loses its line breaks when folded (`>`, a quoted scalar over several lines): its
 * words are read on the string's first line. Each flag is moved down to the line that writes it: never up, never
 * above the flag before it, at most 40 lines on (and not past `lastLine`, the command's end). A `bash -c "\\
 * ..."` in a script loses them the same way (a backslash-newline inside double quotes is removed).
 */
export function placeFlags(
  flags: { name: string; line: number; file?: string }[],
  lines: readonly string[],
  lastLine = Infinity,
): void {
  let cursor = 0;
  for (const f of flags) {
    if (f.file) continue; // written in another file: its line is there
    const from = Math.max(cursor, f.line);
    // (a default that is the flag itself, `${PREFIX_CACHING:---enable-prefix-caching}`, writes it there)
    const name = f.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const word = new RegExp(`(?:(?<![\\w-])|(?<=\\$\\{\\w+:?-))${name}(?![\\w-])`);
    for (let n = from; n <= Math.min(lines.length, from + 40, lastLine); n++) {
      if (word.test(lines[n - 1] ?? "")) {
        f.line = n;
        break;
      }
    }
    cursor = f.line;
  }
}
