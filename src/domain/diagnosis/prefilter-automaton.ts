// The prefilter's Aho-Corasick automaton: made from the literals once, at build time (compact: the trie's states in
// breadth-first order, prefilter-table.generated.ts), and expanded on every start into the full table groupsOf walks
// (src/domain/journal/wasm/automaton.h). Building the trie from the strings and expanding it in JavaScript, as explain
// did on every start before, cost 3-5 ms of cold code, and V8 compiled the loop with its optimizing compiler each time
// (another 4-8 ms of CPU). Pure.

/** Characters below this index have transitions; any other breaks every literal (they are ASCII). */
export const SIGMA = 128;
/** Bytes per state in the compact form: parent (16 bits), character (8), groups of the literals ending there (16). */
const RECORD = 5;

/**
 * The trie of the literals, its states numbered breadth first (so a state's children follow each other, after every
 * shallower state): for each state but the root, its parent, its character and the groups of the literals ending at
 * it. Build time and tests only.
 */
export function compactAutomaton(groups: ReadonlyArray<readonly [number, readonly string[]]>): Uint8Array {
  const children: Array<Map<number, number>> = [new Map()];
  const found: number[] = [0];
  for (const [bit, words] of groups) {
    for (const w of words) {
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const c = w.charCodeAt(i);
        if (c >= SIGMA || (c >= 65 && c <= 90)) throw new Error(`prefilter literal must be lower-case ASCII: ${w}`);
        let t = children[s]!.get(c);
        if (t === undefined) {
          t = children.length;
          children.push(new Map());
          found.push(0);
          children[s]!.set(c, t);
        }
        s = t;
      }
      found[s]! |= bit;
    }
  }
  // 16-bit states: the table stays small enough for the cache (the literals make a few thousand states)
  if (children.length > 0xffff) throw new Error("prefilter: too many literal states for a 16-bit table");
  if (found.some((f) => f > 0xffff)) throw new Error("prefilter: group bits past 16 do not fit the compact form");
  const order = [0];
  const number = new Map([[0, 0]]);
  const bytes = new Uint8Array((children.length - 1) * RECORD);
  for (let q = 0; q < order.length; q++) {
    const s = order[q]!;
    for (const [c, t] of [...children[s]!].sort((a, b) => a[0] - b[0])) {
      const at = order.length;
      number.set(t, at);
      order.push(t);
      const p = number.get(s)!;
      const o = (at - 1) * RECORD;
      bytes[o] = p & 0xff;
      bytes[o + 1] = p >> 8;
      bytes[o + 2] = c;
      bytes[o + 3] = found[t]! & 0xff;
      bytes[o + 4] = found[t]! >> 8;
    }
  }
  return bytes;
}
