// What the decoder remembers across lines: interned names (a field's repeated value is one id) and the
// ring of recent cursors (overlapping exports repeat records).

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
enum { CURSORS = 4096, SLOT = 256 };
static double c_ts[CURSORS];
static int32_t c_len[CURSORS];   // > SLOT: a long cursor, kept as its first SLOT bytes and c_hash
static uint64_t c_hash[CURSORS];
static u8 c_bytes[CURSORS * SLOT];
static int32_t c_at;
static double c_max;

static void reset_names(void) {
  for (int i = 0; i < NAME_BUCKETS; i++) n_bucket[i] = -1;
  for (int f = 0; f < NW; f++) n_last[f] = -1;
  n_count = n_heap_used = 0;
  r_gen++;
}

static void init_seen(void) {
  for (int i = 0; i < CURSORS; i++) c_ts[i] = __builtin_nan("");
  c_max = -__builtin_inf();
  c_at = 0;
  r_gen = 0;
  reset_names();
}

static uint32_t hash_bytes(const u8 *p, int n) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
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

static uint64_t hash64(const u8 *p, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// Seen already (then not kept again): the cursor p[0, n) at time ts. A cursor over SLOT bytes (journald's
// are 100-140) is compared by its first SLOT bytes, its length and a 64-bit hash of all of it.
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
