// Groups lexer tokens into simple commands, the way bash would run them: control keywords
// (if/then/for/while/case/function/{ }) are structure, the commands inside their bodies are still
// commands. "${ARGS[@]}" is expanded from an earlier ARGS=( ... ) so engine flags built in an array
// reach the podman run that uses them. Commands inside $( ... ) are parsed too.
import type { Command, Word } from "./model.js";
import { lex, type LexWord, type Token } from "./lexer.js";
import { applyDefaults, assign, resolveWord, type Env } from "./resolve.js";
import { CaseArms } from "./case-arms.js";
import { DefaultPath } from "./if-arms.js";
import { conditionalEcho } from "./echo-sub.js";
import { StringVars } from "./string-vars.js";
import { ENGINE_BIN_NAME } from "./words.js";
import {
  echoedWords,
  forwardedRuntime,
  forwardsAll,
  anyKnownArguments,
  removesContainer,
  knownArguments,
  type Functions,
} from "./function-calls.js";

export interface GroupState {
  env: Env;
  arrays: Map<string, Word[]>;
  /** string variables whose value is known, split into words with the line each piece was assigned on,
   *  so `OPTS+=" --x y"` ... `vllm serve $OPTS` reaches the engine argv (bash splits an unquoted expansion) */
  strings: Map<string, Word[]>;
  /** VAR=value with no command after it, and export/declare/local/readonly NAME=value */
  assignments: { name: string; value: string; line: number }[];
  commands: Command[];
  lines: string[];
  firstLine: number;
  /** each shell function's name and the commands of its body */
  functionBodies?: { name: string; commands: Command[] }[];
}

const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "{",
  "}",
  "!",
  "time",
  "in",
]);
const OPENERS = new Set(["if", "case", "while", "until", "for", "select"]);
const CLOSERS = new Set(["fi", "esac", "done"]);
const SEPARATORS = new Set([";", "\n", "&&", "||", "&", ";;", ";&", ";;&", ")"]);
const DECLARERS = new Set(["export", "declare", "typeset", "local", "readonly"]);

interface Draft {
  words: Word[];
  /** where "$@" stood in words (for `set -- "$@" ...`), or -1 */
  positionalAt: number;
  assignments: { name: string; value: string; line: number }[];
  redirects: { op: string; target: string }[];
  line: number;
  endLine: number;
  pipedFrom: Command | null;
}

export function groupCommands(text: string, state: GroupState, firstLine: number): void {
  new Grouper(lex(text, firstLine), state).run();
}

/**
 * A script's commands in line order, and the state grouping them left (variables, arrays, strings, assignments,
 * function bodies). CRLF is read as LF (same lines): preflight.bash-syntax fails such a file; the rest still read it.
 * `positional`: the words "$@" holds.
 */
export function scriptCommands(
  crlfText: string,
  firstLine = 1,
  positional: readonly Word[] = [],
): { text: string; state: GroupState } {
  const text = crlfText.includes("\r\n") ? crlfText.replace(/\r\n/g, "\n") : crlfText;
  const state: GroupState = {
    env: new Map(),
    arrays: new Map(positional.length ? [["@", [...positional]]] : []),
    strings: new Map(),
    assignments: [],
    commands: [],
    lines: text.split("\n"),
    firstLine,
  };
  groupCommands(text, state, firstLine);
  state.commands.sort((a, b) => a.line - b.line);
  return { text, state };
}

class Grouper {
  private i = 0;
  private draft: Draft | null = null;
  private pipedFrom: Command | null = null;
  private caseDepth = 0;
  /** which arm of each open case runs by default: assignments in the others do not set the value */
  private readonly arms = new CaseArms();
  private readonly path = new DefaultPath();
  private inPattern = false;
  /** depth of if/case/loop bodies: an array appended there is only sometimes in the argv */
  private conditional = 0;
  private fnName: string | null = null;
  private fnOpen: { name: string; start: number; startToken: number; braces: number; conditional: number } | null =
    null;
  private braces = 0;
  private readonly conditionalOf = new WeakMap<Command, number>();

  constructor(
    private readonly tokens: Token[],
    private readonly s: GroupState,
    private readonly fns: Functions = {
      printed: new Map(),
      forwarders: new Map(),
      bodies: new Map(),
      following: new Set(),
    },
  ) {
    this.vars = new StringVars(s, fns.printed, (w) => this.plain(w));
  }

  private readonly vars: StringVars;
  /** lower-case variables set so far only where the defaults do not reach */
  private readonly unsetByDefault = new Set<string>();

  run(): void {
    while (this.i < this.tokens.length) this.step(this.tokens[this.i++]!);
    this.finish(false);
  }

  private step(t: Token): void {
    if (this.inPattern) {
      this.pattern(t);
      return;
    }
    if (t.kind === "op") {
      this.op(t.op);
      return;
    }
    if (t.kind === "redirect") {
      const d = this.open(t.line);
      d.redirects.push({ op: t.op, target: t.target });
      d.endLine = Math.max(d.endLine, t.line);
      return;
    }
    if (t.kind === "array") {
      this.array(t);
      return;
    }
    this.word(t.word);
  }

  private pattern(t: Token): void {
    if (t.kind === "word" && t.word.text === "esac") {
      // the case's last arm ended with `;;`: its esac closes the case as the one after a command would
      this.caseDepth--;
      this.conditional = Math.max(0, this.conditional - 1);
      this.inPattern = false;
      this.arms.close();
      return;
    }
    if (t.kind === "word") this.arms.pattern(t.word.text);
    if (t.kind === "op" && t.op === ")") {
      this.inPattern = false;
      this.arms.armStarts();
    }
  }

  private op(op: string): void {
    if (op === "(") return; // subshell or case pattern opener: structure only
    if (op === "|" || op === "|&") {
      const cmd = this.finish(true);
      if (cmd && op === "|&") cmd.redirects.push({ op: "2>&1", target: "&1" });
      this.pipedFrom = cmd;
      return;
    }
    if (op === "&&" || op === "||") {
      this.path.chain(op, this.finish(false), this.testEnv());
      return;
    }
    if (SEPARATORS.has(op)) {
      this.finish(false);
      this.path.separator();
      if (op.startsWith(";;") || op === ";&") this.inPattern = this.caseDepth > 0;
    }
  }

  private array(t: Extract<Token, { kind: "array" }>): void {
    // `BASE=(--gpus all "${ENVS[@]}")`: an array spliced into another one brings its own words
    // `CMD+=($EXTRA)`: an unquoted string splits into the array's words, as bash does
    const words = t.words
      .flatMap((w) =>
        w.arrayRef && this.s.arrays.has(w.arrayRef)
          ? this.s.arrays.get(w.arrayRef)!.slice(w.arrayFrom ?? 0)
          : (this.vars.split(w, false) ?? [this.plain(w)]),
      )
      .map((w) => this.path.word(w, this.conditional > 0))
      // (`case "${X:-}" in 1|true) ARGS+=(--flag) ;; esac`: an arm the defaults skip adds words off by default)
      .map((w) => (this.arms.skipping ? { ...w, offDefault: true } : w));
    const prev = t.append ? (this.s.arrays.get(t.name) ?? []) : [];
    // (`[[ $X == 1 ]] && ARGS=()` with X off by default: the array keeps its words, as a string variable does)
    const skipped = (this.arms.skipping || this.path.off) && !t.append && this.s.arrays.has(t.name);
    // `if ...; then F=(--trust-remote-code); else F=(); fi`: the empty alternative does not erase the other's words
    const emptied = !t.append && words.length === 0 && this.conditional > 0 && this.s.arrays.get(t.name)?.length;
    // `if [[ $E == true ]]; then F=(--is-embedding ...); else F=(--port 1); fi` with E the caller's: either branch may
    // run, so the array keeps the earlier branch's words beside the new ones (each optional), not only the last set
    const earlier = this.s.arrays.get(t.name) ?? [];
    const either =
      !t.append && this.path.undecidedAlternative && earlier.length > 0 && earlier.every((w) => w.optional);
    const kept = either ? earlier.filter((e) => !words.some((w) => w.text === e.text && w.line === e.line)) : prev;
    if (!emptied && !skipped) this.s.arrays.set(t.name, [...kept, ...words]);
    const d = this.open(t.line);
    d.endLine = Math.max(d.endLine, ...t.words.map((w) => w.line), t.line);
    if (d.words.length === 0)
      d.assignments.push({ name: t.name, value: words.map((w) => w.text).join(" "), line: t.line });
  }

  private word(w: LexWord): void {
    const atStart = !this.draft || (this.draft.words.length === 0 && this.draft.assignments.length === 0);
    if (atStart && this.structural(w)) return;
    this.substitutions(w);
    applyDefaults(w, this.s.env);
    const d = this.open(w.line);
    d.endLine = Math.max(d.endLine, w.line + (w.text.match(/\n/g)?.length ?? 0));
    if (w.assignment && d.words.length === 0) {
      const resolved = resolveWord(w, this.s.env);
      // (`_BIN=${LLAMA_SERVER_BIN:-""}`: the program comes from outside; empty would drop the command's first word)
      const fromOutside = /^\$\{(\w+):?-(""|'')?\}$/.exec(w.assignment.value);
      const value =
        fromOutside && ENGINE_BIN_NAME.test(fromOutside[1]!)
          ? undefined
          : resolved?.slice(w.text.length - w.assignment.value.length);
      this.assign(w.assignment.name, value, w.assignment.append);
      this.remember(w.assignment.name, value, w.line, w.assignment.append, w.assignment.value);
      d.assignments.push({ name: w.assignment.name, value: w.assignment.value, line: w.line });
      return;
    }
    if (w.arrayRef === "@" && d.positionalAt < 0) d.positionalAt = d.words.length;
    if (w.arrayRef && this.s.arrays.has(w.arrayRef)) {
      d.words.push(
        ...this.s.arrays
          .get(w.arrayRef)!
          .slice(w.arrayFrom ?? 0)
          .map((x) => ({ ...x })),
      );
      return;
    }
    const printed = this.functionOutput(w);
    if (printed) {
      d.words.push(...printed.map((x) => ({ ...x, optional: x.optional || w.optional })));
      return;
    }
    const echoed = conditionalEcho(w, this.s.env);
    if (echoed) {
      d.words.push(...echoed.map((x) => this.plain(x)));
      return;
    }
    const pieces = this.vars.split(w, d.words[0]?.text === "eval");
    if (pieces) {
      d.words.push(...pieces);
      return;
    }
    const first = d.words[0]?.text;
    if (first && DECLARERS.has(first) && w.assignment) {
      const resolved = resolveWord(w, this.s.env);
      const value = resolved?.slice(w.text.length - w.assignment.value.length);
      this.assign(w.assignment.name, value, w.assignment.append);
      this.remember(w.assignment.name, value, w.line, w.assignment.append, w.assignment.value);
      this.s.assignments.push({ name: w.assignment.name, value: w.assignment.value, line: w.line });
    }
    const flag = this.vars.heldFlag(w);
    if (flag) {
      d.words.push(...flag);
      return;
    }
    const held = this.vars.heldWords(w);
    d.words.push(held ? { ...this.plain(w), held } : this.plain(w));
  }

  /** A variable set where the defaults do not reach (a known-false if-branch, `false-test && X=`) keeps its value. */
  private assign(name: string, value: string | undefined, append: boolean): void {
    const off = this.path.off || this.arms.skipping;
    // (a case arm the defaults skip, `--multi) MULTI=true`, leaves the value set before it too)
    if (off && !append && this.s.env.has(name)) return;
    // a lower-case name (POSIX leaves those to applications, not the environment) first set only off the default
    // path (`--extra=*) extra=...` in an option loop) is unset when nobody passes anything: tests read it empty
    if (off && !this.s.env.has(name) && /^[a-z_][a-z0-9_]*$/.test(name)) this.unsetByDefault.add(name);
    else if (!off) this.unsetByDefault.delete(name);
    assign(this.s.env, name, value, append);
  }

  /** The values tests are judged with: the script's, its off-path-only lower-case variables empty. */
  private testEnv(): ReadonlyMap<string, string | null> {
    if (!this.unsetByDefault.size) return this.s.env;
    const env = new Map(this.s.env);
    for (const name of this.unsetByDefault) env.set(name, "");
    return env;
  }

  /** Keeps a string variable's words (with the line they were assigned on) while its value is knowable. */
  private remember(name: string, value: string | undefined, line: number, append: boolean, raw: string): void {
    // an arm of a case that does not run by default sets an alternative, not the value
    if (this.arms.skipping && (append || this.s.strings.has(name))) return;
    const prev = this.s.strings.get(name);
    // `EXTRA="${@:2}"` (or `"$@"`): the positional parameters' words, when the caller's are known (a unit's ExecStart)
    const slice = /^"?\$(?:@|\{@(?::(\d+))?\})"?$/.exec(raw);
    const passed = slice && !append ? this.s.arrays.get("@") : undefined;
    if (passed) {
      this.s.strings.set(
        name,
        passed.slice(Math.max(0, Number(slice![1] ?? 1) - 1)).map((w) => ({ ...w })),
      );
      return;
    }
    this.vars.set(name, value, line, append, raw, this.conditional > 0);
    // words set where the defaults do not reach (an if-branch, a `false-test && ...`) are off by default
    const now = this.s.strings.get(name);
    if (!now) return;
    const marked = this.path.mark(prev, now);
    // `F=--x; if [ "$OFF" = 1 ]; then F=--no-x; fi`: the default value stays; the branch's words ride along, off
    const replaced = this.path.off && !append && prev?.length && marked.every((w) => w.offDefault);
    this.s.strings.set(name, replaced ? [...prev, ...marked] : marked);
  }

  /**
   * A `case` word's value by default. `case "$1"` in an option loop (`while [ $# -gt 0 ]`) matches no option: with
   * nothing passed, the loop never runs, so no arm's assignment is the default.
   */
  private caseValue(w: LexWord): string | undefined {
    const value = resolveWord(w, this.s.env);
    const above = this.s.lines.slice(Math.max(0, w.line - this.s.firstLine - 3), w.line - this.s.firstLine).join("\n");
    // `for arg in "$@"; do case $arg in`: the same, the loop runs once per argument passed
    const looped = /^"?\$\{?([A-Za-z_]\w*)\}?"?$/.exec(w.text)?.[1];
    if (looped && new RegExp(`\\bfor\\s+${looped}(?:\\s+in\\s+"\\$@"|\\s*;?\\s*(?:do\\b|$))`, "m").test(above))
      return "";
    if (value !== undefined || !/^"?\$\{?1\}?"?$/.test(w.text)) return value;
    return /\bwhile\s+(?:\[\[?\s*"?\$#"?\s+-(?:gt|ne)\s+0|\(\(\s*"?\$#)/.test(above) ? "" : undefined;
  }

  /** Control keywords and function headers: true when the token was structure, not a command word. */
  private structural(w: LexWord): boolean {
    if (w.parts.length === 1 && w.parts[0]!.kind === "lit")
      this.path.keyword(w.text, this.s.lines[w.line - this.s.firstLine] ?? "", this.testEnv());
    if (OPENERS.has(w.text)) this.conditional++;
    if (CLOSERS.has(w.text)) this.conditional = Math.max(0, this.conditional - 1);
    const next = this.tokens[this.i];
    const after = this.tokens[this.i + 1];
    if (next?.kind === "op" && next.op === "(" && after?.kind === "op" && after.op === ")") {
      this.i += 2; // name() { ... }
      this.fnName = w.text;
      return true;
    }
    if (w.text === "{" || w.text === "}") this.brace(w.text);
    switch (w.text) {
      case "for":
      case "select":
        this.loopVariable();
        this.skipUntil((t) => t.kind === "op" && (t.op === ";" || t.op === "\n"));
        return true;
      case "case": {
        const word = this.tokens[this.i];
        this.arms.open(word?.kind === "word" ? this.caseValue(word.word) : undefined);
        this.skipUntil((t) => t.kind === "word" && t.word.text === "in");
        this.caseDepth++;
        this.inPattern = true;
        return true;
      }
      case "esac":
        this.caseDepth = Math.max(0, this.caseDepth - 1);
        this.arms.close();
        return true;
      case "function": {
        const name = this.tokens[this.i];
        this.fnName = name?.kind === "word" ? name.word.text : null;
        this.i++;
        if (this.tokens[this.i]?.kind === "op" && (this.tokens[this.i] as { op: string }).op === "(") this.i += 2;
        return true;
      }
      default:
        return KEYWORDS.has(w.text) && w.parts.length === 1 && w.parts[0]!.kind === "lit";
    }
  }

  /** A function body's braces: at its closing one, what its echo lines print is known. */
  private brace(b: "{" | "}"): void {
    if (b === "{") {
      this.braces++;
      if (this.fnName)
        this.fnOpen = {
          name: this.fnName,
          start: this.s.commands.length,
          startToken: this.i,
          braces: this.braces,
          conditional: this.conditional,
        };
      this.fnName = null;
      return;
    }
    const f = this.fnOpen;
    if (f && f.braces === this.braces) {
      this.finish(false);
      const body = this.s.commands.slice(f.start);
      const depth = (c: Command) => this.conditionalOf.get(c) ?? 0;
      const echoed = echoedWords(body, depth, f.conditional, this.s.strings);
      this.fns.printed.set(f.name, echoed);
      this.fns.bodies.set(f.name, this.tokens.slice(f.startToken, this.i - 1));
      (this.s.functionBodies ??= []).push({ name: f.name, commands: body });
      const runtime = forwardedRuntime(body);
      if (runtime) this.fns.forwarders.set(f.name, runtime);
      this.fnOpen = null;
    }
    this.braces = Math.max(0, this.braces - 1);
  }

  /** `$(name)` unquoted, name a function defined above: the words its echo lines print (bash splits them). */
  private functionOutput(w: LexWord): Word[] | null {
    const p = w.parts.length === 1 ? w.parts[0]! : null;
    if (p?.kind !== "sub" || w.text.startsWith('"')) return null;
    return this.fns.printed.get(p.body.trim()) ?? null;
  }

  /**
   * `for c in "$NAME"; do`: over one word the loop variable holds that word (so `docker rm -f "$c"` names it);
   * over several it holds each in turn, unknown here.
   */
  private loopVariable(): void {
    const name = this.tokens[this.i];
    if (name?.kind !== "word" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.word.text)) return;
    const items: LexWord[] = [];
    for (let j = this.i + 1; j < this.tokens.length; j++) {
      const t = this.tokens[j]!;
      if (t.kind !== "word") break;
      if (j > this.i + 1 || t.word.text !== "in") items.push(t.word);
    }
    assign(this.s.env, name.word.text, items.length === 1 ? resolveWord(items[0]!, this.s.env) : undefined, false);
  }

  private skipUntil(stop: (t: Token) => boolean): void {
    while (this.i < this.tokens.length && !stop(this.tokens[this.i]!)) this.i++;
    this.i++;
  }

  private substitutions(w: LexWord): void {
    for (const p of w.parts) {
      if (p.kind === "sub" && p.body.trim()) groupCommands(p.body, this.s, p.line);
    }
  }

  private plain(w: LexWord): Word {
    const resolved = resolveWord(w, this.s.env);
    const out: Word = { text: w.text, line: w.line, optional: w.optional, dynamic: w.dynamic };
    if (w.dynamic && resolved !== undefined) out.resolved = resolved;
    return out;
  }

  private open(line: number): Draft {
    this.draft ??= {
      words: [],
      positionalAt: -1,
      assignments: [],
      redirects: [],
      line,
      endLine: line,
      pipedFrom: this.pipedFrom,
    };
    this.pipedFrom = null;
    return this.draft;
  }

  private finish(piped: boolean): Command | null {
    const d = this.draft;
    this.draft = null;
    if (!d || (d.words.length === 0 && d.assignments.length === 0 && d.redirects.length === 0)) return null;
    if (d.words.length === 0 && !piped) this.s.assignments.push(...d.assignments);
    const first = this.s.firstLine;
    const fwd = d.words[0] ? this.fns.forwarders.get(d.words[0].text) : undefined;
    // `rdocker run ...` is a docker run (on whichever host the function reaches)
    if (fwd) d.words[0] = { ...d.words[0]!, text: fwd, dynamic: false };
    const source = this.s.lines.slice(d.line - first, d.endLine - first + 1).join("\n");
    const cmd: Command = {
      words: d.words,
      assignments: d.assignments,
      line: d.line,
      endLine: d.endLine,
      source,
      redirects: d.redirects,
      pipeTo: null,
    };
    if (d.pipedFrom) d.pipedFrom.pipeTo = cmd;
    this.s.commands.push(cmd);
    this.conditionalOf.set(cmd, this.conditional);
    if (d.words[0]?.text === "set" && d.words[1]?.text === "--") this.setPositional(d);
    this.follow(d.words);
    return cmd;
  }

  /**
   * `start "$cmd"`, start a function defined above and cmd a known command string: the function's body is read
   * again with its positional parameters bound, so the `$cmd` it runs after `local cmd="$1"` is that command
   * (once per function: a second call adds the same launches at the same lines).
   */
  private follow(words: readonly Word[]): void {
    const name = words[0]?.text;
    const body = name ? this.fns.bodies.get(name) : undefined;
    if (!name || !body) return;
    // `cleanup_container $API_NAME` into a body that runs `docker rm $1`: even one known word is followed
    const args = removesContainer(body)
      ? anyKnownArguments(words.slice(1), this.s.strings)
      : knownArguments(words.slice(1), this.s.strings);
    // `run_server --jinja --port 8080` into a body that runs `llama-server "$@"`: the call's flags are its "$@"
    const all = words.slice(1).some((w) => /^-/.test(w.text)) && forwardsAll(body) ? words.slice(1) : null;
    // once per function and arguments (a second call with the same adds the same commands at the same lines); a
    // call that hands its own flags on is a launch of its own wherever it is written (presets calling one launcher)
    const call = `${name} ${words
      .slice(1)
      .map((w) => (all ? `${w.text}@${w.line}` : w.text))
      .join(" ")}`;
    if ((!args && !all) || this.fns.following.has(name) || this.fns.following.has(call)) return;
    this.fns.following.add(call);
    this.fns.following.add(name); // (while its body is read: no recursion)
    const saved = [...(args?.keys() ?? [])].map((k) => [k, this.s.strings.get(k), this.s.env.get(k)] as const);
    const savedAll = this.s.arrays.get("@");
    for (const [k, v] of args ?? []) {
      this.s.strings.set(k, v);
      // a word whose value is known resolves `$1` (and `local N=$1`) in the body
      if (v.length === 1 && (v[0]!.resolved !== undefined || !v[0]!.dynamic))
        assign(this.s.env, k, v[0]!.resolved ?? v[0]!.text, false);
    }
    if (all) this.s.arrays.set("@", all);
    new Grouper(body, this.s, this.fns).run();
    this.fns.following.delete(name);
    for (const [k, v, e] of saved) {
      if (v) this.s.strings.set(k, v);
      else this.s.strings.delete(k);
      assign(this.s.env, k, e ?? undefined, false);
    }
    if (!all) return;
    if (savedAll) this.s.arrays.set("@", savedAll);
    else this.s.arrays.delete("@");
  }

  /**
   * `set -- "$@" --port 8000` appends to the positional parameters, `set -- a b` replaces them: kept as the
   * array "@", so a later `exec vllm serve "$@"` has the flags in its argv (the caller's own arguments stay unknown).
   */
  private setPositional(d: Draft): void {
    const keeps = d.positionalAt === 2;
    const prev = keeps ? this.s.arrays.get("@") : undefined;
    // "$@" stood at 2: the known parameters were spliced in there, or the word stayed as written
    const added = d.words
      .slice(keeps ? 2 + (prev ? prev.length : 1) : 2)
      .map((w) => this.path.word(w, this.conditional > 0));
    this.s.arrays.set("@", [...(prev ?? []), ...added]);
  }
}
