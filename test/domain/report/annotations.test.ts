// GitHub shows at most 10 error and 10 warning annotations per step and drops the rest silently: the
// step's own error (setFailed) must stay visible, and a note must say what did not fit.
import { describe, expect, it } from "vitest";
import { annotationsOf, stepFailure } from "../../../src/domain/report/annotations.js";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { verdictOf } from "../../../src/domain/report/finding.js";

const report = (findings: Finding[]): Report => ({
  schema: 1,
  tool: { name: "deploy-gate", version: "0.1.0" },
  command: "preflight",
  endpoint: "archon",
  ref: { name: "main", sha: null },
  verdict: verdictOf(findings),
  durationMs: 1,
  findings,
});
const many = (n: number, status: Finding["status"], check = "preflight.traps"): Finding[] =>
  Array.from({ length: n }, (_, i) => ({
    check,
    status,
    summary: `${status}${i}`,
    file: "s.sh",
    line: i + 1,
    fix: "do x",
  }));
const errors = (a: ReturnType<typeof annotationsOf>) => a.filter((x) => x.level === "error");
const warnings = (a: ReturnType<typeof annotationsOf>) => a.filter((x) => x.level === "warning");

describe("annotations", () => {
  it("leaves one error slot for the step's own failure, and says how many failures did not fit", () => {
    const a = annotationsOf(
      report([
        ...many(13, "fail"),
        { check: "preflight.history", status: "fail", summary: "no file" },
        ...many(1, "warn"),
      ]),
    );
    // 8 file errors + the note, and setFailed's error makes 10
    expect(errors(a)).toHaveLength(9);
    expect(a[0]).toEqual({
      level: "error",
      title: "deploy-gate preflight.traps",
      message: "fail0\nFix: do x",
      file: "s.sh",
      startLine: 1,
    });
    const note = errors(a).at(-1)!;
    expect(note.file).toBeUndefined();
    expect(note.message).toMatch(/^5 more failures at file lines .*see the job summary$/);
    expect(warnings(a)).toHaveLength(1);
  });

  it("needs no note when the failures fit beside the step's own error", () => {
    const a = annotationsOf(report(many(9, "fail")));
    expect(errors(a)).toHaveLength(9);
    expect(a.every((x) => x.file)).toBe(true);
    const b = annotationsOf(report(many(10, "fail")));
    expect(errors(b)).toHaveLength(9);
    expect(errors(b).filter((x) => !x.file)).toHaveLength(1);
  });

  it("keeps warnings at 10 too, the last one saying how many more are in the summary", () => {
    const a = annotationsOf(report(many(12, "warn")));
    expect(errors(a)).toEqual([]);
    expect(warnings(a)).toHaveLength(10);
    expect(warnings(a).at(-1)).toMatchObject({
      level: "warning",
      message: expect.stringMatching(/^3 more warnings at file lines/),
    });
    expect(warnings(a).at(-1)!.file).toBeUndefined();
  });

  it("when both overflow, one error note counts both and the warnings keep their 10 slots", () => {
    const a = annotationsOf(report([...many(15, "fail"), ...many(12, "warn")]));
    expect(errors(a)).toHaveLength(9);
    expect(errors(a).at(-1)!.message).toMatch(/^7 more failures and 2 more warnings at file lines/);
    expect(warnings(a)).toHaveLength(10);
    expect(warnings(a).every((x) => x.file)).toBe(true);
  });

  it("puts shellcheck's warnings last, so they never crowd out a dropped flag", () => {
    const dropped: Finding = {
      check: "preflight.dropped-flags",
      status: "warn",
      summary: "--enable-prefix-caching dropped",
      file: "s.sh",
      line: 40,
    };
    const a = annotationsOf(report([...many(10, "warn", "preflight.shellcheck"), dropped, { ...dropped, line: 41 }]));
    expect(
      warnings(a)
        .map((x) => x.title)
        .slice(0, 2),
    ).toEqual(["deploy-gate preflight.dropped-flags", "deploy-gate preflight.dropped-flags"]);
    expect(
      warnings(a)
        .map((x) => x.startLine)
        .slice(0, 3),
    ).toEqual([40, 41, 1]); // stable otherwise
    expect(warnings(a).at(-1)!.message).toMatch(/^3 more warnings/);
  });
});

describe("the step's own error", () => {
  it("names the failed checks, each once", () => {
    const r = report([
      ...many(2, "fail", "preflight.contracts"),
      ...many(1, "fail", "preflight.dropped-flags"),
      ...many(1, "warn", "preflight.shellcheck"),
    ]);
    expect(stepFailure(r)).toBe(
      "deploy-gate preflight: fail (preflight.contracts, preflight.dropped-flags); see the job summary",
    );
  });
  it("names the warned checks when fail-on-warn failed the step", () => {
    expect(stepFailure(report(many(2, "warn", "preflight.shellcheck")))).toBe(
      "deploy-gate preflight: warn (preflight.shellcheck); see the job summary",
    );
  });
});
