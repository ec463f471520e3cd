// deploy.diagnosis from a journal window captured on the sandbox host, and the outside-removal refinement.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { diagnoseJournal } from "../../../src/stages/deploy/diagnose.js";
import { refineDiagnosis } from "../../../src/stages/deploy/diagnosis-refine.js";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { splitSections } from "../../../src/stages/deploy/poll-parse.js";

const journalOf = (n: string) =>
  splitSections(readFileSync(join(import.meta.dirname, "../../fixtures/journal/polls", n), "utf8"))
    .get("journal")!
    .body.join("\n");

describe("diagnoseJournal", () => {
  it("names the OOM with its gap from the window of a refused boot (wrapper skipped, duplicates joined)", () => {
    const d = diagnoseJournal(journalOf("poll-auto-restart.txt"), {
      service: "dg-capture.service",
      container: "dg-capture",
      nRestarts: 0,
      failure: "restarting",
    });
    expect(d.class).toBe("oom");
    expect(d.decisive).toMatch(/CUDA out of memory\. Tried to allocate 2\.00 GiB/);
    expect(d.decisive).not.toMatch(/Engine core initialization failed/);
    expect(d.oom?.shortfallGiB).toBeCloseTo(0.88, 2);
  });
});

describe("refineDiagnosis", () => {
  const booting = () =>
    diagnose({
      lines: [
        "(APIServer pid=1) INFO 11-29 22:41:52 [utils.py:302] vLLM server version 0.28.1, serving model /models/qwen",
        "(EngineCore_DP0 pid=75) INFO Starting to load model /models/qwen",
      ],
    });
  const term = ["(APIServer pid=1) INFO:     Shutting down"];
  it("a container that vanished after a signal, with no engine failure, was removed from outside", () => {
    const d = refineDiagnosis(booting(), "container-gone", term, "x.service");
    expect(d.class).toBe("container-removed");
    expect(d.decisive).toBe(term[0]);
    expect(d.fix).toMatch(/outside actor/);
    // `podman rm -f` kills, then removes: a poll between the two sees the container exited
    const exited = refineDiagnosis(booting(), "container-exited", term, "x.service");
    expect(exited.class).toBe("container-removed");
    expect(exited.summary).toMatch(/its container exited: x\.service was stopped from outside/);
  });
  it("keeps the engine's own failure, and a vanishing without a signal", () => {
    expect(refineDiagnosis(booting(), "container-gone", ["(APIServer pid=1) INFO loading"], "x.service").class).toBe(
      "booting",
    );
    const oom = diagnose({
      lines: [
        "(EngineCore_DP0 pid=75) ERROR torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free.",
      ],
    });
    expect(refineDiagnosis(oom, "container-gone", term, "x.service").class).toBe(oom.class);
    expect(refineDiagnosis(booting(), "timeout", term, "x.service").class).toBe("booting");
  });
});
