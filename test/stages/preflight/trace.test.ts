import { describe, expect, it } from "vitest";
import { contextAround, countToken, traceDrop, type HistoryEntry } from "../../../src/stages/preflight/trace.js";

const c = (n: number) => ({ sha: String(n).padStart(40, "0"), parents: [], date: "2026-10-0" + n, subject: `c${n}` });
const h = (n: number, added: string[], removed: string[] = []): HistoryEntry => ({ commit: c(n), added, removed });

describe("traceDrop", () => {
  it("finds the commit that removed the last occurrence", () => {
    const hist = [
      h(3, ["  --max-num-seqs 4 \\"], ["  --reasoning-parser qwen3 \\"]),
      h(2, ["x"]),
      h(1, ["podman run img \\", "  --reasoning-parser qwen3 \\"]),
    ];
    const t = traceDrop(hist, "--reasoning-parser")!;
    expect(t.droppedIn.subject).toBe("c3");
    expect(t.introducedIn?.subject).toBe("c1");
    expect(t.removedLines).toEqual(["  --reasoning-parser qwen3 \\"]);
  });

  it("returns null when the flag is still present or never was", () => {
    expect(traceDrop([h(2, ["--a"], ["--a"]), h(1, ["--a"])], "--a")).toBeNull();
    expect(traceDrop([h(1, ["--b"])], "--a")).toBeNull();
  });

  it("picks the latest drop when a flag came back and left again", () => {
    const hist = [
      h(4, [], ["--tool-call-parser x"]),
      h(3, ["--tool-call-parser x"]),
      h(2, [], ["--tool-call-parser x"]),
      h(1, ["--tool-call-parser x"]),
    ];
    expect(traceDrop(hist, "--tool-call-parser")!.droppedIn.subject).toBe("c4");
  });

  it("treats commenting a flag out as dropping it", () => {
    const hist = [
      h(2, ["  # --reasoning-parser qwen3 \\"], ["  --reasoning-parser qwen3 \\"]),
      h(1, ["  --reasoning-parser qwen3 \\"]),
    ];
    expect(traceDrop(hist, "--reasoning-parser")!.droppedIn.subject).toBe("c2");
  });
});

describe("countToken", () => {
  it("matches whole flags only, including --flag=value", () => {
    expect(countToken("--tool-call-parser-plugin x", "--tool-call-parser")).toBe(0);
    expect(countToken("--tool-call-parser=x", "--tool-call-parser")).toBe(1);
    expect(countToken('ARGS="--a --a"', "--a")).toBe(2);
    expect(countToken("# --a", "--a")).toBe(0);
  });
});

describe("contextAround", () => {
  it("numbers the lines and marks the hit, with 3 lines each side", () => {
    const text = Array.from({ length: 10 }, (_, i) => (i === 5 ? "  --reasoning-parser qwen3 \\" : `l${i + 1}`)).join(
      "\n",
    );
    const ctx = contextAround(text, "--reasoning-parser")!;
    expect(ctx.line).toBe(6);
    expect(ctx.excerpt).toHaveLength(7);
    expect(ctx.excerpt[3]).toBe(">   6 |   --reasoning-parser qwen3 \\");
    expect(ctx.excerpt[0]).toBe("    3 | l3");
  });
});
