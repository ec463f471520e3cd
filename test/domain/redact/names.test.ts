// The secret-NAME rules side by side on the same names: each reader's rule differs on purpose, and this table
// is where a change to one of them shows against the others.
import { describe, expect, it } from "vitest";
import {
  isRedactedName,
  isSecretArgKey,
  looksSecret,
  SECRET_FLAG_ASSIGNMENT,
  TRAP_SECRET_ENV,
  TRAP_SECRET_FLAGS,
} from "../../../src/domain/redact/names.js";

const RULES = {
  argKey: isSecretArgKey, // the engine's `non-default args` keys
  looks: looksSecret, // mask(): whole-word parts
  redactor: isRedactedName, // redact(): looksSecret, or a secret word at the end
  trapFlag: (n: string) => TRAP_SECRET_FLAGS.has(n), // secret-in-argv: exact flags
  trapEnv: (n: string) => TRAP_SECRET_ENV.test(n), // secret-in-argv: whole env name segments
  liveArgv: (n: string) => SECRET_FLAG_ASSIGNMENT.test(`${n}=x`), // verify's live argv: a secret word in --NAME
};
type Rule = keyof typeof RULES;
const order = Object.keys(RULES) as Rule[];

// name -> the rules that call it secret
const CASES: [string, Rule[]][] = [
  ["api_key", ["argKey", "looks", "redactor", "trapEnv"]],
  ["HF_TOKEN", ["argKey", "looks", "redactor", "trapEnv"]],
  ["watermark_config", ["argKey"]], // vLLM's watermark carries a key
  ["DBPASSWORD", ["redactor"]], // run together: only the redactor's suffix rule sees it
  ["api-key", ["looks", "redactor"]],
  ["--api-key", ["looks", "redactor", "trapFlag", "liveArgv"]],
  ["--api-key-file", ["looks", "redactor", "liveArgv"]], // a path, not a key: the trap asks for the exact flag
  ["AWS_ACCESS_KEY_ID", ["looks", "redactor", "trapEnv"]],
  ["auth", ["looks", "redactor"]],
  ["HF_HUB_DISABLE_TOKEN", ["argKey", "looks", "redactor", "trapEnv"]], // the trap drops its 1 by value, not name
  ["--max-num-batched-tokens", ["liveArgv"]], // the live argv rule is loose: a number masked, never a key shown
  ["MAX_TOKENS", []],
  ["TOKENIZERS_PARALLELISM", []],
];

describe("what a secret name is, per reader", () => {
  it.each(CASES)("%s", (name, secretTo) => {
    expect(order.filter((r) => RULES[r](name))).toEqual(order.filter((r) => secretTo.includes(r)));
  });
});
