// `$( [ "$EAGER" = "true" ] && echo "--enforce-eager" )` standing alone as a word of a command: the words echo
// prints when the test holds. Read with the script's defaults: a test false by default prints nothing, one that
// cannot be decided here prints words that are optional (like `${X:+--flag}`'s). Pure.
import { evalTest } from "./default-branch.js";
import { lexWords, type LexWord } from "./lexer.js";
import type { Env } from "./resolve.js";

const TEST_AND_ECHO = /^\s*(\[\[\s[^\]]*\]\]|\[\s[^\]]*\]|test\s[^&|;]*?)\s*&&\s*echo\s+([^;&|`$()<>]*?)\s*;?\s*$/;

/** The words the substitution prints by default (optional unless the test is known to hold), or null. */
export function conditionalEcho(w: LexWord, env: Env): LexWord[] | null {
  const p = w.parts.length === 1 ? w.parts[0]! : null;
  // (quoted, the output is one word: not flags of their own)
  if (p?.kind !== "sub" || w.text.startsWith('"')) return null;
  const m = TEST_AND_ECHO.exec(p.body);
  if (!m || /^-[neE]+$/.test(m[2]!.trim().split(/\s+/)[0]!)) return null;
  const holds = evalTest(m[1]!, env);
  if (holds === false) return [];
  return lexWords(m[2]!, p.line).map((x) => ({ ...x, optional: holds !== true || x.optional }));
}
