// verify.vram, verify.graphs, verify.plan-lines and verify.compile-cache on captured output.
import { describe, expect, it } from "vitest";
import { endpointSchema } from "../../../src/domain/config/schema.js";
import { emptyPlan } from "../../../src/domain/engine/plan.js";
import { parseServeScript } from "../../../src/domain/launch/parse.js";
import { checkCompileCache } from "../../../src/stages/verify/compile-cache.js";
import { checkGraphs } from "../../../src/stages/verify/graphs.js";
import { readBootPlan } from "../../../src/stages/verify/plan.js";
import { checkPlanLines, readPlanLines } from "../../../src/stages/verify/plan-lines.js";
import { checkVram, engineCards, parseNvidiaSmi, parseRocmSmi } from "../../../src/stages/verify/vram.js";

// `nvidia-smi --query-gpu=index,name,memory.used,memory.total --format=csv,noheader,nounits` (MiB)
const NVIDIA = "0, NVIDIA GeForce RTX 4090, 23780, 24564\n1, NVIDIA GeForce RTX 4090, 22010, 24564\n";
// `rocm-smi --showmeminfo vram` as ROCm prints it (ROCm/legacy-rocm-build#1909), two R9700s and the Raphael iGPU
const ROCM = `

============================ ROCm System Management Interface ============================
================================== Memory Usage (Bytes) ==================================
GPU[0]\t\t: VRAM Total Memory (B): 34208743424
GPU[0]\t\t: VRAM Total Used Memory (B): 33449574400
GPU[1]\t\t: VRAM Total Memory (B): 34208743424
GPU[1]\t\t: VRAM Total Used Memory (B): 32212254720
GPU[2]\t\t: VRAM Total Memory (B): 536870912
GPU[2]\t\t: VRAM Total Used Memory (B): 121634816
==========================================================================================
================================== End of ROCm SMI Log ===================================
`;

describe("verify.vram", () => {
  it("parses both tools' real formats", () => {
    expect(parseNvidiaSmi(NVIDIA)).toEqual([
      { index: 0, name: "NVIDIA GeForce RTX 4090", usedBytes: 23780 * 2 ** 20, totalBytes: 24564 * 2 ** 20 },
      { index: 1, name: "NVIDIA GeForce RTX 4090", usedBytes: 22010 * 2 ** 20, totalBytes: 24564 * 2 ** 20 },
    ]);
    expect(parseRocmSmi(ROCM).map((c) => [c.index, c.usedBytes, c.totalBytes])).toEqual([
      [0, 33449574400, 34208743424],
      [1, 32212254720, 34208743424],
      [2, 121634816, 536870912],
    ]);
    expect(parseNvidiaSmi("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")).toEqual([]);
  });

  it("counts only the engine's cards: not the iGPU, and only the visible devices when set", () => {
    const cards = parseRocmSmi(ROCM);
    const plain = engineCards(cards, null);
    expect(plain.used.map((c) => c.index)).toEqual([0, 1]);
    expect(plain.ignored[0]!.why).toMatch(/integrated GPU/);
    expect(engineCards(cards, new Map([["HIP_VISIBLE_DEVICES", "1"]])).used.map((c) => c.index)).toEqual([1]);
  });

  it("fails a card under 256 MiB of margin, warns under 512 MiB, passes otherwise, skips with no tool", () => {
    const f = checkVram("rocm-smi", ROCM, null);
    expect(f.status).toBe("pass");
    expect(f.summary).toBe("VRAM margin 0.71 GiB, 1.86 GiB on 2 card(s)");
    expect(f.evidence).toContain("card 2 not counted: an integrated GPU (small carve-out), not a serving card");
    expect(checkVram("nvidia-smi", NVIDIA, null).status).toBe("pass");
    expect(checkVram("nvidia-smi", "0, L4, 22670, 23034\n", null).status).toBe("warn");
    const tight = checkVram("nvidia-smi", "0, A100, 40300, 40536\n", null);
    expect(tight.status).toBe("fail");
    expect(tight.evidence![0]).toMatch(/card 0 \(A100\): 39\.36 of 39\.59 GiB used, margin 0\.23 GiB/);
    expect(checkVram(null, "", null)).toMatchObject({
      status: "skip",
      summary: expect.stringMatching(/neither nvidia-smi nor rocm-smi/),
    });
  });
});

describe("verify.graphs", () => {
  const plan = (got: number | null, est: number | null) => ({ ...emptyPlan(), graphGiB: got, estimatedGraphGiB: est });
  it("shows both numbers and the overrun", () => {
    const f = checkGraphs(plan(1.31, 0.98));
    expect(f.status).toBe("warn");
    expect(f.summary).toMatch(/1\.31 GiB, 0\.33 GiB over the 0\.98 GiB estimate/);
    expect(f.data).toEqual({ capturedGiB: 1.31, estimatedGiB: 0.98, overrunGiB: 0.33 });
    expect(checkGraphs(plan(0.8, 0.98)).status).toBe("pass");
    expect(checkGraphs(plan(null, null)).status).toBe("skip");
  });
  it("reads both lines from a boot log", () => {
    const { plan: p } = readBootPlan([
      "(EngineCore_DP0 pid=75) INFO 11-29 22:35:45 [gpu_model_runner.py:4188] Estimated CUDA graph memory: 1.27 GiB total",
      "(EngineCore_DP0 pid=75) INFO 11-29 22:35:49 [gpu_model_runner.py:3480] Graph capturing finished in 7 secs, took 1.41 GiB",
    ]);
    expect(checkGraphs(p).data).toMatchObject({ overrunGiB: 0.14 });
  });
});

describe("verify.plan-lines", () => {
  const specs = endpointSchema.parse({
    script: "s",
    contracts: {
      plan: [
        { name: "arena-slots", pattern: "expert cache space +[0-9.]+ GiB +([0-9,]+) slots", min: 100 },
        { name: "budget", pattern: "budget \\(total x util\\) +([0-9.]+)", max: 60 },
      ],
    },
  }).contracts.plan;
  const L = (s: string) => `(EngineCore pid=7) INFO 10-05 11:02:01 [planner.py:88] ${s}`;

  it("extracts each number digit-anchored, newest boot wins, and judges the bounds", () => {
    const lines = [
      L("expert cache space   20.10 GiB   77 slots"),
      L("budget (total x util)   59.73 GiB"),
      L("expert cache space   21.40 GiB   1,204 slots"),
    ];
    expect(readPlanLines(lines, specs).map((r) => [r.name, r.value, r.problem])).toEqual([
      ["arena-slots", 1204, null],
      ["budget", 59.73, null],
    ]);
    expect(checkPlanLines(lines, specs, "c").status).toBe("pass");
    const small = checkPlanLines([L("expert cache space   20.10 GiB   77 slots")], specs, "c");
    expect(small.status).toBe("fail");
    expect(small.summary).toMatch(/arena-slots \(77 < min 100\).*budget \(no line matches\)/);
    expect(small.fix).toMatch(/grep -aoE/);
  });

  it("a column cut short reads as unreadable, never as a smaller number", () => {
    const cut = readPlanLines([L("budget (total x util)   59.")], specs);
    expect(cut[1]!.problem).toMatch(/no line matches|not readable/);
    expect(cut[1]!.value).toBeNull();
  });

  it("skips when nothing is declared", () => {
    expect(checkPlanLines([], [], "c").status).toBe("skip");
  });
});

describe("verify.compile-cache", () => {
  const cold = readBootPlan([
    "(EngineCore_DP0 pid=75) INFO 10-05 10:01:02 [backends.py:215] Compiling a graph for compile range (1, 8192) takes 173.04 s",
    "(EngineCore_DP0 pid=75) INFO 10-05 10:01:09 [monitor.py:34] torch.compile took 181.20 s in total",
  ]);
  const warm = readBootPlan([
    "(EngineCore_DP0 pid=75) INFO 10-05 10:01:02 [backends.py:201] Directly load the compiled graph(s) for compile range (1, 8192) from the cache, took 2.113 s",
    "(EngineCore_DP0 pid=75) INFO 10-05 10:01:03 [monitor.py:34] torch.compile took 4.02 s in total",
  ]);
  const script = (body: string) => parseServeScript(`#!/bin/bash\n${body}`);
  const run = 'podman run -d --name c -v "$CACHE_DIR":/root/.cache/torch img /models --port 7770\n';

  it("a warm boot passes with the seconds; a cold one reports the slowest graph", () => {
    const w = checkCompileCache({ ...warm, earlierBoots: 3, script: null, scriptPath: "s.sh", env: null });
    expect(w.status).toBe("pass");
    expect(w.summary).toMatch(/warm: 1 compiled graph\(s\) loaded.*4\.02 s/);
    const c = checkCompileCache({
      ...cold,
      earlierBoots: 0,
      script: script("podman run -d --name c img /models\n"),
      scriptPath: "s.sh",
      env: null,
    });
    expect(c.status).toBe("pass");
    expect(c.summary).toMatch(
      /cold: 1 graph\(s\) compiled, the slowest in 173\.04 s; torch\.compile took 181\.2 s.*no cache mount/,
    );
  });

  it("cold again on a later boot despite a cache mount: a warning naming the mount target and the missing mkdir", () => {
    const f = checkCompileCache({
      ...cold,
      earlierBoots: 1,
      script: script(`CACHE_DIR=/srv/cache\n${run}`),
      scriptPath: "s.sh",
      env: null,
    });
    expect(f.status).toBe("warn");
    expect(f.evidence!.join("\n")).toMatch(
      /mount target \/root\/\.cache\/torch does not contain the vLLM cache root \/root\/\.cache\/vllm/,
    );
    expect(f.evidence!.join("\n")).toMatch(/no mkdir -p of \$CACHE_DIR/);
    // the parent mounted and created first: only the compile-range explanation is left
    const fixed = checkCompileCache({
      ...cold,
      earlierBoots: 1,
      script: script(
        `CACHE_DIR=/srv/cache\nmkdir -p "$CACHE_DIR"\n${run.replace("/root/.cache/torch", "/root/.cache")}`,
      ),
      scriptPath: "s.sh",
      env: null,
    });
    expect(fixed.status).toBe("warn");
    expect(fixed.fix).toMatch(/compile range/);
    // first boot with the mount: not yet a problem
    expect(
      checkCompileCache({ ...cold, earlierBoots: 0, script: script(run), scriptPath: "s.sh", env: null }).status,
    ).toBe("pass");
  });
});
