// One scan per line for the literals the diagnosis's patterns need (Aho-Corasick over the line's characters,
// case folded), so a line runs only the pattern groups whose literals it holds: most lines of a long log hold none.
// The literals, by group: prefilter-literals.ts; the automaton is made from them at build time
// (prefilter-table.generated.ts, npm run build:prefilter) and expanded on start by the journal decoder's WebAssembly
// module (a loop that runs once costs less there than as cold JavaScript). Pure.
import { SIGMA } from "./prefilter-automaton.js";
import { PREFILTER_TABLE } from "./prefilter-table.generated.js";
import { expandLiterals } from "../journal/wasm-lines.js";

export {
  ALL,
  BELOW,
  DIRTY,
  FAIL,
  KUBE,
  LITERALS,
  MISC,
  NOISE,
  PHASE,
  PLAN,
  READY,
  SERVICE,
  SERVING,
  SPEC,
  TRACEBACK,
} from "./prefilter-literals.js";

const { delta, out } = expandLiterals(Buffer.from(PREFILTER_TABLE, "base64"));

/** The groups whose literals `text` holds (case folded). */
export function groupsOf(text: string): number {
  let s = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= SIGMA) {
      s = 0;
      continue;
    }
    s = delta[(s << 7) | c]!;
    bits |= out[s]!;
  }
  return bits;
}
