import { describe, expect, it } from "vitest";
import { exitCodeOf, verdictOf, type Report } from "../../../src/domain/report/finding.js";
import { renderTerminal, useColour } from "../../../src/domain/report/terminal.js";

const report: Report = {
  schema: 1,
  tool: { name: "deploy-gate", version: "0.1.0" },
  command: "preflight",
  endpoint: "archon",
  ref: { name: "HEAD", sha: "0123456789abcdef0123456789abcdef01234567" },
  verdict: "fail",
  durationMs: 412,
  findings: [
    { check: "preflight.clean-tree", status: "pass", summary: "work tree is clean" },
    {
      check: "preflight.contracts",
      status: "fail",
      summary: "contract broken",
      file: "s.sh",
      line: 41,
      evidence: ["dropped in abc", "  - --reasoning-parser qwen3"],
      fix: "restore it",
    },
    {
      check: "preflight.shellcheck",
      status: "skip",
      summary: "shellcheck is not installed",
      fix: "apt-get install shellcheck",
    },
  ],
};

describe("terminal report", () => {
  it("prints each check, the details of a failure and the verdict, without colour codes when colour is off", () => {
    const out = renderTerminal(report, false);
    expect(out).not.toMatch(/\x1b\[/);
    expect(out).toContain("deploy-gate preflight · endpoint archon · HEAD 0123456789 · 0.41s");
    expect(out).toMatch(/✖ FAIL {2}preflight\.contracts +contract broken/);
    expect(out).toContain("at s.sh:41");
    expect(out).toContain("│   - --reasoning-parser qwen3");
    expect(out).toContain("fix: restore it");
    expect(out).toContain("hint: apt-get install shellcheck");
    expect(out.trimEnd().split("\n").at(-1)).toBe("FAIL  1 failed, 0 warnings, 1 passed, 1 skipped");
  });
  it("colours only when asked", () => {
    expect(renderTerminal(report, true)).toMatch(/\x1b\[31m✖ FAIL/);
  });
  it("turns colour off for --no-color, NO_COLOR and a non-TTY", () => {
    expect(useColour({ noColor: false, isTTY: true, env: {} })).toBe(true);
    expect(useColour({ noColor: true, isTTY: true, env: {} })).toBe(false);
    expect(useColour({ noColor: false, isTTY: true, env: { NO_COLOR: "1" } })).toBe(false);
    expect(useColour({ noColor: false, isTTY: false, env: {} })).toBe(false);
  });
  it("honours FORCE_COLOR (on without a TTY, off for 0/false) before NO_COLOR, and --no-color above both", () => {
    expect(useColour({ noColor: false, isTTY: false, env: { FORCE_COLOR: "1" } })).toBe(true);
    expect(useColour({ noColor: false, isTTY: false, env: { FORCE_COLOR: "" } })).toBe(true);
    expect(useColour({ noColor: false, isTTY: true, env: { FORCE_COLOR: "0" } })).toBe(false);
    expect(useColour({ noColor: false, isTTY: true, env: { FORCE_COLOR: "false" } })).toBe(false);
    expect(useColour({ noColor: false, isTTY: false, env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).toBe(true);
    expect(useColour({ noColor: true, isTTY: true, env: { FORCE_COLOR: "1" } })).toBe(false);
    expect(useColour({ noColor: false, isTTY: true, env: { NO_COLOR: "" } })).toBe(true);
  });
  it("--quiet: only the failures and the verdict", () => {
    const out = renderTerminal(report, false, true);
    expect(out).not.toContain("preflight.clean-tree");
    expect(out).not.toContain("shellcheck");
    expect(out).not.toContain("deploy-gate preflight ·");
    expect(out).toMatch(/^✖ FAIL {2}preflight\.contracts +contract broken/);
    expect(out).toContain("fix: restore it");
    expect(out.trimEnd().split("\n").at(-1)).toBe("FAIL  1 failed, 0 warnings, 1 passed, 1 skipped");
    const clean = renderTerminal({ ...report, verdict: "pass", findings: [report.findings[0]!] }, false, true);
    expect(clean).toBe("PASS  0 failed, 0 warnings, 1 passed, 0 skipped\n");
  });
  it("decides verdicts and exit codes", () => {
    expect(
      verdictOf([
        { check: "a", status: "warn", summary: "" },
        { check: "b", status: "pass", summary: "" },
      ]),
    ).toBe("warn");
    expect(verdictOf([{ check: "a", status: "skip", summary: "" }])).toBe("pass");
    expect(exitCodeOf("warn")).toBe(0);
    expect(exitCodeOf("warn", true)).toBe(1);
    expect(exitCodeOf("fail")).toBe(1);
  });
});

describe("a dry run in the terminal", () => {
  it("shows the diff and the commands of its passing findings (other passes stay one line)", () => {
    const dry: Report = {
      ...report,
      verdict: "pass",
      findings: [
        {
          check: "deploy.install",
          status: "pass",
          summary: "dry run: 1 of 2 file(s) would change: /x",
          evidence: ["--- a/x\n+++ b/x\n-old\n+new"],
          data: { dryRun: true },
        },
        { check: "deploy.lock", status: "pass", summary: "lock taken", evidence: ["not shown"] },
      ],
    };
    const out = renderTerminal(dry, false);
    expect(out).toMatch(
      /dry run: 1 of 2 file\(s\) would change: \/x\n\s+│ --- a\/x\n\s+│ \+\+\+ b\/x\n\s+│ -old\n\s+│ \+new/,
    );
    expect(out).not.toContain("not shown");
  });
});
