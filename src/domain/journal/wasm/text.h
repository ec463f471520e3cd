// A MESSAGE's bytes made text: JSON's simple escapes undone, and an ASCII byte array cleaned as a terminal
// shows it (the same result as cleanLine in src/domain/journal/line.ts).

// Simple escapes undone into the arena: how many newlines, or -1: another escape or a raw control byte
// (left to JSON.parse).
static int unescape_simple(int a, int e, int *ms, int *me) {
  u8 *out = arena + arena_n;
  int n = 0, nl = 0;
  const v128_t bs = wasm_i8x16_splat('\\'), sp = wasm_i8x16_splat(32);
  for (int i = a; i < e; i++) {
    // 16 bytes at a time up to the next backslash or control byte (the arena has slack for the overshoot).
    while (i + 16 <= e) {
      v128_t x = wasm_v128_load(in + i);
      int m = wasm_i8x16_bitmask(wasm_v128_or(wasm_i8x16_eq(x, bs), wasm_u8x16_lt(x, sp)));
      wasm_v128_store(out + n, x);
      if (m) {
        int k = __builtin_ctz(m);
        n += k;
        i += k;
        break;
      }
      n += 16;
      i += 16;
    }
    if (i >= e) break;
    int c = in[i];
    if (c == '\\') {
      int x = ++i < e ? in[i] : -1;
      c = x == '"' ? '"' : x == '\\' ? '\\' : x == '/' ? '/' : x == 'n' ? '\n' : x == 't' ? '\t' : -1;
      if (c < 0) return -1;
      nl += c == '\n';
    } else if (c < 32) return -1;
    out[n++] = (u8)c;
  }
  out[n] = '\n'; // bounds the decoder's search for line ends (a decoded string is at least a byte shorter)
  *ms = arena_n;
  *me = arena_n + n;
  arena_n += n + 1;
  return nl;
}

// An ASCII byte-array message arena[ms, me) as a terminal shows it, as the JavaScript cleanLine does per
// physical line (the trailing newline dropped, ESC [ params letter removed, of `\r` rewrites the last
// non-empty one), written after it with a newline after each line; how many lines, their span in cs/ce.
static int clean_ascii(int ms, int me, int *cs, int *ce) {
  u8 *out = arena + arena_n;
  int n = 0, lines = 0;
  if (me > ms && arena[me - 1] == '\n') me--;
  for (int a = ms; a <= me;) {
    int e = a;
    while (e < me && arena[e] != '\n') e++;
    int start = n, seg = n; // seg: where the current \r segment began
    int last_a = -1, last_e = -1;
    for (int i = a; i < e; i++) {
      int c = arena[i];
      if (c == 0x1b && i + 1 < e && arena[i + 1] == '[') {
        int j = i + 2;
        while (j < e && ((arena[j] >= '0' && arena[j] <= '9') || arena[j] == ';' || arena[j] == '?')) j++;
        if (j < e && ((arena[j] | 32) >= 'a' && (arena[j] | 32) <= 'z')) { i = j; continue; }
      }
      if (c == '\r') {
        if (n > seg) { last_a = seg; last_e = n; }
        seg = n;
        continue;
      }
      out[n++] = (u8)c;
    }
    if (n > seg) { last_a = seg; last_e = n; }
    if (last_a < 0) n = start; // every segment empty: an empty line, dropped as the JavaScript emitter drops it
    else {
      if (last_a != start) for (int i = 0; i < last_e - last_a; i++) out[start + i] = out[last_a + i];
      n = start + (last_e - last_a);
      out[n++] = '\n';
      lines++;
    }
    a = e + 1;
  }
  *cs = arena_n;
  *ce = arena_n + n;
  arena_n += n;
  return lines;
}
