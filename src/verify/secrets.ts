// Names that look like a credential: their values never reach evidence or data.
const SECRET_PART = /^(token|key|apikey|secret|password|passwd|pass|pwd|credential|credentials|auth|bearer)$/i;

/** `HF_TOKEN`, `--api-key`, `DB_PASSWORD` yes; `--max-num-batched-tokens`, `KV_BYTES` no (parts are whole words). */
export function looksSecret(name: string): boolean {
  return name.replace(/^-+/, "").split(/[-_.]/).some((part) => SECRET_PART.test(part));
}

export function mask(name: string, value: string | null): string | null {
  if (value === null) return null;
  return looksSecret(name) ? "***" : value;
}
