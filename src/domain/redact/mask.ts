// One value shown in evidence or data: masked by its name, then by its looks.
import { looksSecret } from "./names.js";
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
