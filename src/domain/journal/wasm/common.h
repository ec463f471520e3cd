// What the journal decoder's C files share (one translation unit, lines.c, so clang inlines across them):
// the wanted journald fields, the bytes of the current call and the arena its decoded messages go to.
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

static u8 *in;          // the bytes of the call
static u8 *arena;       // decoded messages, valid until the next call
static int32_t arena_n;

static inline int is_space(int c) { return c == 32 || c == 9 || c == 10 || c == 13; }

static int same(const u8 *x, const u8 *y, int n) {
  for (int i = 0; i < n; i++) if (x[i] != y[i]) return 0;
  return 1;
}
