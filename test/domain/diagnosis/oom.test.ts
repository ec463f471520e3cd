import { describe, expect, it } from "vitest";
import { readOomGap } from "../../../src/domain/diagnosis/oom.js";

describe("readOomGap", () => {
  it("reads torch ≥ 2.1 messages", () => {
    expect(
      readOomGap(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 31.86 GiB of which 1.12 GiB is free.",
      ),
    ).toEqual({ triedGiB: 2.5, freeGiB: 1.12, totalGiB: 31.86, shortfallGiB: 1.38 });
  });

  it("reads torch 2.1's `capacty` with mixed MiB/GiB units", () => {
    expect(
      readOomGap(
        "HIP out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacty of 79.15 GiB of which 203.81 MiB is free.",
      ),
    ).toEqual({ triedGiB: 0.5, freeGiB: 0.199, totalGiB: 79.15, shortfallGiB: 0.301 });
  });

  it("reads torch < 2.1's parenthesised form", () => {
    expect(
      readOomGap(
        "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.69 GiB total capacity; 22.48 GiB already allocated; 8.94 MiB free; 22.73 GiB reserved in total by PyTorch)",
      ),
    ).toEqual({ triedGiB: 0.0195, freeGiB: 0.0087, totalGiB: 23.69, shortfallGiB: 0.0108 });
  });

  it("reads KiB and reports no shortfall when the free figure is missing", () => {
    expect(readOomGap("CUDA out of memory. Tried to allocate 1,024.00 KiB.")).toEqual({
      triedGiB: 0.001,
      freeGiB: null,
      totalGiB: null,
      shortfallGiB: null,
    });
    expect(readOomGap("RuntimeError: CUDA error: out of memory")).toBeNull();
  });
});
