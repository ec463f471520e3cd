// Fills $VAR and ${VAR:-default} from the script's own assignments, the way a reader would when
// asking "which value does this flag get by default?". Unknown values stay unknown (undefined):
// the environment or a command substitution decides them at run time.
import { lexWords, type LexWord, type Part } from "./lexer.js";

/** Variable values known so far, in script order; null = assigned but not knowable here. */
export type Env = Map<string, string | null>;

export function resolveWord(word: LexWord, env: Env): string | undefined {
  // Inside ${NAME:+…} NAME is non-empty: its script default "" is not its value there, which is unknown.
  const e = word.guard !== undefined && env.get(word.guard) === "" ? new Map(env).set(word.guard, null) : env;
  let out = "";
  for (const p of word.parts) {
    const v = resolvePart(p, e);
    if (v === undefined) return undefined;
    out += v;
  }
  return out;
}

function resolvePart(p: Part, env: Env): string | undefined {
  if (p.kind === "lit") return p.text;
  if (p.kind === "sub") return undefined;
  if (p.index !== null) return undefined;
  const known = env.has(p.name) ? env.get(p.name) : undefined;
  const value = known === null ? undefined : known;
  switch (p.op) {
    case null:
      return value;
    case ":-":
    case ":=":
      if (value !== undefined && value !== "") return value;
      if (known === null) return undefined;
      return resolveText(p.arg, p.line, env);
    case "-":
    case "=":
      if (value !== undefined) return value;
      if (known === null) return undefined;
      return resolveText(p.arg, p.line, env);
    case ":+":
      if (value === undefined) return undefined;
      return value === "" ? "" : resolveText(p.arg, p.line, env);
    case "length":
      return value === undefined ? undefined : String(value.length);
    default:
      return undefined;
  }
}

function resolveText(text: string, line: number, env: Env): string | undefined {
  const words = lexWords(text, line);
  const values = words.map((w) => resolveWord(w, env));
  return values.some((v) => v === undefined) ? undefined : values.join(" ");
}

/** `: "${VAR:=default}"` and `${VAR:=default}` anywhere assign VAR when it is unset. */
export function applyDefaults(word: LexWord, env: Env): void {
  for (const p of word.parts) {
    if (p.kind === "param" && (p.op === ":=" || p.op === "=") && !env.has(p.name)) {
      const v = resolveText(p.arg, p.line, env);
      env.set(p.name, v ?? null);
    }
  }
}

export function assign(env: Env, name: string, value: string | undefined, append: boolean): void {
  if (append) {
    const prev = env.get(name);
    env.set(name, prev === undefined ? (value ?? null) : prev === null || value === undefined ? null : prev + value);
  } else {
    env.set(name, value ?? null);
  }
}
