// Names and values that look like a credential: their values never reach evidence or data.
import { redact, valueLooksSecret } from "./redact.js";

const SECRET_PART = /^(token|key|apikey|secret|password|passwd|pass|pwd|credential|credentials|auth|bearer)$/i;

/** `HF_TOKEN`, `--api-key`, `DB_PASSWORD` yes; `--max-num-batched-tokens`, `KV_BYTES` no (parts are whole words). */
export function looksSecret(name: string): boolean {
  return name.replace(/^-+/, "").split(/[-_.]/).some((part) => SECRET_PART.test(part));
}

/** By name, then by what the value looks like: a knob named innocently can still carry a token. */
export function mask(name: string, value: string | null): string | null {
  if (value === null) return null;
  if (looksSecret(name)) return "***";
  const r = redact(value);
  if (r !== value) return r;
  return valueLooksSecret(value) ? "***" : value;
}

/** As mask, but a value that only names a variable (`$VLLM_API_KEY`, `${HF_TOKEN}`) is kept: it says where the secret comes from. */
export function maskUnlessReference(name: string, value: string | null): string | null {
  return value !== null && /^\$\{?[A-Za-z_]\w*\}?$/.test(value) ? value : mask(name, value);
}
