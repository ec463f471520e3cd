// What a secret VALUE looks like, whatever its name: token shapes, credentials in a URL, long random strings.
// The redactor's shapes are broad (a false mask costs a word of evidence); the secret-in-argv trap's are narrow
// (a false hit is a warning on the user's script). Both kept, side by side in test/domain/redact/shapes.test.ts.

/** A Hugging Face token. */
export const HF_TOKEN = /\bhf_[A-Za-z0-9]{20,}\b/g;

/** The redactor's token shapes: secrets wherever they appear (`sk-` from 16 characters). */
export const REDACTOR_TOKEN_SHAPES: readonly RegExp[] = [
  HF_TOKEN,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** The secret-in-argv trap's token written literally into a command line (group 1): `sk-` from 20 characters. */
export const TRAP_LITERAL_TOKEN = /\b(hf_[A-Za-z0-9]{20,}|sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,})\b/;

/** A value that is a credential by its looks: a known token shape, a URL with credentials, or a long random string. */
export function valueLooksSecret(value: string): boolean {
  const v = value.trim();
  if (REDACTOR_TOKEN_SHAPES.some((re) => new RegExp(re.source).test(v))) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^\s/@]+@/i.test(v)) return true;
  // Random-looking: long, one unbroken run (no "-", ".", "/": names and versions have those), upper and
  // lower case and digits mixed. A served model name like Qwen3Coder30BA3BInstruct is shorter than this.
  return v.length >= 32 && /^[A-Za-z0-9+_=]+$/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v) && /[0-9]/.test(v);
}
