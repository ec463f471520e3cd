// One value shown in evidence or data: masked by its name, then by its looks.
import { looksSecret, SECRET_FLAG_ASSIGNMENT } from "./names.js";
import { redact } from "./redact.js";
import { valueLooksSecret } from "./shapes.js";

/** By name, then by what the value looks like: a knob named innocently can still carry a token. */
export function mask(name: string, value: string | null): string | null {
  if (value === null) return null;
  if (looksSecret(name)) return "***";
  const r = redact(value);
  if (r !== value) return r;
  return valueLooksSecret(value) ? "***" : value;
}

/**
 * As mask, but a value that only names a variable (`$VLLM_API_KEY`, `${HF_TOKEN}`) is kept: it says where the secret
 * comes from.
 */
export function maskUnlessReference(name: string, value: string | null): string | null {
  return value !== null && /^\$\{?[A-Za-z_]\w*\}?$/.test(value) ? value : mask(name, value);
}

/**
 * An argv as a list, flag by flag: the word after a secret flag (`--api-key KEY`) and the value of a
 * secret assignment (`--hf-token=...`) become ***, and any word that looks like a token is redacted. The
 * one form every argv that leaves the host takes before a finding holds it.
 */
export function maskArgv(argv: readonly string[]): string[] {
  return argv.map((w, i) => {
    if (i > 0 && looksSecret(argv[i - 1]!)) return "***";
    const assigned = w.replace(SECRET_FLAG_ASSIGNMENT, "$1***");
    return assigned !== w ? assigned : redact(w);
  });
}
