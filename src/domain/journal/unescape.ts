// A JSON string's escapes undone on its bytes, for the escapes a log line mostly carries: an access log's
// `\"`, conmon's trailing `\n`, `\\`, `\/`, `\t`. Saves making the escaped text a string and JSON.parse'ing
// it, per line. Pure.

const BACKSLASH = 92;

/** Byte for the character after a backslash, or -1 for one left to JSON.parse (\u, \r, \b, \f, invalid). */
const SIMPLE = new Int16Array(128).fill(-1);
SIMPLE[34] = 34; // \"
SIMPLE[92] = 92; // \\
SIMPLE[47] = 47; // \/
SIMPLE[110] = 10; // \n
SIMPLE[116] = 9; // \t

/**
 * The bytes of the string value src[a, e) (between its quotes) with its escapes undone, into out from 0:
 * their length, or -1 when it holds another escape or a raw control byte (the caller parses it instead,
 * and JSON.parse refuses a raw control byte as the reference decoder does). out must hold e - a bytes.
 */
export function unescapeSimple(src: Buffer, a: number, e: number, out: Buffer): number {
  let n = 0;
  for (let i = a; i < e; i++) {
    let c = src[i]!;
    if (c === BACKSLASH) {
      const x = src[++i]!;
      c = x < 128 && i < e ? SIMPLE[x]! : -1;
      if (c < 0) return -1;
    } else if (c < 32) return -1;
    out[n++] = c;
  }
  return n;
}
