import { describe, expect, it } from "vitest";
import type { Report } from "../../../src/domain/report/finding.js";
import { renderMarkdown } from "../../../src/domain/report/markdown.js";
import { renderTerminal } from "../../../src/domain/report/terminal.js";

const report: Report = {
  schema: 1,
  tool: { name: "deploy-gate", version: "0" },
  command: "run",
  endpoint: "chat",
  ref: { name: "main", sha: "a".repeat(40) },
  verdict: "fail",
  durationMs: 1000,
  findings: [
    { check: "deploy.ready", status: "pass", summary: "ready", host: "gpu-a" },
    { check: "deploy.ready", status: "fail", summary: "oom at boot", host: "gpu-b", fix: "lower it" },
    { check: "fleet.rollout", status: "skip", summary: "not touched", host: "gpu-c" },
    { check: "fleet.rollout", status: "fail", summary: "rollout halted at step 2 of 2" },
  ],
  fleet: [
    { host: "gpu-b", step: 2, verdict: "fail", readyMs: null, kvTokens: null },
    { host: "gpu-a", step: 1, verdict: "pass", readyMs: 4200, kvTokens: 81920 },
    { host: "gpu-c", step: 2, verdict: "not touched", readyMs: null, kvTokens: null },
  ],
};

describe("fleet reports", () => {
  it("the terminal shows the hosts table, then each host's findings under its heading, failures first, then the fleet", () => {
    const t = renderTerminal(report, false);
    expect(t).toMatch(/gpu-a\s+1\s+pass\s+4\.2 s\s+81,920/);
    const order = [
      "── gpu-b (step 2): fail",
      "oom at boot",
      "── gpu-a (step 1): pass",
      "── gpu-c (step 2): not touched",
      "── the endpoint (every host)",
      "rollout halted",
    ].map((s) => t.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });
  it("the job summary has the hosts table (failures first) and names the host of each finding", () => {
    const md = renderMarkdown(report);
    expect(md).toContain("| host | step | verdict | ready | KV tokens |");
    expect(md.indexOf("| `gpu-b` | 2 | ❌ fail | — | — |")).toBeLessThan(
      md.indexOf("| `gpu-a` | 1 | ✅ pass | 4.2 s | 81,920 |"),
    );
    expect(md).toContain("`gpu-b`: **oom at boot**");
  });
  it("a one-host report has no hosts table", () => {
    const one = { ...report, fleet: undefined, findings: report.findings.map(({ host: _h, ...f }) => f) };
    expect(renderMarkdown(one)).not.toContain("| host |");
    expect(renderTerminal(one, false)).not.toContain("──");
  });
});
