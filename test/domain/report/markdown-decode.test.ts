// The job summary shows verify.decode's per-depth table, also when the contract passes.
import { describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import type { Report } from "../../../src/domain/report/finding.js";
import { renderMarkdown } from "../../../src/domain/report/markdown.js";
import { checkDecode } from "../../../src/stages/verify/decode.js";
import { sseEvents } from "../../../src/ports/http/sse.js";

const sample = (tokens: string[], wall: number, completion: number) => {
  const pieces = [{ atMs: 0, text: 'data: {"choices":[{"delta":{"role":"assistant","content":""}}]}\n\n' }];
  tokens.forEach((t, i) =>
    pieces.push({
      atMs: 200 + ((wall - 200) * i) / tokens.length,
      text: `data: ${JSON.stringify({ choices: [{ delta: { content: `${t} ` } }] })}\n\n`,
    }),
  );
  pieces.push({
    atMs: wall,
    text: `data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: "length" }] })}\n\ndata: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 170, completion_tokens: completion } })}\n\n`,
  });
  return { status: 200, events: sseEvents(pieces), wallMs: wall, error: null };
};

describe("decode table in the job summary", () => {
  it("renders one row per depth with TTFT, tok/s and validity", () => {
    const c = endpointSchema.parse({ script: "s", contracts: { decode: { minTokPerS: 10, depths: [166, 1087] } } })
      .contracts.decode!;
    const words = Array.from({ length: 256 }, (_, i) => `w${i}q${(i * 31) % 97}`);
    const f = checkDecode([sample(words, 10_200, 256), sample(words.slice(0, 100), 5200, 100)], c, "runner");
    const report: Report = {
      schema: 1,
      tool: { name: "deploy-gate", version: "0" },
      command: "verify",
      endpoint: "e",
      ref: { name: "main", sha: null },
      verdict: f.status === "pass" ? "pass" : "fail",
      durationMs: 1,
      findings: [f],
    };
    const md = renderMarkdown(report);
    expect(md).toContain("| depth | prompt tokens | TTFT s | decode tok/s | floor | validity |");
    expect(md).toContain("| 166 | 170 | 0.2 | 25.6 | 10 | valid |");
    expect(md).toMatch(
      /\| 1087 \| 170 \| 0\.2 \| — \| 10 \| invalid: completion\\?_tokens 100 \\?!= max\\?_tokens 256/,
    );
    // a passing decode alone still gets its table
    const pass = checkDecode([sample(words, 10_200, 256)], { ...c, depths: [166] }, "runner");
    expect(pass.status).toBe("pass");
    expect(renderMarkdown({ ...report, verdict: "pass", findings: [pass] })).toContain(
      "| 166 | 170 | 0.2 | 25.6 | 10 | valid |",
    );
  });
});
