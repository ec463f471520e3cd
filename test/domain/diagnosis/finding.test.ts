import { describe, expect, it } from "vitest";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { diagnosisFinding } from "../../../src/stages/deploy/diagnosis-finding.js";
import { fixtureLines } from "../../fixtures/journal/classes/fixture.js";

describe("diagnosisFinding", () => {
  it("fails with the class, the decisive line first in the evidence, the fix and the numbers", () => {
    const f = diagnosisFinding(diagnose({ lines: fixtureLines("torch21-capacty-oom.log") }));
    expect(f).toMatchObject({
      check: "deploy.diagnosis",
      status: "fail",
      data: { class: "oom", oom: { shortfallGiB: 0.301 } },
    });
    expect(f.summary).toMatch(/^oom: GPU out of memory/);
    expect(f.evidence?.[0]).toMatch(/^torch\.cuda\.OutOfMemoryError/);
    expect(f.fix).toContain("--gpu-memory-utilization");
  });

  it("passes a ready engine and warns while it still boots", () => {
    expect(diagnosisFinding(diagnose({ lines: fixtureLines("v1-2026-merged-kv-ready.log") })).status).toBe("pass");
    expect(diagnosisFinding(diagnose({ lines: fixtureLines("booting.log") }), "deploy.ready").status).toBe("warn");
  });
});
