// An inline code span for text that is not ours (a flag value, a file name, a ref): a backtick in it cannot
// close the span early, so the text after it never becomes markdown, HTML or a "command" of the summary's
// copyable block. CommonMark: a span opened by N backticks ends at the next run of exactly N. Pure.

export function codeSpan(raw: string): string {
  // a span is one line: a newline would end a heading (or a table row) and free the rest as markdown
  const text = raw.replace(/\r?\n/g, " ");
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  if (longest === 0) return `\`${text}\``;
  const ticks = "`".repeat(longest + 1);
  return `${ticks} ${text} ${ticks}`;
}

/** The text split into code spans (odd indexes, as written) and prose (even), as CommonMark pairs them. */
export function splitCodeSpans(text: string): string[] {
  const parts: string[] = [];
  let prose = 0;
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("`", i);
    if (open < 0) break;
    let n = 1;
    while (text[open + n] === "`") n++;
    // the closing run: exactly n backticks
    let close = -1;
    for (let j = open + n; j < text.length;) {
      const k = text.indexOf("`", j);
      if (k < 0) break;
      let m = 1;
      while (text[k + m] === "`") m++;
      if (m === n) {
        close = k;
        break;
      }
      j = k + m;
    }
    if (close < 0) {
      i = open + n; // no closer: the backticks are literal
      continue;
    }
    parts.push(text.slice(prose, open), text.slice(open, close + n));
    prose = i = close + n;
  }
  parts.push(text.slice(prose));
  return parts;
}
