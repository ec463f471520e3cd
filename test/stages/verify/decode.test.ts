// verify.decode: the judgement on SSE streams, and the real stream from the engine double run here on
// loopback (its decode rate depends on its argv, and FAKE_LOOP=1 makes it loop).
import { afterAll, describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import { checkDecode, judgeSample } from "../../../src/stages/verify/decode.js";
import { decodePrompt, decodeRequest } from "../../../src/stages/verify/decode-prompt.js";
import { parseSample } from "../../../src/stages/verify/decode-stream.js";
import { streamFromRunner } from "../../../src/ports/http/stream-route.js";
import { sseEvents, type StreamResult } from "../../../src/ports/http/sse.js";
import { engineDoubles } from "../../helpers/engine-double.js";

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = (p: number, c: number) =>
  `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: p, completion_tokens: c } })}\n\n`;
const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}x${(i * 7919) % 1000}`);

/** A stream: role chunk at 0, first token at ttft, the rest evenly to wall. */
function stream(
  tokens: string[],
  opts: { ttft: number; wall: number; completion: number; finish?: string; perChunk?: number; usage?: boolean },
): StreamResult {
  const per = opts.perChunk ?? 1;
  const pieces = [{ atMs: 0, text: chunk({ role: "assistant", content: "" }) }];
  const n = Math.ceil(tokens.length / per);
  for (let i = 0; i < n; i++)
    pieces.push({
      atMs: opts.ttft + ((opts.wall - opts.ttft) * i) / n,
      text: chunk({ content: `${tokens.slice(i * per, (i + 1) * per).join(" ")} ` }),
    });
  pieces.push({ atMs: opts.wall, text: chunk({}, opts.finish ?? "length") });
  if (opts.usage !== false) pieces.push({ atMs: opts.wall, text: usage(170, opts.completion) });
  pieces.push({ atMs: opts.wall, text: "data: [DONE]\n\n" });
  return { status: 200, events: sseEvents(pieces), wallMs: opts.wall, error: null };
}

const contract = (over: object = {}) =>
  endpointSchema.parse({ script: "s.sh", contracts: { decode: { minTokPerS: 20, ...over } } }).contracts.decode!;

describe("decode samples", () => {
  it("speed = completion_tokens / (wall - TTFT) from the usage counters, not from chunk counts", () => {
    // speculative decoding: 3 tokens per chunk, so only 86 chunks for 256 tokens
    const s = parseSample(stream(words(256), { ttft: 500, wall: 10_500, completion: 256, perChunk: 3 }));
    expect(s.chunks).toBe(86);
    const row = judgeSample(166, s, 256, 20);
    expect(row.valid).toBe(true);
    expect(row.ttftS).toBe(0.5);
    expect(row.decodeTokPerS).toBe(25.6);
  });

  it("reasoning counts once whether it comes as `reasoning`, `reasoning_content` or both (vLLM 0.11.2-0.15)", () => {
    const think = ["Let", " me", " think", "."];
    const streamOf = (field: (t: string) => object) => ({
      status: 200,
      wallMs: 1000,
      error: null,
      events: sseEvents([
        ...think.map((t, i) => ({ atMs: 100 + i, text: chunk(field(t)) })),
        { atMs: 200, text: chunk({ content: "Four." }, "stop") },
      ]),
    });
    const texts = [
      (t: string) => ({ reasoning: t }),
      (t: string) => ({ reasoning_content: t }),
      (t: string) => ({ reasoning: t, reasoning_content: t }),
    ].map((f) => parseSample(streamOf(f)));
    for (const s of texts) {
      expect(s.text).toBe("Let me think.Four.");
      expect(s.ttftMs).toBe(100);
      expect(s.chunks).toBe(5);
    }
  });

  it("an early stop, a wrong finish reason, a loop or missing usage is invalid, with no speed", () => {
    const early = judgeSample(
      166,
      parseSample(stream(words(200), { ttft: 100, wall: 2100, completion: 200, finish: "stop" })),
      256,
      1,
    );
    expect(early.valid).toBe(false);
    expect(early.decodeTokPerS).toBeNull();
    expect(early.problems.join(" ")).toMatch(/completion_tokens 200 != max_tokens 256.*finish_reason stop/);
    const looped = judgeSample(
      166,
      parseSample(
        stream([...words(20), ...Array.from({ length: 236 }, (_, i) => ["and", "the", "bells", "rang"][i % 4]!)], {
          ttft: 100,
          wall: 1100,
          completion: 256,
        }),
      ),
      256,
      1,
    );
    expect(looped.valid).toBe(false);
    expect(looped.decodeTokPerS).toBeNull();
    expect(looped.problems.join(" ")).toMatch(/loops/);
    const noUsage = judgeSample(
      166,
      parseSample(stream(words(256), { ttft: 100, wall: 1100, completion: 256, usage: false })),
      256,
      1,
    );
    expect(noUsage.problems.join(" ")).toMatch(/no usage counters/);
  });

  it("reports a per-depth table and fails below one floor per depth", () => {
    const c = contract({ minTokPerS: [30, 25, 20] });
    const ok = [
      stream(words(256), { ttft: 200, wall: 8200, completion: 256 }),
      stream(words(256), { ttft: 400, wall: 10_400, completion: 256 }),
      stream(words(256), { ttft: 900, wall: 11_900, completion: 256 }),
    ];
    const f = checkDecode(ok, c, "runner");
    expect(f.status).toBe("pass");
    expect(f.evidence![0]).toMatch(/^depth \| prompt tokens \| TTFT s \| decode tok\/s/);
    expect(f.evidence!.slice(1, 4).map((l) => l.split(" | ")[0])).toEqual(["166", "1087", "4064"]);
    // the same speeds against a stricter floor at the deepest depth only
    const strict = checkDecode(ok, contract({ minTokPerS: [30, 25, 24] }), "runner");
    expect(strict.status).toBe("fail");
    expect(strict.summary).toMatch(/depth 4064 \(23\.27 < 24 tok\/s\)/);
  });

  it("an invalid sample fails as invalid even when it looks fast; a failed request is a row too", () => {
    const fast = stream(
      ["go", "go", "go", "go"].flatMap(() => words(0)).concat(Array.from({ length: 256 }, () => "again")),
      { ttft: 10, wall: 1010, completion: 256 },
    );
    const f = checkDecode(
      [
        fast,
        { status: null, events: [], wallMs: 0, error: "connection refused" },
        { status: 400, events: [], wallMs: 3, error: null, body: "max_tokens too large" },
      ],
      contract(),
      "runner",
    );
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/3 of 3 decode sample\(s\) invalid/);
    expect(JSON.stringify(f.data)).not.toMatch(/"decodeTokPerS":\d/);
    expect(f.evidence!.join("\n")).toMatch(/connection refused[\s\S]*HTTP 400: max_tokens too large/);
  });

  it("asks for a streamed temperature-0 completion with usage, on natural text of about the depth", () => {
    const r = decodeRequest("qwen", 1087, 256);
    expect(r).toMatchObject({ temperature: 0, max_tokens: 256, stream: true, stream_options: { include_usage: true } });
    const words = decodePrompt(4064, 256).split(/\s+/).length;
    expect(words * 1.3).toBeGreaterThan(4064 * 0.9);
    expect(words * 1.3).toBeLessThan(4064 * 1.15);
  });
});

describe("decode against the engine double on loopback", () => {
  const doubles = engineDoubles();
  afterAll(() => doubles.stopAll());
  const engine = (args: string[], env: Record<string, string>) => doubles.start(args, env);

  const measure = async (url: string, depth: number) =>
    streamFromRunner(`${url}/v1/chat/completions`, decodeRequest("qwen", depth, 64), {}, 20_000);
  const c64 = (min: number) =>
    endpointSchema.parse({
      script: "s.sh",
      contracts: { decode: { minTokPerS: min, depths: [166, 1087], maxTokens: 64 } },
    }).contracts.decode!;

  // Floor 60 between 200 tok/s and the eighth of it --max-num-batched-tokens 1024 gives: over 3x either side,
  // so no stall of a loaded machine moves a sample across it (a rate is not asserted from above: a client
  // stalled at the first token reads the rest bunched).
  it("measures the rate the double's argv gives it, and fails the floor when a small --max-num-batched-tokens cuts it", async () => {
    const [fast, slow] = await Promise.all([
      engine([], { FAKE_DECODE_TOK_S: "200" }),
      engine(["--max-num-batched-tokens", "1024"], { FAKE_DECODE_TOK_S: "200" }),
    ]);
    const f = checkDecode([await measure(fast, 166), await measure(fast, 1087)], c64(60), "runner");
    expect(f.status, f.evidence?.join("\n")).toBe("pass");
    const rows = (f.data as { rows: { decodeTokPerS: number; ttftS: number; promptTokens: number }[] }).rows;
    for (const r of rows) expect(r.decodeTokPerS).toBeGreaterThan(60);
    // deeper prompts prefill longer
    expect(rows[1]!.promptTokens).toBeGreaterThan(rows[0]!.promptTokens * 4);
    const s = checkDecode([await measure(slow, 166), await measure(slow, 1087)], c64(60), "runner");
    expect(s.status).toBe("fail");
    expect(s.summary).toMatch(/decode below the contract/);
    for (const r of (s.data as { rows: { decodeTokPerS: number }[] }).rows) expect(r.decodeTokPerS).toBeLessThan(60);
  }, 60_000);

  it("a looping engine's fast samples are invalid, never a speed", async () => {
    const url = await engine([], { FAKE_DECODE_TOK_S: "400", FAKE_LOOP: "1" });
    const f = checkDecode([await measure(url, 166), await measure(url, 1087)], c64(10), "runner");
    expect(f.status).toBe("fail");
    expect(f.summary).toMatch(/2 of 2 decode sample\(s\) invalid/);
    expect(f.evidence!.join("\n")).toMatch(/loops/);
  }, 60_000);
});

describe("decode depths longer than the endpoint's context", () => {
  it("a depth that does not fit max-model-len is not sent: the others are judged and the check warns with the depth bound", () => {
    const c = contract();
    const ok = stream(words(256), { ttft: 500, wall: 10_500, completion: 256 });
    const f = checkDecode([ok, ok, null], c, "runner", 4096);
    expect(f.status).toBe("warn");
    expect(f.summary).toBe(
      "decode 25.6 tok/s @ 166, 25.6 tok/s @ 1087; depth 4064 not measured: longer than the endpoint's context (max-model-len 4096)",
    );
    expect(f.fix).toMatch(/keep its depths at or below 3776, or raise the engine's context/);
  });

  it("the engine's own 400 for a too-long request is the same, never an invalid sample with a numerics fix", () => {
    const c = contract();
    const ok = stream(words(256), { ttft: 500, wall: 10_500, completion: 256 });
    const tooLong = {
      status: 400,
      events: [],
      wallMs: 20,
      error: null,
      body: JSON.stringify({
        object: "error",
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 4384 tokens (4128 in the messages, 256 in the completion).",
        type: "BadRequestError",
        code: 400,
      }),
    };
    const f = checkDecode([ok, ok, tooLong], c, "runner");
    expect(f.status).toBe("warn");
    expect(f.fix).not.toMatch(/numerics/);
    // any other 400 is still an invalid sample
    const other = checkDecode([ok, ok, { ...tooLong, body: '{"message":"bad request"}' }], c, "runner");
    expect(other.status).toBe("fail");
  });
});
