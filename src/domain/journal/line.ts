// One log line as a terminal would show it, and the two ways of taking escapes out of text.
// stripAnsi is for engine lines (colour and tqdm's cursor codes, nothing else touched: a parser reads the rest);
// stripControl is for text shown to a reader (every escape and control character out, so nothing drives the
// terminal). They differ on purpose: test/domain/journal/line.test.ts puts them side by side.

/** CSI sequences: colour (`m`) and the cursor/erase codes tqdm writes. */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

export function stripAnsi(text: string): string {
  return text.includes("\x1b") ? text.replace(ANSI, "") : text;
}

/**
 * One physical line as a terminal would show it: ANSI stripped, and of `\r`-separated rewrites (tqdm, and
 * the `\r` NewLineFormatter leaves before every continuation) the last non-empty one; a line copied out of a
 * terminal viewer's `│` frame without the frame (non-ASCII, so wasm/text.h's ASCII path never sees one).
 */
export function cleanLine(raw: string): string {
  let line = stripAnsi(raw);
  if (line.includes("\r")) {
    // a CR inside a name a tool quotes (`'bash\r': No such file`, `/bin/bash\r: bad interpreter`) is a CRLF file's,
    // not a rewrite: shown as cat -v does
    line = line.replace(/\r(?=['’"]?: )/g, "^M");
    const parts = line.split("\r").filter((p) => p.length > 0);
    line = parts[parts.length - 1] ?? "";
  }
  return line.charCodeAt(0) === FRAME ? unframe(line) : line;
}

/** `│`: a terminal viewer's frame (k9s logs, a TUI pane) around each line copied from it. */
const FRAME = 0x2502;

/** The line inside the frame: `│ text    │` → `text` (no regex: a long run of padding stays linear). */
function unframe(line: string): string {
  let inner = line.slice(line.charCodeAt(1) === 0x20 ? 2 : 1).trimEnd();
  if (inner.charCodeAt(inner.length - 1) === FRAME) inner = inner.slice(0, -1).trimEnd();
  return inner;
}

// OSC (ESC ] ... BEL|ST), CSI (ESC [ ... final), other ESC pairs, then any C0/C1 control left over
// (tab and newline kept), DEL, and the bidi overrides that reorder what a reader sees.
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?/g;
const ESC = /\x1b[@-_]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Text safe to show: CRLF as LF, every escape sequence and control character (but tab and newline) removed. */
export function stripControl(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(OSC, "").replace(CSI, "").replace(ESC, "").replace(CONTROL, "");
}
