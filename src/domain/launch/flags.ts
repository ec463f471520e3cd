// Reads an engine argv (`/models --port 7770 --enable-prefix-caching ...`) as flags and positionals.
import type { Flag, Word } from "./model.js";

// vLLM switches (store_true / BooleanOptionalAction): never take the next word as their value,
// so `--trust-remote-code /models` keeps the model path positional.
const SWITCH =
  /^--(no-|enable-|disable-)|^--(trust-remote-code|enforce-eager|async-scheduling|expert-precise-memory|skip-tokenizer-init|headless|disable-log-requests|disable-log-stats)$/;
const BOOL_WORD = /^(true|false|True|False|1|0)$/;

export function isFlagWord(text: string): boolean {
  return /^--?[A-Za-z]/.test(text);
}

/** `--flag value`, `--flag=value`, switches (a flag followed by another flag); the rest positional. */
/** `${MODEL_FLAG:--hf}`: a word that is only a variable with a flag as its default is that flag by default. */
function flagByDefault(w: Word): Word {
  const byDefault = /^"?\$\{[A-Za-z_][A-Za-z0-9_]*:?-[^}]*\}"?$/.test(w.text);
  return byDefault && w.resolved !== undefined && isFlagWord(w.resolved) ? { ...w, text: w.resolved } : w;
}

export function readFlags(words: readonly Word[]): { flags: Flag[]; positional: Word[] } {
  const flags: Flag[] = [];
  const positional: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = flagByDefault(words[i]!);
    if (!isFlagWord(w.text)) {
      positional.push(w);
      continue;
    }
    // `- "--load-format auto"` (one argv word holding flag and value): the flag is the part before the space
    const space = /^(--?[A-Za-z][\w.-]*)\s+(\S.*)$/s.exec(w.text);
    if (space && !w.text.includes("=")) {
      flags.push({
        name: space[1]!,
        value: space[2]!,
        line: w.line,
        optional: w.optional,
        resolvedValue: space[2]!,
        ...off(w),
      });
      continue;
    }
    const eq = w.text.indexOf("=");
    if (eq > 0) {
      const flag: Flag = {
        name: w.text.slice(0, eq),
        value: w.text.slice(eq + 1),
        line: w.line,
        optional: w.optional,
        ...off(w),
      };
      if (w.resolved !== undefined) flag.resolvedValue = w.resolved.slice(w.resolved.indexOf("=") + 1);
      else if (!w.dynamic) flag.resolvedValue = flag.value!;
      flags.push(flag);
      continue;
    }
    const next = words[i + 1];
    const takesNext =
      next !== undefined &&
      !isFlagWord(next.text) &&
      (!SWITCH.test(w.text) || BOOL_WORD.test(next.text)) &&
      // a word from ${X:+...} belongs to its own optional group, not to a plain flag before it
      next.optional === w.optional;
    const flag: Flag = {
      name: w.text,
      value: takesNext ? next.text : null,
      line: w.line,
      optional: w.optional,
      ...off(w),
    };
    if (takesNext) {
      i++;
      if (next.resolved !== undefined) flag.resolvedValue = next.resolved;
      else if (!next.dynamic) flag.resolvedValue = next.text;
    }
    flags.push(flag);
  }
  return { flags, positional };
}

/** (only where set: a flag's shape stays as it was for every flag on the default path, in the launch file) */
const off = (w: Word) => ({ ...(w.offDefault ? { offDefault: true } : {}), ...(w.file ? { file: w.file } : {}) });
