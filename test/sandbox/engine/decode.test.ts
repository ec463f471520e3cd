// The double's decode model: an argv-dependent rate, a timed stream with the usage chunk, long answers
// when asked for them, and FAKE_LOOP. Pure (api.ts builds the timed stream; main.ts only plays it).
import { describe, expect, it } from "vitest";
import { chat } from "./api.js";
import { newCounters } from "./http.js";
import { askedWords, longAnswer } from "./decode.js";
import { makePlan } from "./plan.js";

const counters = newCounters;
const ask = (extra: object = {}) =>
  JSON.stringify({
    temperature: 0,
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: "user", content: "The clerk counted crates. Continue this account for at least 100 words." }],
    ...extra,
  });
const dataOf = (text: string) =>
  JSON.parse(text.replace(/^data: /, "").trim()) as {
    choices: { delta: { content?: string }; finish_reason: string | null }[];
    usage?: { completion_tokens: number; prompt_tokens: number };
  };

describe("engine double decode", () => {
  it("decodes at FAKE_DECODE_TOK_S, cut to an eighth by --max-num-batched-tokens 1024, slower with --enforce-eager", () => {
    expect(makePlan(["/m"], { FAKE_DECODE_TOK_S: "50" }).decode.decodeTokPerS).toBe(50);
    expect(makePlan(["/m", "--max-num-batched-tokens", "1024"], { FAKE_DECODE_TOK_S: "50" }).decode.decodeTokPerS).toBe(
      6.25,
    );
    expect(makePlan(["/m", "--max-num-batched-tokens", "8192"], { FAKE_DECODE_TOK_S: "50" }).decode.decodeTokPerS).toBe(
      50,
    );
    expect(makePlan(["/m", "--enforce-eager"], { FAKE_DECODE_TOK_S: "50" }).decode.decodeTokPerS).toBe(30);
  });

  it("streams max_tokens tokens after the TTFT at the rate, finish length, then the usage chunk", () => {
    const r = chat(makePlan(["/m"], { FAKE_DECODE_TOK_S: "100", FAKE_PREFILL_TOK_S: "1000" }), ask(), counters(), 0);
    const timed = r.timed!;
    const content = timed.filter((p) => p.text.includes('"content"') && !p.text.includes('"role"'));
    const prompt = dataOf(timed.at(-2)!.text).usage!.prompt_tokens;
    expect(content[0]!.atMs).toBe(Math.round(20 + prompt));
    expect(content.at(-1)!.atMs - content[0]!.atMs).toBe(630); // 63 gaps of 10 ms
    const usage = dataOf(timed.at(-2)!.text);
    expect(usage.choices).toEqual([]);
    expect(usage.usage!.completion_tokens).toBe(64);
    expect(dataOf(timed.at(-3)!.text).choices[0]!.finish_reason).toBe("length");
    expect(timed.at(-1)!.text).toBe("data: [DONE]\n\n");
    expect(r.body).toBe(timed.map((p) => p.text).join(""));
  });

  it("sends several tokens per chunk under speculative decoding, and no usage chunk unless asked", () => {
    const r = chat(
      makePlan(["/m", "--speculative-config", '{"method":"mtp","num_speculative_tokens":2}'], {}),
      ask({ stream_options: undefined }),
      counters(),
      0,
    );
    const content = r.timed!.filter((p) => p.text.includes('"content"') && !p.text.includes('"role"'));
    expect(content.length).toBeLessThan(30);
    expect(r.body).not.toContain('"usage"');
  });

  it("writes long varied prose when asked for N words, and loops with FAKE_LOOP=1", () => {
    expect(askedWords("for at least 256 words.")).toBe(256);
    const prose = longAnswer("p", 120, false).split(" ");
    expect(prose).toHaveLength(120);
    expect(new Set(prose).size).toBeGreaterThan(50);
    const r = chat(makePlan(["/m"], { FAKE_LOOP: "1" }), ask(), counters(), 0);
    const text = r
      .timed!.map((p) => (p.text.startsWith("data: {") ? (dataOf(p.text).choices[0]?.delta.content ?? "") : ""))
      .join("");
    expect(text.match(/and the bells rang again/g)!.length).toBeGreaterThan(5);
  });
});
