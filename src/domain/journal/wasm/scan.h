// One `journalctl -o json` line's object walked key to key on its bytes: where each wanted field's value
// lies (or its byte array, decoded into the arena), nothing else; the shapes it does not expect return 0.
// The same reading as SpanScanner.scan in journal-scan.ts, which reads the lines this one leaves.

static u8 klen[NW];
enum { TABLE = 256 };
static uint32_t table_hash[TABLE];
static int8_t table_field[TABLE];

static u8 kind[NW];
static int32_t fstart[NW], fend[NW];
static int32_t bytes_a, bytes_n, bytes_high;

static inline uint32_t slot_of(uint32_t u) { return u & (TABLE - 1); }
// A key known by its length and two of its bytes: one table probe rejects most unwanted keys without
// reading the rest (every wanted key is over 3 bytes long).
static inline uint32_t key_hash(const u8 *k, int n) { return n < 4 ? 0 : (uint32_t)n * 37u + k[1] * 5u + k[n - 2]; }

static void init_keys(void) {
  for (int s = 0; s < TABLE; s++) table_field[s] = -1;
  for (int f = 0; f < NW; f++) {
    int n = 0;
    while (WANTED[f][n]) n++;
    uint32_t h = key_hash((const u8 *)WANTED[f], n);
    klen[f] = (u8)n;
    uint32_t s = slot_of(h);
    while (table_field[s] != -1) s = (s + 1) & (TABLE - 1);
    table_hash[s] = h;
    table_field[s] = (int8_t)f;
  }
}

static int wanted(int k, int e, uint32_t h) {
  for (uint32_t s = slot_of(h);; s = (s + 1) & (TABLE - 1)) {
    int f = table_field[s];
    if (f < 0) return -1;
    if (table_hash[s] != h || klen[f] != e - k) continue;
    const char *key = WANTED[f];
    int x = 0;
    while (x < e - k && (u8)key[x] == in[k + x]) x++;
    if (x == e - k) return f;
  }
}

// The first '"' or '\\' in [i, b), or b.
static inline int find_qb(int i, int b) {
  const v128_t q = wasm_i8x16_splat('"'), bs = wasm_i8x16_splat('\\');
  while (i + 16 <= b) {
    v128_t x = wasm_v128_load(in + i);
    int bits = wasm_i8x16_bitmask(wasm_v128_or(wasm_i8x16_eq(x, q), wasm_i8x16_eq(x, bs)));
    if (bits) return i + __builtin_ctz(bits);
    i += 16;
  }
  while (i < b && in[i] != '"' && in[i] != '\\') i++;
  return i;
}

// The first '\n' in [i, b), or b.
static inline int find_nl(int i, int b) {
  const v128_t nl = wasm_i8x16_splat('\n');
  while (i + 16 <= b) {
    int bits = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(in + i), nl));
    if (bits) return i + __builtin_ctz(bits);
    i += 16;
  }
  while (i < b && in[i] != '\n') i++;
  return i;
}

// The compact form journalctl writes (`[27,91,49]`), element by element: past it, or -2 for another form.
static int compact_bytes(int v, int b) {
  u8 *out = arena + arena_n;
  int n = 0, high = 0, i = v + 1;
  for (;;) {
    int d = in[i] - '0';
    if ((unsigned)d > 9) return -2;
    int x = d;
    d = in[++i] - '0';
    if ((unsigned)d <= 9) {
      x = x * 10 + d;
      d = in[++i] - '0';
      if ((unsigned)d <= 9) {
        x = x * 10 + d;
        i++;
        if (x > 255) return -2;
      }
    }
    out[n++] = (u8)x;
    high |= x;
    int c = in[i];
    if (c == ',') i++;
    else if (c == ']' && i < b) {
      bytes_a = arena_n; bytes_n = n; bytes_high = high;
      arena_n += n;
      return i + 1;
    } else return -2;
  }
}

// A byte-array MESSAGE into the arena: past it, or -1 (left to the JavaScript decoder).
static int byte_array(int v, int b) {
  int fast = compact_bytes(v, b);
  if (fast != -2) return fast;
  u8 *out = arena + arena_n;
  int n = 0, cur = -1, high = 0;
  for (int i = v + 1; i < b; i++) {
    int c = in[i];
    if (c >= '0' && c <= '9') {
      cur = cur < 0 ? c - '0' : cur * 10 + (c - '0');
      if (cur > 255) return -1;
    } else if (c == ',' || c == ']') {
      if (cur < 0) {
        if (c != ']' || n != 0) return -1;
        bytes_a = arena_n; bytes_n = 0; bytes_high = 0; // []
        return i + 1;
      }
      out[n++] = (u8)cur;
      high |= cur;
      cur = -1;
      if (c == ']') {
        bytes_a = arena_n; bytes_n = n; bytes_high = high;
        arena_n += n;
        return i + 1;
      }
    } else if (!is_space(c)) return -1; // an array of strings: a multi-valued field
  }
  return -1;
}

static int skip_other(int v, int b, int c) {
  if (c == '[') {
    int j = v + 1;
    while (j < b && is_space(in[j])) j++;
    int d = in[j];
    if (d == '"' || d == '[' || d == '{') return -1;
    for (j = v; j < b && in[j] != ']'; j++) ;
    return j >= b ? -1 : j + 1;
  }
  if (c == '{') return -1;
  int j = v;
  while (j < b && in[j] != ',' && in[j] != '}') j++;
  return j;
}

// The object in[a, b) (trimmed, `{` ... `}`), its wanted fields into kind/fstart/fend; 0: not this shape.
static int scan(int a, int b) {
  for (int f = 0; f < NW; f++) kind[f] = ABSENT;
  int i = a + 1;
  for (int first = 1;; first = 0) {
    int c = in[i];
    if (c != '"') {
      while (i < b && is_space(in[i])) i++;
      c = i < b ? in[i] : -1;
      if (c == '}') return first && i == b - 1;
      if (c != '"') return 0;
    }
    int ke = find_qb(i + 1, b);
    if (ke >= b || in[ke] == '\\') return 0;
    int want = ke - i - 1 < 4 ? -1 : wanted(i + 1, ke, key_hash(in + i + 1, ke - i - 1));
    int v = ke + 1;
    if (v >= b) return 0;
    if (in[v] != ':') {
      while (v < b && is_space(in[v])) v++;
      if (v >= b || in[v] != ':') return 0;
    }
    if (++v >= b) return 0;
    c = in[v];
    if (is_space(c)) {
      while (v < b && is_space(in[v])) v++;
      if (v >= b) return 0;
      c = in[v];
    }
    int next;
    if (c == '"') {
      int esc = 0, e = v + 1;
      for (;;) {
        e = find_qb(e, b);
        if (e >= b) return 0;
        if (in[e] == '"') break;
        esc = 1;
        e += 2;
      }
      if (want >= 0) { kind[want] = esc ? STR_ESC : STR; fstart[want] = v + 1; fend[want] = e; }
      next = e + 1;
    } else if (want < 0) {
      next = skip_other(v, b, c);
      if (next < 0) return 0;
    } else if (c == 'n' && v + 3 < b && in[v + 1] == 'u' && in[v + 2] == 'l' && in[v + 3] == 'l') {
      kind[want] = NUL;
      next = v + 4;
    } else if (c == '[' && want == F_MESSAGE) {
      next = byte_array(v, b);
      if (next < 0) return 0;
      kind[want] = BYTES;
    } else return 0;
    if (next >= b) return 0;
    c = in[next];
    if (c == ',') { i = next + 1; continue; }
    if (is_space(c)) {
      while (next < b && is_space(in[next])) next++;
      c = next < b ? in[next] : -1;
    }
    if (c == ',') i = next + 1;
    else if (c == '}') return next == b - 1;
    else return 0;
  }
}

// A string value of digits as its number (Number(text) || 0 for ""), or -1: left to Number().
static double number(int f) {
  int a = fstart[f], e = fend[f];
  if (e - a > 16) return -1;
  double n = 0;
  for (int i = a; i < e; i++) {
    int d = in[i] - '0';
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n <= 9007199254740991.0 ? n : -1;
}

static int is_lit(int f, const char *lit) {
  if (kind[f] != STR) return 0;
  int a = fstart[f], n = fend[f] - a, i = 0;
  for (; i < n && lit[i]; i++) if (in[a + i] != (u8)lit[i]) return 0;
  return i == n && !lit[i];
}
