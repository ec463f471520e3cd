import { describe, expect, it } from "vitest";
import { annotationsOf } from "../../src/report/annotations.js";
import type { Finding, Report } from "../../src/report/finding.js";
import { renderMarkdown } from "../../src/report/markdown.js";

const base = (findings: Finding[], verdict: Report["verdict"] = "fail"): Report => ({
  schema: 1, tool: { name: "deploy-gate", version: "0.1.0" }, command: "run", endpoint: "archon",
  ref: { name: "main", sha: "0123456789abcdef0123456789abcdef01234567" }, verdict, durationMs: 1234, findings,
});

describe("job summary markdown", () => {
  it("puts the verdict first, then a table row per check, then details of failures with evidence, fix, decisive line and plan", () => {
    const md = renderMarkdown(base([
      { check: "preflight.clean-tree", status: "pass", summary: "clean" },
      { check: "deploy.diagnosis", status: "fail", summary: "GPU out of memory | short 1.38 GiB", evidence: ["line ```a```", "b"], fix: "lower --max-num-seqs",
        data: { decisive: "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB", plan: { kvTokens: 23296, graphGiB: null } } },
      { check: "verify.argv", status: "warn", summary: "drift", data: { drift: ["- --max-num-seqs 4", "+ --max-num-seqs 8"] } },
    ]));
    const lines = md.split("\n");
    expect(lines[0]).toBe("## deploy-gate run: ❌ FAIL");
    expect(md).toContain("| ✅ | `preflight.clean-tree` | clean |");
    expect(md).toContain("| ❌ | `deploy.diagnosis` | GPU out of memory \\| short 1.38 GiB |");
    expect(md).toContain("decisive line: `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB`");
    expect(md).toContain("````text\nline ```a```\nb\n````");
    expect(md).toContain("**Fix:** lower --max-num-seqs");
    expect(md).toContain("| kvTokens | 23,296 |");
    expect(md).not.toContain("graphGiB");
    expect(md).toContain("+ --max-num-seqs 8");
    expect(md.indexOf("### ❌ `deploy.diagnosis`")).toBeGreaterThan(md.indexOf("| ⚠️ | `verify.argv`"));
  });

  it("stays under the size limit by trimming evidence, never the verdict or the table", () => {
    const huge = Array.from({ length: 5000 }, (_, i) => `evidence line ${i} ${"x".repeat(200)}`);
    const md = renderMarkdown(base([{ check: "deploy.diagnosis", status: "fail", summary: "boom", evidence: huge }]), 64 * 1024);
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(64 * 1024);
    expect(md.startsWith("## deploy-gate run: ❌ FAIL")).toBe(true);
    expect(md).toContain("| ❌ | `deploy.diagnosis` | boom |");
    expect(md).toMatch(/more lines in the JSON report/);
  });
});

describe("annotations", () => {
  it("annotates file lines, at most 10 per kind, errors for failures and warnings for warnings", () => {
    const fs: Finding[] = Array.from({ length: 13 }, (_, i) => ({ check: "preflight.traps", status: "fail", summary: `t${i}`, file: "s.sh", line: i + 1, fix: "do x" }));
    fs.push({ check: "preflight.traps", status: "warn", summary: "w", file: "u.service" }, { check: "preflight.history", status: "fail", summary: "no file" });
    const a = annotationsOf(base(fs));
    expect(a.filter((x) => x.level === "error")).toHaveLength(10);
    expect(a[0]).toEqual({ level: "error", title: "deploy-gate preflight.traps", message: "t0\nFix: do x", file: "s.sh", startLine: 1 });
    expect(a.find((x) => x.level === "warning")).toMatchObject({ file: "u.service", message: "w" });
    expect(a.every((x) => x.file)).toBe(true);
  });
});
