import { describe, expect, it } from "vitest";
import { decisiveOf, isSkeleton, reassembleTracebacks } from "../../../src/domain/diagnosis/traceback.js";
import { fixtureLines } from "../../fixtures/journal/classes/fixture.js";

describe("reassembleTracebacks", () => {
  it("filters frames, source lines, carets, raise and elisions, keeping content lines once", () => {
    const tbs = reassembleTracebacks(fixtureLines("dynamo-shape.log"));
    expect(tbs).toHaveLength(1); // EngineCore's continues the worker's: no ordinary record between them
    const tb = tbs[0]!;
    expect(tb.frames).toBe(3);
    expect(tb.content.some((c) => /File "|\^\^\^|~~~|<2 lines>|^raise /.test(c))).toBe(false);
    expect(tb.content).toContain("EngineCore failed to start.");
    expect(tb.content.at(-1)).toBe(
      "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {'EngineCore_DP0': 1}",
    );
  });

  it("picks the last content line that is not the wrapper", () => {
    const tbs = reassembleTracebacks(fixtureLines("no-gpus.log"));
    expect(decisiveOf(tbs.at(-1)!)).toBe("RuntimeError: No CUDA GPUs are available");
  });

  it("ends a traceback at an ordinary INFO record", () => {
    const tbs = reassembleTracebacks([
      "Traceback (most recent call last):",
      "ValueError: x",
      "INFO 01-01 00:00:00 [a.py:1] later",
      "KeyError: not in a traceback",
    ]);
    expect(tbs).toHaveLength(1);
    expect(tbs[0]!.content).toEqual(["ValueError: x"]);
  });
});

describe("isSkeleton", () => {
  it.each([
    '  File "/x.py", line 3, in f',
    "    ^^^^^^",
    "    ~~~~^^^",
    "    ...<3 lines>...",
    "    raise RuntimeError(",
    "Traceback (most recent call last):",
  ])("%s", (l) => {
    expect(isSkeleton(l)).toBe(true);
  });
  it("keeps an exception line", () => {
    expect(isSkeleton("ValueError: To serve at least one request")).toBe(false);
  });
});
