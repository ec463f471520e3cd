// How fast the double decodes and what it writes when asked for a long answer. Pure: api.ts times the
// stream with these, main.ts plays it. The rate depends on the argv, so verify.decode has something real
// to measure: a small --max-num-batched-tokens or --enforce-eager slows it.
import { createHash } from "node:crypto";

export interface DecodeModel {
  decodeTokPerS: number;
  prefillTokPerS: number;
  loop: boolean;
}

type Flags = ReadonlyMap<string, string | true>;
const envNum = (env: Record<string, string | undefined>, k: string, d: number) =>
  env[k] !== undefined && Number.isFinite(Number(env[k])) && Number(env[k]) > 0 ? Number(env[k]) : d;

export function decodeModel(flags: Flags, env: Record<string, string | undefined>): DecodeModel {
  let rate = envNum(env, "FAKE_DECODE_TOK_S", 40);
  const mnbt = Number(flags.get("max-num-batched-tokens"));
  // Below 2048, in proportion to a step of 8192 (1024: an eighth): far enough below any floor a test sets
  // that a loaded machine's stalls cannot blur a slow argv into a passing one.
  if (Number.isFinite(mnbt) && mnbt < 2048) rate *= Math.max(mnbt, 1) / 8192;
  if (flags.has("enforce-eager")) rate *= 0.6;
  return { decodeTokPerS: rate, prefillTokPerS: envNum(env, "FAKE_PREFILL_TOK_S", 8000), loop: env.FAKE_LOOP === "1" };
}

const OPEN = [
  "Later that week",
  "By the next morning",
  "Meanwhile",
  "Some years before",
  "Across the water",
  "In the meantime",
  "That winter",
  "At the same hour",
];
const WHO = [
  "a carpenter named Ilse",
  "the harbor master",
  "two cousins from the hills",
  "a clerk with ink-stained cuffs",
  "the schoolteacher",
  "an old fisherman",
  "a stranger with a mule",
  "the baker's daughter",
];
const DID = [
  "rebuilt the broken jetty",
  "found a map in a tin box",
  "argued about the price of salt",
  "walked the long road to the mill",
  "counted birds along the dunes",
  "painted the shutters green",
  "opened a small reading room",
  "carried letters over the ridge",
];
const WHY = [
  "because the spring was late",
  "so the ferry could land again",
  "though the wind was against them",
  "before the lamps were lit",
  "while the rain kept falling",
  "as the town slowly woke",
  "for reasons nobody wrote down",
  "and kept a careful ledger of it",
];

/** `words` words of varied prose (temperature 0: fixed by the seed), or, looping, one phrase over and over. */
export function longAnswer(seed: string, words: number, loop: boolean): string {
  const h = createHash("sha256").update(seed).digest();
  const out: string[] = [];
  for (let i = 0; out.length < words; i++) {
    if (loop && i > 0) {
      out.push(..."and the bells rang again".split(" "));
      continue;
    }
    const k = (h[i % 32]! + i) | 0;
    const s = `${OPEN[k % 8]}, ${WHO[(k >> 1) % 8]} ${DID[(k + i) % 8]} ${WHY[(k * 3 + i) % 8]} (${i + 1}).`;
    out.push(...s.split(" "));
  }
  return out.slice(0, words).join(" ");
}

/** Asked for "at least N words" (as verify.decode's prompt does): a real model writes at least that. */
export function askedWords(prompt: string): number | null {
  const m = /at least (\d+) words/.exec(prompt);
  return m ? Number(m[1]) : null;
}
