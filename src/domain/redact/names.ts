// What a secret NAME is: a flag, a variable or a key whose value must not be shown.
// One home for every reader's rule. They differ on purpose (each reader's input and cost of a miss differ), so
// each is kept as it was, named for its use; test/domain/redact/names.test.ts puts them side by side.

/** A vLLM `non-default args` key (snake_case, the secret word last): `api_key`, `hf_token`, `watermark_config`. */
const SECRET_ARG_KEY = /(^|_)(api_key|hf_token|token|secret|password|watermark_config)$/i;

/** The engine's args reader: whether this key's value is a secret. */
export function isSecretArgKey(key: string): boolean {
  return SECRET_ARG_KEY.test(key);
}

const SECRET_PART =
  /^(token|key|apikey|secret|password|passwd|passphrase|pass|pwd|credential|credentials|auth|bearer)$/i;

/** `HF_TOKEN`, `--api-key`, `DB_PASSWORD` yes; `--max-num-batched-tokens`, `KV_BYTES` no (parts are whole words). */
export function looksSecret(name: string): boolean {
  return name
    .replace(/^-+/, "")
    .split(/[-_.]/)
    .some((part) => SECRET_PART.test(part));
}

/**
 * The redactor's rule, wider than looksSecret: `HF_TOKEN`, `DB_PASSWORD`, `DBPASSWORD`, `api-key`; not `MAX_TOKENS`
 * (a name run together, `DBPASSWORD`, still ends in the secret word).
 */
export const isRedactedName = (name: string): boolean =>
  looksSecret(name) || /(password|passwd|passphrase|secret|token|apikey|api_key)$/i.test(name);

/** The secret-in-argv trap: the engine flags whose value is a credential, exactly. */
export const TRAP_SECRET_FLAGS: ReadonlySet<string> = new Set(["--api-key", "--hf-token", "--token", "--password"]);

/** The secret-in-argv trap: whole name segments: HF_TOKEN, OPENAI_API_KEY, DB_PASSWORD; not MAX_TOKENS. */
export const TRAP_SECRET_ENV = /(^|_)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY)(_|$)/i;

/**
 * verify's live argv evidence: `--NAME=value` with a secret word anywhere in NAME (group 1 is what is kept). Loose
 * on purpose: it masks `--max-num-batched-tokens=…` too, which costs a number in the evidence, never a key.
 */
export const SECRET_FLAG_ASSIGNMENT = /^(--[\w-]*(?:key|token|password|secret)[\w-]*=).*/i;
