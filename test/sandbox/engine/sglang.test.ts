// The SGLang double's argv and boot lines, read back by the product's own parsers.
import { describe, expect, it } from "vitest";
import { readPlan } from "../../../src/domain/engine/plan.js";
import { diagnose } from "../../../src/domain/diagnosis/classify.js";
import { SglangArgvError, sglangBoot, sglangPlan } from "./sglang.js";

const lines = (args: string[], env: Record<string, string> = {}) =>
  sglangBoot(sglangPlan(["--model-path", "/models/qwen", ...args], env)).flatMap((s) =>
    "text" in s ? s.text(new Date()).trimEnd().split("\n") : [],
  );

describe("SGLang double", () => {
  it("sizes the KV pool from --mem-fraction-static after the weights, and the product reads it", () => {
    const p = sglangPlan(["--model-path", "/m", "--mem-fraction-static", "0.8", "--context-length", "16384"], {});
    expect(p.kvTokens).toBe(Math.floor(((32 * 0.8 - 15.27) * 1024 ** 3) / 98_304));
    const l = lines(["--mem-fraction-static", "0.8", "--context-length", "16384", "--host", "0.0.0.0"]);
    expect(readPlan(l)).toMatchObject({ kvTokens: p.kvTokens, maxModelLen: 16384, modelLoadGiB: 15.27 });
    expect(diagnose({ lines: l })).toMatchObject({ class: "ready", engine: "sglang" });
  });

  it("a fraction that leaves the weights no pool dies as SGLang does: kv-insufficient, raise --mem-fraction-static", () => {
    const d = diagnose({ lines: lines(["--mem-fraction-static", "0.4"]) });
    expect(d).toMatchObject({
      class: "kv-insufficient",
      decisive: "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.",
    });
    expect(d.fix).toMatch(/^Raise --mem-fraction-static/);
    expect(
      sglangBoot(sglangPlan(["--model-path", "/m", "--mem-fraction-static", "0.4"], {})).find((s) => "exit" in s),
    ).toMatchObject({ exit: 1 });
  });

  it("refuses what launch_server's argparse refuses", () => {
    expect(() => sglangPlan(["--model-path", "/m", "--max-model-len", "8192"], {})).toThrow(
      new SglangArgvError("unrecognized arguments: --max-model-len"),
    );
    expect(() => sglangPlan(["--port", "1"], {})).toThrow(/--model-path/);
  });
});
