import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain/sniff.js";
import { renderExplain } from "../../../src/domain/report/diagnosis-text.js";
import { fixture } from "../../fixtures/journal/classes/fixture.js";

describe("renderExplain", () => {
  const r = explain(fixture("oom-tp2.journal.json"));

  it("prints class, decisive line, gap, fix and only the plan lines that were read", () => {
    const out = renderExplain(r, false);
    expect(out).toMatch(/^OOM {2}GPU out of memory: asked 2\.5 GiB/);
    expect(out).toContain("decisive: torch.OutOfMemoryError: CUDA out of memory.");
    expect(out).toContain("gap: tried 2.5 GiB, free 1.12 GiB of 31.86 GiB, short 1.38 GiB");
    expect(out).toMatch(/KV cache {17}23,296 tokens/);
    expect(out).not.toContain("torch.compile");
    expect(out).not.toContain("\x1b[");
  });

  it("colours only when asked", () => {
    expect(renderExplain(r, true)).toContain("\x1b[1;31mOOM\x1b[0m");
    const ready = renderExplain(explain(fixture("v1-2026-merged-kv-ready.log")), true);
    expect(ready).toContain("\x1b[1;32mREADY\x1b[0m");
    expect(ready).toContain("acceptance 46.6%, per position 0.76/0.55/0.33");
  });
});
