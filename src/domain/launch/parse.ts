// parseServeScript: the serve script as bash would run it: its commands, its container runs, and the
// engine it launches (see Engine in model.ts). Pure; never throws.
import type { Command, Engine, PodmanRun, Runtime, ServeScript, Word } from "./model.js";
import { scriptCommands } from "./group.js";
import { readFlags } from "./flags.js";
import { readPodmanRun } from "./podman.js";
import { parseCompose } from "./compose.js";
import { containerEngine, directEngine, printsAndExits, type EngineHints, type Found } from "./engine.js";
import { assignedSource, COMPOSE_UP, heredocAt, loopValues, runsSubcommand } from "./words.js";
import { computedProgram, namedBinary, probedProgram } from "./engine-program.js";
import { placeFlags } from "./place.js";
import { builtEngine } from "./built-engine.js";
import { mountedEngine } from "./compose-mount.js";
import { inlinePythonKind } from "./python-launcher.js";
import { libraryCallEngine } from "./library-call.js";
import { defaultBranchFirst } from "./default-branch.js";
import { branchLine, roleLaunches } from "./role-branches.js";
import { called, reachable } from "./blocked.js";

export interface ParseOptions {
  /** the line number of the text's first line (a unit's ExecStart= read as a script) */
  firstLine?: number;
  /** what runs the file's commands: a shell ("none", the default) or systemd (a unit's Exec*= lines) */
  runtime?: Runtime;
  /** read the engine of a launcher the file writes with a heredoc when it runs none itself (default true) */
  heredocs?: boolean;
  /** the positional parameters ("$@") the text starts with: `sh -c TEXT $0 ARGS...` gives it ARGS */
  positional?: Word[];
  /** assignments of the text around this one (a heredoc's variables are the writing script's) */
  outer?: readonly { name: string; value: string; line: number }[];
}

export function parseServeScript(crlfText: string, options: ParseOptions = {}): ServeScript {
  // CRLF is read as LF here (same lines): preflight.bash-syntax fails it; the other checks still see the argv
  const firstLine = options.firstLine ?? 1;
  const { text, state } = scriptCommands(crlfText, firstLine, options.positional);
  const { lines, commands } = state;
  const podmanRuns = commands.flatMap((c) => {
    for (const prog of ["podman", "docker"] as const) {
      for (const sub of ["run", "create"] as const) {
        const args = runsSubcommand(c, prog, sub);
        if (args) return [readPodmanRun(c, args, prog, sub === "create")];
      }
    }
    return [];
  });
  const runtime = options.runtime ?? "none";
  const nested: ServeScript[] = [];
  const hints = engineHints(text, state.assignments, runtime, nested, firstLine, options.outer);
  const defined = new Set((state.functionBodies ?? []).map((f) => f.name));
  const all = findEngines(commands, podmanRuns, hints, runtime, (words) =>
    libraryCallEngine(words, hints, text, defined),
  );
  const launches = called(reachable(all, commands, lines, firstLine), state.functionBodies, text);
  const found = defaultBranchFirst(launches, lines, firstLine, state.env);
  for (const e of found) onWrittenLines(e, lines, firstLine);
  const written =
    found.length || options.heredocs === false
      ? []
      : heredocEngines(text, firstLine, runtime, nested, state.assignments);
  const engine = found[0] ?? written[0] ?? null;
  // what a `bash -c "..."` string runs is checked like the file's own commands
  for (const n of nested) {
    commands.push(...n.commands);
    podmanRuns.push(...n.podmanRuns);
  }
  const out: ServeScript = { text, lines, commands, assignments: state.assignments, podmanRuns, engine };
  // (two heredocs a launcher sends one after another, one per node, are two engines)
  const more = found.length ? separateLaunches(found, lines, firstLine) : written;
  if (more.length > 1) out.engines = more;
  const roles = roleLaunches(found, lines, firstLine);
  if (roles.length > 1) out.roles = roles;
  return out;
}

/**
 * `docker run IMG bash -c "\⏎ python -m vllm... \⏎ --model m \⏎ ..."`: the shell removes each backslash-newline
 * inside the quotes, so the string's flags were read on its first line; put them back where they are written.
 */
function onWrittenLines(e: Engine, lines: readonly string[], firstLine: number): void {
  const at = e.flags[0]?.line;
  if (at === undefined || e.flags.some((f) => f.line !== at)) return;
  const all = [...Array<string>(firstLine - 1).fill(""), ...lines];
  // the string runs on while its lines end in a backslash (the command's own end is its last word's first line)
  let end = at;
  while (end < all.length && /\\\s*$/.test(all[end - 1]!)) end++;
  if (end > at) placeFlags(e.flags, all, end);
}

/**
 * The engines a script starts one after another: the best launch first, then every other launch that is not in
 * another branch of the same if/case (an `else`, `elif` or `;;` between two launches makes them alternatives, unless
 * they start different engines) and is not a `--rm` helper with no engine flag.
 */
function separateLaunches(ranked: readonly Engine[], lines: readonly string[], firstLine: number): Engine[] {
  const branchBetween = (a: Engine, b: Engine) => {
    const [x, y] = a.command.line < b.command.line ? [a, b] : [b, a];
    return lines.slice(x.command.endLine - firstLine + 1, y.command.line - firstLine).some(branchLine);
  };
  // alternatives that start different engines (`case "${1:-}" in sglang) ...;; vllm) ...;;`, `if [ "$ENGINE" = vllm
  // ]; then ... else llama-server ...`) are each a launch of their own engine, checked apart
  const kept: Engine[] = [];
  for (const e of ranked) {
    if (e.podmanRun?.rm && e.flags.length === 0) continue;
    const apart = (k: Engine) => branchBetween(k, e) && k.kind === e.kind;
    if (kept.some((k) => k.command === e.command || sameLaunch(k, e) || apart(k))) continue;
    kept.push(e);
  }
  return kept;
}

/**
 * One launch: the same command line given the same words (a function that runs the engine with "$@" is a launch per
 * call that hands it other flags: the flags' lines tell them apart).
 */
function sameLaunch(a: Engine, b: Engine): boolean {
  const at = (e: Engine) => e.command.words.map((w) => w.line).join(",");
  return a.command.line === b.command.line && at(a) === at(b);
}

/**
 * A script that writes the real launcher with a heredoc (`cat > /opt/serve.sh <<'EOF' ... EOF`, a unit written to
 * /etc/systemd/system, `cmd=$(cat <<EOF ... EOF)`): when the file runs no engine itself, the engines the heredocs'
 * bodies start, read at the bodies' own lines (a unit body by its ExecStart=). Heredocs in two branches of one if or
 * case of the writing script are alternatives: the first is kept.
 */
function heredocEngines(
  text: string,
  firstLine: number,
  runtime: Runtime,
  nested: ServeScript[],
  outer: readonly { name: string; value: string; line: number }[],
): Engine[] {
  const lines = text.split("\n");
  const out: Engine[] = [];
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!/<</.test(lines[i]!) || !/vllm|sglang|llama/i.test(lines.slice(i + 1, i + 400).join("\n"))) continue;
    // `cat <<'EOF'` to the terminal (a usage text) writes no launcher: its body runs nowhere
    if (PRINTED_HEREDOC.test(lines[i]!)) {
      i = heredocAt(lines, i)?.end ?? i;
      continue;
    }
    const doc = heredocAt(lines, i);
    if (!doc) continue;
    const { body, end } = doc;
    const at = firstLine + i + 1;
    // a compose file the script writes and then brings up (`cat > ~/stack/docker-compose.yml <<'EOF'` ... `docker
    // compose up -d`): its engine services, at the heredoc's lines
    if (/^services\s*:/m.test(body.join("\n")) && COMPOSE_UP.test(text)) {
      const yaml = "\n".repeat(at - 1) + body.join("\n");
      for (const svc of parseCompose(yaml) ?? []) out.push(...runEngines(svc.run, yaml));
      i = end;
      continue;
    }
    const unit = body.some((l) => /^\s*\[Service\]\s*$/.test(l));
    const bodyText = unit ? execStartLines(body).join("\n") : body.join("\n");
    // an unquoted heredoc's `$LLAMA_BIN` is the writing script's value
    const inner = parseServeScript(bodyText, { firstLine: at, runtime: unit ? "systemd" : runtime, outer });
    if (inner.engine) {
      const alternative = out.length > 0 && lines.slice(lastEnd + 1, i).some(branchLine);
      if (!alternative) {
        nested.push(inner);
        out.push(inner.engine);
      }
      lastEnd = end;
    }
    i = end;
  }
  return out;
}

const PRINTED_HEREDOC = /^\s*cat\s+<<-?\s*(['"]?)\w+\1\s*(1?>&2)?\s*$/;

/** A unit body's ExecStart= line and its continuation lines, the other lines blank (so lines keep their numbers). */
function execStartLines(body: readonly string[]): string[] {
  let inExec = false;
  return body.map((l) => {
    const start = /^\s*ExecStart\s*=/.test(l);
    const keep = start || inExec;
    inExec = keep && /\\\s*$/.test(l);
    return start ? l.replace(/^\s*ExecStart\s*=\s*[-@:+!]*/, "") : keep ? l : "";
  });
}

/**
 * The program a dynamic word names: `$VLLM_BIN` -> its assignment, `${PY:-python3}` -> the default. The newest
 * assignment decides, past those of a positional parameter (`--bin) BIN="$2"` in an option loop).
 */
function guesser(assignments: readonly { name: string; value: string }[], script = "") {
  const unquote = (t: string) => t.replace(/^["']|["']$/g, "");
  const positional = (t: string) => /^\$\{?[0-9@*]\}?$/.test(unquote(t));
  return (text: string): string => {
    let t = text;
    for (let depth = 0; depth < 4; depth++) {
      const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?[-=]([^}]*))?\}?$/.exec(unquote(t));
      if (!m) break;
      // (`X=${X:-""}` names no program: the caller's X does)
      const self = (v: string) => new RegExp(`^\\$\\{?${m[1]}\\b`).test(unquote(v));
      // (`BIN=""` before a probe loop sets it: the empty start names no program)
      // (`BIN="${BIN:-$HOME/llama.cpp/build/bin/llama-server}"`: the caller's BIN, else the default it gives)
      const ownDefault = (v: string) => {
        const d = new RegExp(`^\\$\\{${m[1]}:?[-=]([^}]+)\\}$`).exec(unquote(v))?.[1];
        return d && unquote(d) !== "" ? d : undefined;
      };
      const values = assignments
        .filter((a) => a.name === m[1] && !positional(a.value) && unquote(a.value) !== "")
        .flatMap((a) => (!self(a.value) ? [a.value] : ownDefault(a.value) ? [ownDefault(a.value)!] : []));
      // `for path in "$DIR/build/bin/llama-server" /usr/local/bin/llama-server; do BIN="$path"`: the first it tries
      if (!values.length) values.push(...loopValues(script, m[1]!).slice(0, 1));
      // `BIN=$(command -v llama-server)`, else `$(command -v llama-cli)` in an elif: the program probed first is the
      // script's choice wherever it is installed
      const probed = values
        .map((v) => probedProgram(unquote(v)) ?? computedProgram(unquote(v), script))
        .find((x) => x !== undefined);
      // (`_BIN=${LLAMA_SERVER_BIN:-""}`: an empty default says the program comes from outside, and its name says which)
      const dflt = m[2] !== undefined && unquote(m[2]) === "" ? undefined : m[2];
      const next = dflt ?? probed ?? values.at(-1) ?? namedBinary(m[1]!) ?? m[2];
      if (next === undefined) break;
      t = unquote(next);
    }
    return unquote(t);
  };
}

function engineHints(
  text: string,
  assignments: readonly { name: string; value: string; line: number }[],
  runtime: Runtime,
  nested: ServeScript[],
  firstLine: number,
  outer: readonly { name: string; value: string; line: number }[] = [],
): EngineHints {
  return {
    source: (name) => {
      // `CMD="$CMD --flag"` appends to an earlier value, `cmd="nohup ${cmd} &"` wraps it (often under a
      // condition): the command is the last assignment that does not use the variable itself
      const own = new RegExp(`\\$\\{?${name}\\b`);
      for (const a of assignments.filter((x) => x.name === name).reverse()) {
        const src =
          assignedSource(text, a.line - firstLine, name, a.line) ??
          capturedHeredoc(text, a.line - firstLine, name, a.line);
        if (src && !own.test(src.text)) return src;
      }
      return null;
    },
    guess: guesser([...outer, ...assignments], text),
    llama: /llama/i.test(text),
    nested: (inner: string, line: number, positional?: Word[]): Found | null => {
      const s = parseServeScript(inner, { firstLine: line, runtime, ...(positional ? { positional } : {}) });
      nested.push(s);
      const e = s.engine;
      const found = (x: Engine): Found => ({ kind: x.kind, args: x.args, run: x.podmanRun, runtime: x.runtime });
      return e ? { ...found(e), ...(s.roles ? { roles: s.roles.map(found) } : {}) } : null;
    },
  };
}

/** `cmd=$(cat <<EOF ... EOF)`: the heredoc's body is the variable's value, read at its own lines. */
function capturedHeredoc(
  text: string,
  index: number,
  name: string,
  line: number,
): { text: string; line: number } | null {
  const lines = text.split("\n");
  if (!new RegExp(`(^|[\\s;])${name}=["']?\\$\\(\\s*cat\\s*<<`).test(lines[index] ?? "")) return null;
  const doc = heredocAt(lines, index);
  return doc ? { text: doc.body.join("\n"), line: line + 1 } : null;
}

/** Every engine launch, best first (see the score below). */
function findEngines(
  commands: Command[],
  runs: PodmanRun[],
  hints: EngineHints,
  runtime: Runtime,
  viaLibrary: (words: Word[]) => Found | null,
): Engine[] {
  const candidates: Engine[] = [];
  const inRun = new Set<Command>();
  for (const r of runs) {
    inRun.add(r.command);
    const found = containerEngine(r, hints);
    if (found && !printsAndExits(found.args)) candidates.push(engineOf(found, r.runtime, r.command, r));
  }
  for (const c of commands) {
    if (inRun.has(c)) continue;
    const found = directEngine(c.words, hints) ?? viaLibrary(c.words) ?? inlineProgram(c.words);
    if (found && !printsAndExits(found.args)) candidates.push(engineOf(found, runtime, c, null));
  }
  // The engine is the run with the most engine flags; a `--rm` helper (a probe, a cache check) loses ties.
  const score = (c: Engine) => c.flags.length * 2 + (c.podmanRun?.rm && !isDetached(c.podmanRun) ? 0 : 1);
  // stable: of equal scores the earlier launch ranks first, as before
  return candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => score(b.c) - score(a.c) || a.i - b.i)
    .map((x) => x.c);
}

/** `python3 -c "...sys.argv = ['vllm', 'serve'] + sys.argv[1:]; main()" "$@"`: that engine, its flags the program's. */
function inlineProgram(words: readonly Word[]): Found | null {
  const kind = inlinePythonKind(words);
  return kind ? { kind, args: [], builtBy: "the inline `python -c` program" } : null;
}

function engineOf(found: Found, runtime: Runtime, command: Command, containerRun: PodmanRun | null): Engine {
  const { flags } = readFlags(found.args);
  const run = containerRun ?? found.run ?? null;
  const rt = containerRun ? containerRun.runtime : (found.runtime ?? runtime);
  return {
    kind: found.kind,
    runtime: rt,
    flags,
    args: found.args,
    source: run ? "podman" : "vllm",
    line: command.line,
    podmanRun: run,
    command: run?.command ?? command,
    ...(found.builtBy ? { builtBy: found.builtBy } : {}),
  };
}

function isDetached(run: PodmanRun): boolean {
  return run.options.some((o) => o.name === "--detach");
}

/** The engine a container run outside any script starts (a quadlet's generated podman run). */
export function runEngine(run: PodmanRun, fileText: string): Engine | null {
  return runEngines(run, fileText)[0] ?? null;
}

/** Every launch a container run starts: one, or each branch of a role switch in its `sh -c` script. */
export function runEngines(run: PodmanRun, fileText: string): Engine[] {
  const hints = engineHints(fileText, [], "none", [], 1);
  // a compose service built from the repository: its Dockerfile says what runs, when it settles it
  const built = run.build ? builtEngine(run, hints) : run.mounted ? mountedEngine(run) : undefined;
  // an inline Python launcher (`python3 -c` and a program that execs `vllm serve`): that engine, flags its own
  const inline = built === undefined ? inlinePythonKind(run.engineArgs) : null;
  const found = inline
    ? { kind: inline, args: [], builtBy: "the inline `python -c` program" }
    : built === undefined
      ? containerEngine(run, hints)
      : built;
  if (!found) return [];
  return (found.roles ?? [found]).map((f) => engineOf(f, run.runtime, run.command, run));
}

export { assignedSource } from "./words.js";
