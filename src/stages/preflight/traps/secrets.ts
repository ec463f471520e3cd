// secret-in-argv: tokens written literally into a command line, where `ps`, /proc/*/cmdline,
// `podman inspect` and the journal show them to anyone on the host.
import type { Command, Word } from "../../../domain/launch/model.js";
import { programOf, programWords } from "../../../domain/launch/words.js";
import { lexWords } from "../../../domain/launch/lexer.js";
import { normalizeFlagName } from "../../../domain/launch/contract.js";
import { allCommands, allRuns, lineOf } from "./lookups.js";
import { ANY_RUNTIME, type Source, type TrapContext, type TrapHit, type TrapRuleDef } from "./types.js";
import { TRAP_SECRET_ENV, TRAP_SECRET_FLAGS } from "../../../domain/redact/names.js";
import { TRAP_LITERAL_TOKEN } from "../../../domain/redact/shapes.js";

/** A switch or a count, never a credential (`-e HF_HUB_DISABLE_TOKEN=1`). */
const NOT_A_SECRET = /^(true|false|yes|no|on|off|[0-9]+)$/i;
const AUTH_HEADER =
  /^\s*(authorization|proxy-authorization|x-api-key|api-key|private-token)\s*:\s*(?:(?:bearer|token|basic)\s+)?(\S+)/i;

/**
 * Values that stand for "put your secret here" (a template, the OpenAI client's dummy key, vLLM's docs'
 * `token-abc123`), not a secret.
 */
const PLACEHOLDER =
  /^(<[^>]*>|(token-)?abc123|\{[^}]*\}|\[[^\]]*\]|empty|none|null|changeme|change[-_]me|replace[-_]?me|dummy|placeholder|secret|token|x{3,}|\*+|#+|\.\.\.|your[-_a-z]*|sk-x+|hf_x+|(my|your)[-_]?(api[-_]?)?(key|token|secret))$/i;

/** `dummy-token`, `your_hf_token_here`, `fake-key`: a value led by a word that says it is no real one. */
const PLACEHOLDER_LEAD =
  /^(dummy|fake|placeholder|example|sample|changeme|your|insert|replace|enter)([-_.][a-z0-9]+)+$/i;

/** `local-dev-key`, `dev-token`, `test-api-key`: a development default named as one (public in the file itself). */
const DEV_DEFAULT = /^(local[-_])?(dev|devel|development|test|testing|demo)[-_](api[-_])?(key|token|secret)$/i;

function isPlaceholder(value: string): boolean {
  const v = value.trim();
  // `sk-CHANGE-ME`, `hf_your_token`: a key's well-known prefix before the placeholder
  const bare = v.replace(/^(sk|hf|ghp|gsk|xai|pk|rk)[-_](?=.)/i, "");
  return (
    [v, bare].some((x) => PLACEHOLDER.test(x) || PLACEHOLDER_LEAD.test(x) || DEV_DEFAULT.test(x)) || INSTRUCTION.test(v)
  );
}

/** `Insert your token here`, `put your key here`: a sentence telling the reader what to write (no passphrase). */
const INSTRUCTION = /^(insert|enter|put|paste|add|replace|set|fill in|type)\s.*\b(your|here)\b/i;

/** `${VLLM_API_KEY:-local-vllm}`: the literal the file falls back to when nobody sets the variable, or undefined. */
function fallback(value: string | undefined, lines: readonly string[]): string | undefined {
  const d = value === undefined ? null : /^"?\$\{([A-Za-z_]\w*):?-([^$`{}"'\s]+)\}"?$/.exec(value);
  if (!d || !literal(d[2])) return undefined;
  // `${VLLM_API_KEY:?set it in .env}` elsewhere in the file: compose (or the shell) stops when it is unset, so the
  // fallback never runs
  const required = `\${${d[1]}:?`;
  return lines.some((l) => l.includes(required) || l.includes(`\${${d[1]}?`)) ? undefined : d[2];
}

/** A literal secret: not from $VAR, $(cat file) or an @file reference, and not a placeholder. */
function literal(value: string | undefined): value is string {
  return value !== undefined && value !== "" && !value.includes("$") && !value.startsWith("@") && !isPlaceholder(value);
}

/** A literal value of a secret-named variable. */
const secretValue = (name: string, value: string | undefined): value is string =>
  TRAP_SECRET_ENV.test(name) && !WHERE_IT_IS.test(name) && literal(value) && !NOT_A_SECRET.test(value);

/** `HF_TOKEN_PATH=/run/secrets/hf`, `API_KEY_FILE`, `TOKEN_SECRET_NAME`: where the secret is kept, not the secret. */
const WHERE_IT_IS = /_(PATH|FILE|DIR|NAME)$/i;

/** The evidence line with the secret blanked: a report must not leak what it warns about. */
function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join("<redacted>") : text;
}

/** At the flag's line (`--api-key` naming what leaks); the value's line too when it is written on the next. */
function hit(
  ctx: TrapContext,
  source: Source,
  word: Word,
  secret: string,
  what: string,
  fix: string,
  at = word,
): TrapHit {
  const lines = at.line < word.line ? [at.line, word.line] : [word.line];
  return {
    file: source.file,
    line: at.line,
    summary: `${what} is written literally into a command line`,
    evidence: lines.map((l) => redact(lineOf(ctx, source.file, l), secret)),
    fix,
  };
}

const FILE_FIX =
  'Read it at run time from a mode-600 file or the environment (e.g. --api-key "$(cat /etc/vllm/api-key)", curl -K FILE, podman --secret).';

function commandHits(ctx: TrapContext, source: Source, cmd: Command): TrapHit[] {
  const words = programWords(cmd.words);
  const prog = programOf(cmd);
  const out: TrapHit[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const eq = w.text.indexOf("=");
    const name = normalizeFlagName(eq > 0 ? w.text.slice(0, eq) : w.text);
    if (TRAP_SECRET_FLAGS.has(name)) {
      const valueWord = eq > 0 ? w : words[i + 1];
      const value = eq > 0 ? w.text.slice(eq + 1) : valueWord?.text;
      if (valueWord && literal(value) && !valueWord.dynamic)
        out.push(hit(ctx, source, valueWord, value, `the value of ${name}`, FILE_FIX, w));
      else if (valueWord && fallback(value, ctx.script.lines))
        out.push(
          hit(ctx, source, valueWord, fallback(value, ctx.script.lines)!, `the default of ${name}`, FILE_FIX, w),
        );
      if (eq < 0) i++;
      continue;
    }
    const isHeader = (prog === "curl" || prog === "wget") && (w.text === "-H" || w.text === "--header");
    const header = isHeader ? words[i + 1] : w.text.startsWith("--header=") ? { ...w, text: w.text.slice(9) } : null;
    const auth = header ? AUTH_HEADER.exec(header.text) : null;
    if (header && auth && literal(auth[2]) && !header.dynamic) {
      out.push(
        hit(
          ctx,
          source,
          header,
          auth[2],
          `the ${auth[1]} header's credential`,
          "Put the header in a mode-600 curl config (curl -K FILE) or build it from a variable read from a file.",
        ),
      );
      if (isHeader) i++;
      continue;
    }
    const token = TRAP_LITERAL_TOKEN.exec(w.text);
    if (token) out.push(hit(ctx, source, w, token[1]!, "an access token", FILE_FIX));
  }
  return out;
}

export const secretInArgv: TrapRuleDef = {
  id: "secret-in-argv",
  defaultLevel: "warn",
  runtimes: ANY_RUNTIME,
  engines: "any",
  why: "anything in argv is readable by every user through ps and /proc/PID/cmdline, podman -e values through podman inspect, and a unit's Environment= through systemctl show",
  check: (ctx) => {
    const fromCommands = allCommands(ctx).flatMap(({ source, item }) => commandHits(ctx, source, item));
    const fromEnv = allRuns(ctx).flatMap(({ source, item: run }) =>
      run.env
        .filter((e) => secretValue(e.name, e.value ?? undefined))
        .map((e): TrapHit => ({
          file: source.file,
          line: e.line,
          summary: `-e ${e.name} carries a literal secret value`, // not "secret: …": the redactor would mask the next word
          evidence: [redact(lineOf(ctx, source.file, e.line), e.value!)],
          fix: `Pass it without a value (-e ${e.name}, taken from the service's environment), or use podman --secret ... ,type=env,target=${e.name}.`,
        })),
    );
    const fromUnit = unitEnvHits(ctx);
    // a token literal in -e NAME=hf_... is reported once, as an env finding
    const envLines = new Set([...fromEnv, ...fromUnit].map((h) => `${h.file}:${h.line}`));
    const fromArgv = fromCommands.filter((h) => !envLines.has(`${h.file}:${h.line}`));
    // a workload's engine words and its run's words overlap: each line once, and not again after a command's hit
    const seen = new Set([...envLines, ...fromArgv.map((h) => `${h.file}:${h.line}`)]);
    const once = (h: TrapHit) => !seen.has(`${h.file}:${h.line}`) && !!seen.add(`${h.file}:${h.line}`);
    return [...fromEnv, ...fromUnit, ...fromArgv, ...workloadHits(ctx).filter(once)];
  },
};

/**
 * A compose service or a Kubernetes container has no shell commands of its own: its argv is the engine's words (a
 * `sh -c` string read as the script it is) and the run's words after the image.
 */
function workloadHits(ctx: TrapContext): TrapHit[] {
  if (ctx.kind !== "compose" && ctx.kind !== "kubernetes") return [];
  return ctx.sources.flatMap((source) => {
    const argv = [source.script.engine?.args ?? [], ...source.script.podmanRuns.map((r) => r.engineArgs)];
    return argv.flatMap((words) => commandHits(ctx, source, { ...EMPTY_COMMAND, words }));
  });
}

const EMPTY_COMMAND: Command = {
  words: [],
  assignments: [],
  line: 0,
  endLine: 0,
  source: "",
  redirects: [],
  pipeTo: null,
};

/**
 * A unit's own [Service] Environment= (not a quadlet's [Container] one, which becomes podman --env and is
 * read as a run's -e): systemd hands it to every local user through `systemctl show -p Environment`.
 */
function unitEnvHits(ctx: TrapContext): TrapHit[] {
  const unit = ctx.unit;
  if (!unit) return [];
  // systemd splits the value as the shell lexer does (quotes honoured); a $VAR word is no literal
  const assignments = (value: string, line: number) =>
    lexWords(value, line)
      .filter((w) => !w.dynamic && w.text.indexOf("=") > 0)
      .map((w) => ({ name: w.text.slice(0, w.text.indexOf("=")), value: w.text.slice(w.text.indexOf("=") + 1) }));
  return unit.parsed.entries
    .filter((e) => e.section === "Service" && e.key === "Environment")
    .flatMap((e) =>
      assignments(e.value, e.line)
        .filter((a) => secretValue(a.name, a.value) || TRAP_LITERAL_TOKEN.test(a.value))
        .map((a): TrapHit => ({
          file: unit.path,
          line: e.line,
          summary: `Environment= ${a.name} carries a literal secret value`,
          evidence: [redact(lineOf(ctx, unit.path, e.line), a.value)],
          fix: `systemctl show prints a unit's Environment= to every local user: put ${a.name}=... in an EnvironmentFile= of mode 600 (or use LoadCredential=) and remove it from the unit.`,
        })),
    );
}
