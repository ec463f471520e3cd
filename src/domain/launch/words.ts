// Helpers for reading a command's words: which program runs once wrappers such as sudo, exec,
// env, nohup and timeout are peeled off, and which words are that program's arguments.
import type { Command, Word } from "./model.js";

const WRAPPERS_WITH_ARG: Record<string, Set<string>> = {
  sudo: new Set(["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T"]),
  nice: new Set(["-n"]),
  timeout: new Set(["-s", "-k", "--signal", "--kill-after"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
  env: new Set(["-u", "-C", "--unset", "--chdir"]),
  nohup: new Set(),
  // util-linux: setsid [-c] [-f] [-w] PROGRAM; ionice [-c CLASS] [-n LEVEL] [-t] PROGRAM
  setsid: new Set(),
  ionice: new Set(["-c", "-n", "--class", "--classdata"]),
  exec: new Set(["-a"]),
  command: new Set(),
  time: new Set(),
  builtin: new Set(),
  eval: new Set(),
};

export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The words of the program a command really runs: `sudo -u x env A=1 nohup podman run` -> `podman run ...`. */
export function programWords(words: readonly Word[]): Word[] {
  let i = 0;
  while (i < words.length) {
    const name = basename(words[i]!.text);
    const withArg = WRAPPERS_WITH_ARG[name];
    if (!withArg) break;
    // `command -v llama-server` only says where the program is: it runs nothing
    if (name === "command" && /^-[vV]$/.test(words[i + 1]?.text ?? "")) return [];
    i++;
    if (name === "timeout") {
      while (i < words.length && words[i]!.text.startsWith("-")) i += withArg.has(words[i]!.text) ? 2 : 1;
      i++; // the duration
      continue;
    }
    while (i < words.length) {
      const t = words[i]!.text;
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
        i++;
        continue;
      }
      if (!t.startsWith("-") || t === "-" || t === "--") {
        if (t === "--") i++;
        break;
      }
      i += withArg.has(t) ? 2 : 1;
    }
  }
  return words.slice(i);
}

/** The program name (basename) a command runs, after wrappers; "" for a bare assignment. */
export function programOf(cmd: Command): string {
  const w = programWords(cmd.words)[0];
  return w ? basename(w.text) : "";
}

/** True when the command runs `prog sub` (e.g. `podman run`, `podman container run`, `git stash`). */
export function runsSubcommand(cmd: Command, prog: string, sub: string): Word[] | null {
  const words = programWords(cmd.words);
  // (`"$RUNTIME" run`, RUNTIME=docker: the program the variable holds)
  if (!words[0] || basename(words[0].resolved || words[0].text) !== prog) return null;
  let i = 1;
  if (prog === "podman" || prog === "docker") {
    while (i < words.length && words[i]!.text.startsWith("-")) i++; // global options such as --log-level=debug
    if (words[i]?.text === "container") i++;
  }
  if (prog === "git") {
    while (i < words.length && words[i]!.text.startsWith("-"))
      i += ["-C", "-c", "--git-dir", "--work-tree"].includes(words[i]!.text) ? 2 : 1;
  }
  return words[i]?.text === sub ? words.slice(i + 1) : null;
}

/** True when the command sends stderr where stdout goes (2>&1, &>, |&). */
export function hasMergedStderr(cmd: Command): boolean {
  return cmd.redirects.some(
    (r) => r.op === "2>&1" || r.op.startsWith("&>") || (r.op === "2>" && r.target === "/dev/stdout"),
  );
}

/** The quoted text of `NAME="..."` / `NAME='...'` as written from line `index` on: quotes removed, newlines and
 *  continuations kept (so a string re-read as a script keeps its lines). Null when the value is not one quoted literal.
 * */
export function assignedSource(
  text: string,
  index: number,
  name: string,
  line: number,
): { text: string; line: number } | null {
  let start = 0;
  for (let i = 0; i < index; i++) {
    start = text.indexOf("\n", start) + 1;
    if (start === 0) return null;
  }
  const end = text.indexOf("\n", start);
  const m = new RegExp(`(?:^|[\\s;])(?:export\\s+|local\\s+|readonly\\s+)?${name}=(["'])`).exec(
    text.slice(start, end < 0 ? undefined : end),
  );
  if (!m) return null;
  const quote = m[1]!;
  let out = "";
  for (let i = start + m.index + m[0].length; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === quote) return { text: out, line };
    // inside double quotes a backslash escapes only $ ` " \ (a backslash-newline stays: the re-read script continues
    // the line)
    if (quote === '"' && ch === "\\" && /[$`"\\]/.test(text[i + 1] ?? "")) {
      out += text[++i];
      continue;
    }
    out += ch;
  }
  return null;
}

/**
 * The heredoc that starts on `lines[i]` (`<<EOF`, `<<-'EOF'`): its body as the command reading it gets it (tabs
 * stripped for `<<-`; in an unquoted one `\\`, `\$` and `` \` `` lose their backslash, as bash expands them) and the
 * index of its closing line. Null when the line opens none or it never closes.
 */
export function heredocAt(lines: readonly string[], i: number): { body: string[]; end: number } | null {
  const m = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(lines[i] ?? "");
  if (!m) return null;
  const strip = (l: string) => (m[1] === "-" ? l.replace(/^\t+/, "") : l);
  const end = lines.findIndex((l, j) => j > i && strip(l) === m[3]);
  if (end < 0) return null;
  const body = lines.slice(i + 1, end).map(strip);
  return { body: m[2] ? body : body.map((l) => l.replace(/\\([\\$`])/g, "$1")), end };
}

/** A variable whose name says it holds an engine's program (`VLLM_BIN`, `LLAMA_SERVER_BIN`), set by an env file. */
export const ENGINE_BIN_NAME = /^(VLLM|SGLANG|LLAMA_SERVER|LLAMA_CPP_SERVER)_?(BIN|BINARY|EXE|EXECUTABLE|CMD)$/i;

/** The words `for NAME in WORDS; do` gives NAME (continued lines joined, quotes removed), in order; [] for no loop. */
export function loopValues(text: string, name: string): string[] {
  const m = new RegExp(`^\\s*for\\s+${name}\\s+in\\s+((?:\\\\\\n|[^\\n;])*)`, "m").exec(text);
  if (!m) return [];
  return m[1]!
    .replace(/\\\n/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^["']|["']$/g, ""));
}

/** A line that brings a compose stack up (`docker compose up -d`, `podman-compose -f x.yml up`), not in a comment. */
export const COMPOSE_UP = /^[^#\n]*\b(docker|podman)[ -]compose\b[^\n#]*\sup\b/m;

/** The text of the function `name` the lines define (`name() {` ... the next line that is `}`), or null. */
export function functionText(lines: readonly string[], name: string): string | null {
  if (!/^[\w-]+$/.test(name)) return null;
  const start = lines.findIndex((l) => new RegExp(`^\\s*(function\\s+)?${name}\\s*(\\(\\s*\\))?\\s*\\{`).test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, j) => j > start && /^\s*\}\s*$/.test(l));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}
