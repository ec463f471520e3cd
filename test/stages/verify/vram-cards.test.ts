// verify.vram on a host with several cards and several endpoints: only the cards this engine's container
// was given count (CDI devices, NVIDIA_VISIBLE_DEVICES, and the container's own CUDA_VISIBLE_DEVICES
// read as indices into those). Another endpoint's full card is not this endpoint's problem.
import { describe, expect, it } from "vitest";
import { checkVram, engineCards, hostCards, parseNvidiaSmi } from "../../../src/stages/verify/vram.js";

// card 1 belongs to another endpoint, preallocated to 99.6%
const SMI = "0, NVIDIA L40S, 41000, 46068\n1, NVIDIA L40S, 45900, 46068\n";
const env = (o: Record<string, string>) => new Map(Object.entries(o));

describe("verify.vram counts the cards the container was given", () => {
  it("NVIDIA_VISIBLE_DEVICES=0: card 1 is left out and the check passes", () => {
    const f = checkVram("nvidia-smi", SMI, env({ NVIDIA_VISIBLE_DEVICES: "0" }));
    expect(f.status).toBe("pass");
    expect(f.evidence).toContain("card 1 not counted: not given to the engine's container");
  });
  it("CDI --device nvidia.com/gpu=1: only card 1, which fails", () => {
    const f = checkVram("nvidia-smi", SMI, env({}), ["nvidia.com/gpu=1"]);
    expect(f).toMatchObject({ status: "fail", summary: "VRAM margin below 256 MiB on card 1" });
  });
  it("CUDA_VISIBLE_DEVICES inside the container indexes the cards it was given", () => {
    const cards = parseNvidiaSmi(SMI);
    expect(
      engineCards(cards, env({ CUDA_VISIBLE_DEVICES: "0" }), ["nvidia.com/gpu=1"]).used.map((c) => c.index),
    ).toEqual([1]);
    expect(engineCards(cards, env({ CUDA_VISIBLE_DEVICES: "0" })).used.map((c) => c.index)).toEqual([0]);
  });
  it("all, UUIDs or nothing: every card, as before", () => {
    expect(hostCards(["nvidia.com/gpu=all"], null)).toBeNull();
    expect(hostCards([], env({ NVIDIA_VISIBLE_DEVICES: "all" }))).toBeNull();
    expect(hostCards([], env({ NVIDIA_VISIBLE_DEVICES: "GPU-1b2c" }))).toBeNull();
    expect(hostCards(["/dev/dri", "nvidia.com/gpu=0", "nvidia.com/gpu=1"], null)).toEqual([0, 1]);
    expect(checkVram("nvidia-smi", SMI, null).status).toBe("fail");
  });
});
