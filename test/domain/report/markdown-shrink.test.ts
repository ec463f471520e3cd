// The job summary over GitHub's limit sheds what a reader needs least first: evidence, then the passes,
// then the warnings' details, and only then the failures' details; a failure's headline and fix stay.
import { describe, expect, it } from "vitest";
import type { Finding, Report } from "../../../src/domain/report/finding.js";
import { errorMarkdown, renderMarkdown } from "../../../src/domain/report/markdown.js";

const LIMIT = 64 * 1024;
const report = (findings: Finding[]): Report => ({
  schema: 1,
  tool: { name: "deploy-gate", version: "0.1.0" },
  command: "preflight",
  endpoint: "archon",
  ref: { name: "main", sha: null },
  verdict: findings.some((f) => f.status === "fail") ? "fail" : "warn",
  durationMs: 1,
  findings,
});
const boom: Finding = {
  check: "preflight.contracts",
  status: "fail",
  summary: "tool calling dropped",
  file: "s.sh",
  line: 7,
  fix: "restore `--enable-auto-tool-choice`",
  evidence: ["a", "b"],
};
const many = (n: number, status: Finding["status"], check: string): Finding[] =>
  Array.from({ length: n }, (_, i) => ({
    check,
    status,
    summary: `${check} finding ${i} ${"x".repeat(60)}`,
    file: "s.sh",
    line: i + 1,
  }));

describe("summary over the size limit", () => {
  it("drops the passes before any failure detail", () => {
    const md = renderMarkdown(
      report([boom, ...many(3, "warn", "preflight.dropped-flags"), ...many(3000, "pass", "preflight.traps")]),
      LIMIT,
    );
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(LIMIT);
    expect(md).toContain("#### `preflight.contracts` · `s.sh`");
    expect(md).toContain("**tool calling dropped** (line 7)");
    expect(md).toContain("**Fix:** restore `--enable-auto-tool-choice`");
    expect(md).toContain("preflight.dropped-flags finding 2"); // the warnings keep their details
    expect(md).not.toContain("<details>");
    expect(md).toContain(
      "_3000 passed, 0 skipped: left out to stay under GitHub's summary limit: see the JSON report._",
    );
  });

  it("then the warnings' details, leaving a count per check", () => {
    const md = renderMarkdown(
      report([boom, ...many(2000, "warn", "preflight.shellcheck"), ...many(1, "warn", "preflight.dropped-flags")]),
      LIMIT,
    );
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(LIMIT);
    expect(md).toContain("**tool calling dropped** (line 7)");
    expect(md).toContain("**Fix:** restore `--enable-auto-tool-choice`");
    expect(md).toContain(
      "### ⚠️ Warnings (2001)\n\n`preflight.shellcheck` (2,000), `preflight.dropped-flags` (1): details left out",
    );
    expect(md).not.toContain("preflight.shellcheck finding");
  });

  it("at the last resort keeps the verdict and each failure's headline and fix", () => {
    // failures whose plan tables alone exceed the limit
    const plan = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`key${i}`, i * 1000]));
    const fails = Array.from({ length: 40 }, (_, i): Finding => ({
      check: "deploy.diagnosis",
      status: "fail",
      summary: `failure ${i}`,
      fix: `run \`git show c${i} | git apply -R\``,
      data: { plan },
    }));
    const md = renderMarkdown(report([...fails, ...many(5, "warn", "preflight.shellcheck")]), LIMIT);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(LIMIT);
    expect(md.startsWith("## deploy-gate preflight: ❌ FAIL")).toBe(true);
    expect(md).toContain("**Failed:** `deploy.diagnosis`");
    // a list item, not a table: the pipe in the command stays unescaped
    for (let i = 0; i < 40; i++)
      expect(md).toContain(`- \`deploy.diagnosis\`: **failure ${i}** **Fix:** run \`git show c${i} | git apply -R\`\n`);
    expect(md).toContain("5 warnings: left out");
    expect(md).not.toContain("| key1 |");
  });

  it("cuts whole failure lines when even the headlines do not fit, and says so", () => {
    const md = renderMarkdown(report(many(5000, "fail", "preflight.traps")), LIMIT);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(LIMIT);
    expect(md).toContain("**preflight.traps finding 0 ");
    const lines = md.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("… more failures in the JSON report");
    expect(lines.at(-3)).toMatch(
      /^- `preflight\.traps` · `s\.sh` line \d+: \*\*preflight\.traps finding \d+ x{60}\*\*$/,
    );
  });
});

describe("error summary", () => {
  it("says the gate stopped and shows the message as written, in a fence", () => {
    const md = errorMarkdown("deploy-gate.yml:3: endpoints.a.script: expected a string\n<b>not html</b> ```", "verify");
    expect(md).toBe(
      "## deploy-gate verify: ❗ error\n\nThe gate stopped before a verdict:\n\n````text\ndeploy-gate.yml:3: endpoints.a.script: expected a string\n<b>not html</b> ```\n````\n",
    );
    expect(errorMarkdown("input command: bad", null).split("\n")[0]).toBe("## deploy-gate: ❗ error");
  });
});
