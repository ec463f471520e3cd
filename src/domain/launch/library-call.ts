// `start_with_pid_file "$PID_FILE" "$PY" -m sglang.launch_server --model-path ...`: a function the script does not
// define (it sources a library that does, one the gate cannot read here) given a whole engine command as its
// arguments. Such helpers (pid files, retries, logging wrappers) run their arguments; the engine is the command
// among them. A name that prints or logs its arguments runs nothing. Pure.
import type { Word } from "./model.js";
import { isFlagWord } from "./flags.js";
import { directEngine, type EngineHints, type Found } from "./engine.js";

const PRINTS =
  /^(?:echo|printf|print\w*|log\w*|info|warn\w*|err\w*|debug|die|fail\w*|msg|say|note|notice|cat|tee|read|export|local|declare|readonly|alias|unset|trap|set|which|type|command)$/i;

const SOURCES = /^\s*(?:source|\.)\s+\S/m;

/** The engine a library function's arguments start, or null (see above). `defined`: functions the file defines. */
export function libraryCallEngine(
  words: readonly Word[],
  h: EngineHints,
  text: string,
  defined: ReadonlySet<string>,
): Found | null {
  const name = words[0]?.text ?? "";
  if (!/^[A-Za-z_][\w-]*$/.test(name) || defined.has(name) || PRINTS.test(name) || !SOURCES.test(text)) return null;
  // the command starts within the first few arguments (a pid file, a log path, a retry count before it)
  for (let k = 1; k < Math.min(words.length, 5); k++) {
    if (isFlagWord(words[k]!.text)) continue;
    const found = directEngine(words.slice(k), h);
    if (found) return found;
  }
  return null;
}
