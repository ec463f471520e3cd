// verify.decode: the decode-speed contract measured the seed's way (seed 003, "Measure ONLY via usage
// counters"): decode tok/s = completion_tokens / (wall - TTFT), per context depth. A sample that stopped
// short, did not end on `length`, or loops is reported as invalid, never as a speed. Pure.
import type { DecodeContract } from "../../domain/config/schema.js";
import { fail, pass, warn, type Finding } from "../../domain/report/finding.js";
import { parseSample, type DecodeSample } from "./decode-stream.js";
import { detectLoop } from "./repetition.js";
import type { StreamResult } from "../../ports/http/sse.js";

export const CHECK = "verify.decode";

export interface DepthRow {
  depth: number;
  promptTokens: number | null;
  ttftS: number | null;
  decodeTokPerS: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  valid: boolean;
  /** why the sample is invalid (or the request failed); empty when valid */
  problems: string[];
  floor: number;
  /**
   * not measured: the depth with max_tokens does not fit the endpoint's context (a contract that asks too much, not a
   * fault)
   */
  unfit?: boolean;
}

/**
 * Tokens the chat template adds around the measured prompt: a depth fits when depth + max_tokens + this <=
 * max-model-len.
 */
export const TEMPLATE_TOKENS = 64;

/** Whether a depth can be asked of an endpoint serving maxModelLen tokens (null: unknown, so asked). */
export function fits(depth: number, maxTokens: number, maxModelLen: number | null): boolean {
  return maxModelLen === null || depth + maxTokens + TEMPLATE_TOKENS <= maxModelLen;
}

/** An engine's 400 for a request longer than its context (vLLM, SGLang, llama.cpp wordings). */
const TOO_LONG =
  /maximum context length|max_model_len|context length|exceeds the available context size|exceed_context_size/i;

const r2 = (x: number) => Math.round(x * 100) / 100;

export function judgeSample(depth: number, s: DecodeSample, maxTokens: number, floor: number): DepthRow {
  const problems: string[] = [];
  if (s.completionTokens === null)
    problems.push(
      "no usage counters in the stream (send stream_options.include_usage; an engine without them cannot be measured)",
    );
  else if (s.completionTokens !== maxTokens)
    problems.push(
      `completion_tokens ${s.completionTokens} != max_tokens ${maxTokens} (early EOS or a repetition halt)`,
    );
  if (s.finishReason !== "length") problems.push(`finish_reason ${s.finishReason ?? "missing"}, not "length"`);
  const loop = detectLoop(s.text);
  if (loop.looping)
    problems.push(
      `the text loops ("${loop.block ?? ""}" x${loop.repeats}, ${Math.round(loop.distinct4 * 100)}% distinct 4-grams): a loop fakes decode speed`,
    );
  if (s.ttftMs === null) problems.push("no content or reasoning token arrived");
  const decodeS = s.ttftMs === null ? 0 : (s.wallMs - s.ttftMs) / 1000;
  const valid = problems.length === 0 && decodeS > 0;
  return {
    depth,
    promptTokens: s.promptTokens,
    ttftS: s.ttftMs === null ? null : r2(s.ttftMs / 1000),
    decodeTokPerS: valid ? r2(s.completionTokens! / decodeS) : null,
    completionTokens: s.completionTokens,
    finishReason: s.finishReason,
    valid,
    problems,
    floor,
  };
}

export function floors(c: DecodeContract): number[] {
  return c.depths.map((_, i) => (Array.isArray(c.minTokPerS) ? c.minTokPerS[i]! : c.minTokPerS));
}

export function renderTable(rows: readonly DepthRow[]): string[] {
  const head = "depth | prompt tokens | TTFT s | decode tok/s | floor | validity";
  return [
    head,
    ...rows.map((r) =>
      [
        r.depth,
        r.promptTokens ?? "?",
        r.ttftS ?? "?",
        r.decodeTokPerS ?? "-",
        r.floor,
        r.valid ? "valid" : r.unfit ? `not measured: ${r.problems.join("; ")}` : `INVALID: ${r.problems.join("; ")}`,
      ].join(" | "),
    ),
  ];
}

/**
 * One streamed result per declared depth, in the contract's order (null: not sent, the depth does not fit
 * maxModelLen); a failed request is an invalid row, one refused as too long a row not measured.
 */
export function checkDecode(
  results: readonly (StreamResult | null)[],
  c: DecodeContract,
  via: string,
  maxModelLen: number | null = null,
): Finding {
  const fl = floors(c);
  const rows = results.map((r, i): DepthRow => {
    const depth = c.depths[i]!;
    const unfit = (why: string): DepthRow => ({
      depth,
      promptTokens: null,
      ttftS: null,
      decodeTokPerS: null,
      completionTokens: null,
      finishReason: null,
      valid: false,
      unfit: true,
      problems: [why],
      floor: fl[i]!,
    });
    if (r === null)
      return unfit(`depth ${depth} + max_tokens ${c.maxTokens} does not fit max-model-len ${maxModelLen}`);
    if (r.status === 400 && TOO_LONG.test(r.body ?? ""))
      return unfit(`the engine refused it as longer than its context: ${(r.body ?? "").slice(0, 160)}`);
    if (r.status !== 200) {
      const why =
        r.status === null ? `no answer: ${r.error ?? "unknown"}` : `HTTP ${r.status}: ${(r.body ?? "").slice(0, 200)}`;
      return {
        depth,
        promptTokens: null,
        ttftS: null,
        decodeTokPerS: null,
        completionTokens: null,
        finishReason: null,
        valid: false,
        problems: [why],
        floor: fl[i]!,
      } satisfies DepthRow;
    }
    return judgeSample(depth, parseSample(r), c.maxTokens, fl[i]!);
  });
  const evidence = [
    ...renderTable(rows),
    `measured from ${via}: decode = completion_tokens / (wall - TTFT), temperature 0, max_tokens ${c.maxTokens}`,
  ];
  const data = { rows, maxTokens: c.maxTokens };
  const invalid = rows.filter((r) => !r.valid && !r.unfit);
  const unfit = rows.filter((r) => r.unfit);
  const slow = rows.filter((r) => r.valid && r.decodeTokPerS! < r.floor);
  if (invalid.length > 0) {
    return fail(
      CHECK,
      `${invalid.length} of ${rows.length} decode sample(s) invalid (depth ${invalid.map((r) => r.depth).join(", ")}): no speed is reported for them`,
      {
        evidence,
        data,
        fix: "an invalid sample is a correctness problem before a speed one: read the text (loops point at numerics, e.g. TunableOp or a bad quant kernel), check the engine honours max_tokens, then rerun deploy-gate verify",
      },
    );
  }
  if (slow.length > 0) {
    return fail(
      CHECK,
      `decode below the contract at depth ${slow.map((r) => `${r.depth} (${r.decodeTokPerS} < ${r.floor} tok/s)`).join(", ")}`,
      {
        evidence,
        data,
        fix: "compare the live argv with the last passing deploy (verify.argv): spec depth, expert prefetch and gather knobs move decode; --max-num-batched-tokens only re-chunks prefill",
      },
    );
  }
  const measured = rows
    .filter((r) => r.valid)
    .map((r) => `${r.decodeTokPerS} tok/s @ ${r.depth}`)
    .join(", ");
  if (unfit.length > 0) {
    const room = maxModelLen === null ? null : maxModelLen - c.maxTokens - TEMPLATE_TOKENS;
    return warn(
      CHECK,
      `${measured ? `decode ${measured}; ` : ""}depth ${unfit.map((r) => r.depth).join(", ")} not measured: longer than the endpoint's context${maxModelLen === null ? "" : ` (max-model-len ${maxModelLen})`}`,
      {
        evidence,
        data,
        fix: `contracts.decode asks for more context than this endpoint serves: keep its depths at or below ${room ?? "max-model-len minus maxTokens and ~64 template tokens"}, or raise the engine's context (--max-model-len) if clients need it`,
      },
    );
  }
  return pass(CHECK, `decode ${measured}, all samples valid`, { evidence, data });
}
