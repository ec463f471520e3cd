// The journal decoder's per-line work in WebAssembly (built by scripts/build-wasm.sh into
// journal-lines-wasm.ts): each `journalctl -o json` line's wanted fields found by walking its keys, its
// head (time, priority, names, podman source, piece flags) and MESSAGE decoded (simple escapes undone, a
// byte array made bytes), and the overlapping-export cursor check. What the line decoder in JavaScript
// then does per line is make one string and one record: V8 compiled ~100 ms of JavaScript for this work,
// which a 50 MB dump's whole decoding time barely exceeds. Anything unusual (escaped keys or names,
// numbers as text it would have to parse, an escape other than \" \\ \/ \n \t) is a SLOW entry: the
// JavaScript decoder reads that line as before (journal.ts), so both paths mean the same.
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(n) __attribute__((export_name(n)))
typedef uint8_t u8;

enum { ABSENT = 0, STR = 1, STR_ESC = 2, BYTES = 3, NUL = 4 };
enum { NW = 16, F_CURSOR = 0, F_RT = 1, F_SRT = 2, F_MESSAGE = 3, F_CID = 4, F_CNAME = 5, F_TRANSPORT = 6,
       F_PARTIAL = 7, F_LINE_BREAK = 8, F_STREAM = 9, F_PRIORITY = 10, F_UNIT = 11, F_USER_UNIT = 12,
       F_SYSTEMD_UNIT = 13, F_IDENT = 14, F_COMM = 15 };
// The same order as WANTED in journal-scan.ts.
static const char *const WANTED[NW] = { "__CURSOR", "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP", "MESSAGE",
  "CONTAINER_ID", "CONTAINER_NAME", "_TRANSPORT", "CONTAINER_PARTIAL_MESSAGE", "_LINE_BREAK", "_STREAM_ID", "PRIORITY",
  "UNIT", "USER_UNIT", "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER", "_COMM" };

// Entries: what one call found, line by line (struct of arrays, read by journal-lines-wasm.ts).
enum { MAXE = 4096 };
enum { E_SLOW = 0, E_FAST = 1 };
enum { M_NONE = 0, M_STR = 1, M_DEC = 2, M_BYTES = 3 };
// How the message becomes records when no piece joins it: one line [cs, ce); the lines of [cs, ce) (no
// control byte but \n and \t left); or the JavaScript cleaner's (a byte array that is not ASCII).
enum { EM_ONE = 1, EM_LINES = 2, EM_JS = 3 };
// flags: bits 0-1 podman source (0 container, 1 stdout, 2 other), then:
enum { FL_PARTIAL = 4, FL_LINE_MAX = 8, FL_CID = 16, FL_SID = 32, FL_DUP = 64, FL_ASCII = 128 };
_Alignas(8) double e_ts[MAXE];
int32_t e_a[MAXE], e_b[MAXE], e_ms[MAXE], e_me[MAXE], e_cs[MAXE], e_ce[MAXE];
int32_t e_container[MAXE], e_unit[MAXE], e_ident[MAXE], e_cid[MAXE], e_sid[MAXE];
u8 e_status[MAXE], e_kind[MAXE], e_flags[MAXE], e_emit[MAXE];
int8_t e_prio[MAXE];
// Results of a call besides the entries: where the next call resumes; the name table's generation.
int32_t r_resume, r_gen;

static u8 klen[NW];
enum { TABLE = 256 };
static uint32_t table_hash[TABLE];
static int8_t table_field[TABLE];

static u8 kind[NW];
static int32_t fstart[NW], fend[NW];
static u8 *in;          // the bytes of the call
static u8 *arena;       // decoded messages, valid until the next call
static int32_t arena_n;
static int32_t bytes_a, bytes_n, bytes_high;

// Interned names (unit, container, identifier, stream): the same bytes get the same id within a generation.
enum { NAMES = 2048, NAME_MAX = 255, NAME_HEAP = NAMES * 64, NAME_BUCKETS = 4096 };
uint32_t n_off[NAMES];
u8 n_len[NAMES];
u8 n_heap[NAME_HEAP];
static int32_t n_count, n_heap_used;
static int16_t n_bucket[NAME_BUCKETS];
static int16_t n_next[NAMES];
static int32_t n_last[NW];

// Overlapping exports: a record whose timestamp and cursor match one of the last CURSORS is a repeat.
enum { CURSORS = 4096, SLOT = 128 };
static double c_ts[CURSORS];
static int32_t c_len[CURSORS];   // > SLOT: a long cursor, kept as its first SLOT bytes and c_hash
static uint64_t c_hash[CURSORS];
static u8 c_bytes[CURSORS * SLOT];
static int32_t c_at;
static double c_max;

extern u8 __heap_base;
static inline uint32_t slot_of(uint32_t u) { return u & (TABLE - 1); }
// A key known by its length and two of its bytes: one table probe rejects most unwanted keys without
// reading the rest (every wanted key is over 3 bytes long).
static inline uint32_t key_hash(const u8 *k, int n) { return n < 4 ? 0 : (uint32_t)n * 37u + k[1] * 5u + k[n - 2]; }
static inline int is_space(int c) { return c == 32 || c == 9 || c == 10 || c == 13; }

static void reset_names(void) {
  for (int i = 0; i < NAME_BUCKETS; i++) n_bucket[i] = -1;
  for (int f = 0; f < NW; f++) n_last[f] = -1;
  n_count = n_heap_used = 0;
  r_gen++;
}

EXPORT("init") void init(void) {
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
  for (int i = 0; i < CURSORS; i++) c_ts[i] = __builtin_nan("");
  c_max = -__builtin_inf();
  c_at = 0;
  r_gen = 0;
  reset_names();
}

EXPORT("heapBase") uint32_t heap_base(void) { return (uint32_t)&__heap_base; }

// Where the results lie, in the order journal-lines-wasm.ts reads them.
static uint32_t where[21];
EXPORT("layout") uint32_t layout(void) {
  const void *at[21] = { e_ts, e_a, e_b, e_ms, e_me, e_container, e_unit, e_ident, e_cid, e_sid, e_status, e_kind,
                         e_flags, e_prio, &r_resume, &r_gen, n_off, n_len, e_cs, e_ce, e_emit };
  for (int i = 0; i < 21; i++) where[i] = (uint32_t)at[i];
  return (uint32_t)where;
}
EXPORT("names") uint32_t names(void) { return (uint32_t)n_heap; }

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

static uint32_t hash_bytes(const u8 *p, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

static int same(const u8 *x, const u8 *y, int n) {
  for (int i = 0; i < n; i++) if (x[i] != y[i]) return 0;
  return 1;
}

// The name's id (-1: not a string; -2: too long to intern, left to the JavaScript decoder).
static int32_t name(int f) {
  if (kind[f] != STR) return -1;
  int a = fstart[f], n = fend[f] - a;
  if (n > NAME_MAX) return -2;
  int last = n_last[f]; // a field mostly repeats its last value
  if (last >= 0 && n_len[last] == n && same(n_heap + n_off[last], in + a, n)) return last;
  uint32_t b = hash_bytes(in + a, n) & (NAME_BUCKETS - 1);
  for (int id = n_bucket[b]; id >= 0; id = n_next[id])
    if (n_len[id] == n && same(n_heap + n_off[id], in + a, n)) return n_last[f] = id;
  int id = n_count++;
  n_off[id] = (uint32_t)n_heap_used;
  n_len[id] = (u8)n;
  for (int i = 0; i < n; i++) n_heap[n_heap_used + i] = in[a + i];
  n_heap_used += n;
  n_next[id] = n_bucket[b];
  n_bucket[b] = (int16_t)id;
  return n_last[f] = id;
}

static int is_lit(int f, const char *lit) {
  if (kind[f] != STR) return 0;
  int a = fstart[f], n = fend[f] - a, i = 0;
  for (; i < n && lit[i]; i++) if (in[a + i] != (u8)lit[i]) return 0;
  return i == n && !lit[i];
}

static uint64_t hash64(const u8 *p, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// Seen already (then not kept again): the cursor p[0, n) at time ts. A cursor over SLOT bytes (journald's
// are ~100) is compared by its first SLOT bytes, its length and a 64-bit hash of all of it.
static int cursor_seen(const u8 *p, int n, double ts) {
  uint64_t h = n > SLOT ? hash64(p, n) : 0;
  int m = n > SLOT ? SLOT : n;
  if (ts <= c_max) {
    for (int i = 0; i < CURSORS; i++)
      if (c_ts[i] == ts && c_len[i] == n && same(c_bytes + i * SLOT, p, m) && (n <= SLOT || c_hash[i] == h)) return 1;
  } else c_max = ts;
  c_ts[c_at] = ts;
  c_len[c_at] = n;
  c_hash[c_at] = h;
  for (int i = 0; i < m; i++) c_bytes[c_at * SLOT + i] = p[i];
  c_at = (c_at + 1) % CURSORS;
  return 0;
}

// For the JavaScript decoder's lines: the cursor's UTF-8 bytes at p[0, n).
EXPORT("cursorSeen") int cursor_seen_at(const u8 *p, int n, double ts) { return cursor_seen(p, n, ts); }

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

// One trimmed line in[a, b) as entry k: 1 (FAST), 0 (SLOW: the JavaScript decoder reads it).
static int line(int a, int b, int k) {
  if (in[a] != '{' || in[b - 1] != '}' || !scan(a, b)) return 0;
  for (int f = 0; f < NW; f++)
    if (kind[f] == STR_ESC && f != F_MESSAGE) return 0;
  double rt = 0, srt = 0;
  if (kind[F_RT] == STR && (rt = number(F_RT)) < 0) return 0;
  if (kind[F_RT] != STR && kind[F_SRT] == STR && (srt = number(F_SRT)) < 0) return 0;
  int prio = -1;
  if (kind[F_PRIORITY] == STR) {
    if (fend[F_PRIORITY] - fstart[F_PRIORITY] != 1) return 0;
    prio = in[fstart[F_PRIORITY]] - '0';
    if (prio < 0 || prio > 9) return 0;
  }
  int32_t cid = name(F_CID), cname = name(F_CNAME), unit = name(F_UNIT), uunit = name(F_USER_UNIT),
          sunit = name(F_SYSTEMD_UNIT), ident = name(F_IDENT), comm = name(F_COMM), sid = name(F_STREAM);
  if (cid == -2 || cname == -2 || unit == -2 || uunit == -2 || sunit == -2 || ident == -2 || comm == -2 || sid == -2)
    return 0;
  int mk = kind[F_MESSAGE], ms = 0, me = 0, cs = 0, ce = 0, emit = EM_ONE, flags = 0;
  if (mk == STR) { ms = cs = fstart[F_MESSAGE]; me = ce = fend[F_MESSAGE]; mk = M_STR; }
  else if (mk == STR_ESC) {
    int nl = unescape_simple(fstart[F_MESSAGE], fend[F_MESSAGE], &ms, &me);
    if (nl < 0) return 0;
    mk = M_DEC;
    cs = ms;
    ce = me;
    if (nl > 0 && arena[me - 1] == '\n') { ce--; nl--; } // conmon keeps the newline
    if (nl > 0) emit = EM_LINES;
  } else if (mk == BYTES) {
    ms = bytes_a;
    me = bytes_a + bytes_n;
    mk = M_BYTES;
    if (bytes_high < 0x80) {
      flags |= FL_ASCII;
      int lines = clean_ascii(ms, me, &cs, &ce);
      if (lines == 1) ce--;
      else emit = EM_LINES;
    } else emit = EM_JS;
  } else mk = M_NONE;
  if (kind[F_CURSOR] == STR && cursor_seen(in + fstart[F_CURSOR], fend[F_CURSOR] - fstart[F_CURSOR], rt)) flags |= FL_DUP;
  int src = kind[F_CID] != ABSENT || kind[F_CNAME] != ABSENT ? 0 : is_lit(F_TRANSPORT, "stdout") ? 1 : 2;
  flags |= src;
  if (is_lit(F_PARTIAL, "true")) flags |= FL_PARTIAL;
  if (is_lit(F_LINE_BREAK, "line-max")) flags |= FL_LINE_MAX;
  if (kind[F_CID] != ABSENT) flags |= FL_CID;
  if (kind[F_STREAM] != ABSENT) flags |= FL_SID;
  e_ts[k] = kind[F_RT] == STR ? rt : srt;
  e_prio[k] = (int8_t)prio;
  e_container[k] = cname >= 0 ? cname : cid;
  e_unit[k] = unit >= 0 ? unit : uunit >= 0 ? uunit : sunit;
  e_ident[k] = ident >= 0 ? ident : comm;
  e_cid[k] = cid;
  e_sid[k] = sid;
  e_kind[k] = (u8)mk;
  const u8 *mb = mk == M_STR ? in : arena; // spans as addresses in memory
  e_ms[k] = (int32_t)(uintptr_t)(mb + ms);
  e_me[k] = (int32_t)(uintptr_t)(mb + me);
  e_cs[k] = (int32_t)(uintptr_t)(mb + cs);
  e_ce[k] = (int32_t)(uintptr_t)(mb + ce);
  e_emit[k] = (u8)emit;
  e_flags[k] = (u8)flags;
  return 1;
}

// The lines of base[from, end) (entries give addresses; r_resume is an offset from base) (end: just past the last whole line's newline, or the end of a last line);
// the arena (decoded messages) needs end - from bytes. Returns how many entries; r_resume: where to go on.
// Stops after a SLOW entry, so the JavaScript decoder reads that line before any later line is checked
// against the cursors it adds.
EXPORT("lines") int lines(u8 *base, int from, int end, u8 *arena_base) {
  in = base;
  arena = arena_base;
  arena_n = 0;
  int k = 0, a = from;
  while (a < end && k < MAXE) {
    // Eight names a line at most: a table that could overflow is started again between calls.
    if (n_count > NAMES - 8 || n_heap_used > NAME_HEAP - 8 * NAME_MAX) {
      if (k > 0) break;
      reset_names();
    }
    int e = find_nl(a, end), s = a, t = e;
    int next = e + 1;
    while (s < t && in[s] <= 32) s++;
    while (t > s && in[t - 1] <= 32) t--;
    if (s == t) { a = next; continue; }
    int mark = arena_n;
    e_a[k] = (int32_t)(uintptr_t)(in + s);
    e_b[k] = (int32_t)(uintptr_t)(in + t);
    if (line(s, t, k)) e_status[k++] = E_FAST;
    else {
      arena_n = mark;
      e_status[k++] = E_SLOW;
      a = next;
      break;
    }
    a = next;
  }
  r_resume = a;
  return k;
}
