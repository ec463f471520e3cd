// The diagnosis's literal automaton expanded from its compact form (src/domain/diagnosis/prefilter-automaton.ts: the
// trie's states breadth first, 5 bytes each: parent, character, the groups of the literals ending there) into the full
// table groupsOf walks: each state's row copied from its failure state's (shallower, so complete), its own edges laid
// over, an upper-case letter moving as its lower-case one. Here rather than in JavaScript: V8 compiled that loop,
// which runs once, with its optimizing compiler on every start of explain (4-8 ms of CPU besides 2-3 ms running it).

enum { SIGMA = 128, RECORD = 5 };

// compact[0, (n - 1) * RECORD) -> delta[n * SIGMA] (zeroed), out[n]; fail[n] is scratch.
EXPORT("expandLiterals") void expand_literals(const u8 *compact, int n, uint16_t *delta, int32_t *out, int32_t *fail) {
  out[0] = 0;
  fail[0] = 0;
  for (int t = 1; t < n; t++) out[t] = compact[(t - 1) * RECORD + 3] | compact[(t - 1) * RECORD + 4] << 8;
  int t = 1;
  for (int s = 0; s < n; s++) {
    int f = fail[s];
    if (s > 0) {
      out[s] |= out[f];
      __builtin_memcpy(delta + s * SIGMA, delta + f * SIGMA, SIGMA * sizeof(uint16_t));
    }
    // s's children: the next states whose parent it is
    for (; t < n; t++) {
      const u8 *r = compact + (t - 1) * RECORD;
      if ((r[0] | r[1] << 8) != s) break;
      int c = r[2];
      fail[t] = s == 0 ? 0 : delta[f * SIGMA + c];
      delta[s * SIGMA + c] = (uint16_t)t;
      if (c >= 'a' && c <= 'z') delta[s * SIGMA + c - 32] = (uint16_t)t;
    }
  }
}
