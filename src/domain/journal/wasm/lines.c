// The journal decoder's per-line work in WebAssembly (built by scripts/build-wasm.mjs into
// ../journal-lines-wasm.ts): each `journalctl -o json` line's wanted fields found by walking its keys, its
// head (time, priority, names, podman source, piece flags), MESSAGE decoded (simple escapes undone, a byte
// array made bytes, an ASCII one cleaned) and the overlapping-export cursor check. Done in JavaScript, this
// work cost as much again in V8's compiling as in running on a 50 MB dump; the JavaScript decoder now makes
// one string and one record per line. Anything unusual (escaped keys or names, numbers as text it would
// have to parse, an escape other than \" \\ \/ \n \t) is a SLOW entry: the JavaScript decoder reads that
// line as before (journal.ts), so both paths mean the same.
//
// One translation unit: the headers hold the parts (common.h, scan.h the key walk, seen.h names and
// cursors, text.h escapes and cleaning, automaton.h the diagnosis's literal table) and this file the entries and
// the exports.
#include "common.h"

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

#include "scan.h"
#include "seen.h"
#include "text.h"
#include "automaton.h"

extern u8 __heap_base;

EXPORT("init") void init(void) {
  init_keys();
  init_seen();
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

// For the JavaScript decoder's lines: the cursor's UTF-8 bytes at p[0, n).
EXPORT("cursorSeen") int cursor_seen_at(const u8 *p, int n, double ts) { return cursor_seen(p, n, ts); }

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
