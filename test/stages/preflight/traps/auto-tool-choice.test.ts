// auto-tool-choice on a script that always passes --enable-auto-tool-choice and adds --tool-call-parser only when a
// variable the file never sets has a value (round AI's privatebox launcher): a run without it is refused by vLLM.
import { describe, expect, it } from "vitest";
import { checkTraps } from "../../../../src/stages/preflight/traps/check-traps.js";
import { parseServeScript } from "../../../../src/domain/launch/parse.js";

const hits = (script: string) =>
  checkTraps({ script: parseServeScript(script), scriptPath: "serve.sh", unit: null }, {})
    .filter((f) => f.status !== "pass" && f.data?.rule === "auto-tool-choice")
    .map((f) => [f.line, f.summary.split(":")[0]]);

const script = (parser: string) =>
  [
    "#!/bin/bash",
    parser,
    "CMD=(python3 -m vllm.entrypoints.openai.api_server --model m",
    "  --enable-auto-tool-choice",
    ")",
    'if [[ -n "$TOOL_PARSER_FLAG" ]]; then CMD+=($TOOL_PARSER_FLAG); fi',
    'exec "${CMD[@]}"',
    "",
  ].join("\n");

describe("auto-tool-choice with the parser from outside the file", () => {
  it("fails where only a variable the file never sets brings the parser", () => {
    const outside = script(
      'TOOL_PARSER_FLAG=""; if [[ -n "$TOOL_CALL_PARSER" ]]; then TOOL_PARSER_FLAG="--tool-call-parser $TOOL_CALL_PARSER"; fi',
    );
    expect(hits(outside)).toEqual([
      [
        4,
        "--enable-auto-tool-choice is always set, --tool-call-parser only when a variable this file never sets has a value",
      ],
    ]);
    const expansion = [
      "#!/bin/bash",
      'vllm serve m --enable-auto-tool-choice ${TOOL_CALL_PARSER:+--tool-call-parser "$TOOL_CALL_PARSER"}',
      "",
    ].join("\n");
    expect(hits(expansion).map(([line]) => line)).toEqual([2]);
  });

  it("passes where the file gives the parser a default", () => {
    const dflt = script(
      'TOOL_CALL_PARSER="${TOOL_CALL_PARSER:-hermes}"; TOOL_PARSER_FLAG="--tool-call-parser $TOOL_CALL_PARSER"',
    );
    expect(hits(dflt)).toEqual([]);
    const expansion = [
      "#!/bin/bash",
      'P="${P:-hermes}"',
      'vllm serve m --enable-auto-tool-choice ${P:+--tool-call-parser "$P"}',
      "",
    ].join("\n");
    expect(hits(expansion)).toEqual([]);
  });

  it("passes where auto tool choice comes with the parser under the same test", () => {
    const both = [
      "#!/bin/bash",
      'vllm serve m ${TOOL_CALL_PARSER:+--enable-auto-tool-choice --tool-call-parser "$TOOL_CALL_PARSER"}',
      "",
    ].join("\n");
    expect(hits(both)).toEqual([]);
  });
});
