import { describe, expect, it } from "vitest";
import { contractExample, lossOf } from "../../../src/domain/engine/flag-roles.js";
import { droppedFlags } from "../../../src/stages/preflight/dropped-flags.js";
import { checkContracts } from "../../../src/stages/preflight/contracts.js";
import { parseLaunch } from "../../../src/domain/launch/launch.js";

const flag = (name: string, value: string | null = null) =>
  ({ name, value, line: 3 }) as unknown as Parameters<typeof droppedFlags>[0][number];

describe("what a dropped flag costs, per engine and per flag", () => {
  it("--trust-remote-code: the model's own code no longer loads, not 'clients lose what it provides'", () => {
    const [f] = droppedFlags([flag("--trust-remote-code")], [], "s.sh", "base");
    expect(f!.status).toBe("fail");
    expect(f!.fix).toMatch(/custom code/);
    expect(f!.fix).not.toMatch(/clients silently lose/);
  });
  it("each critical flag of each engine has its own reason, and the llama.cpp alias names the model", () => {
    expect(lossOf("vllm", "--reasoning-parser")).toMatch(/reasoning/);
    expect(lossOf("vllm", "--enable-auto-tool-choice")).toMatch(/tool_choice/);
    expect(lossOf("sglang", "--context-length")).toMatch(/context/);
    expect(lossOf("llama.cpp", "--alias")).toMatch(/model name/);
    expect(lossOf("llama.cpp", "-c")).toMatch(/context/);
    expect(lossOf("llama.cpp", "--jinja")).toMatch(/template/);
    expect(lossOf("vllm", "--max-num-seqs")).toBeNull();
    const [f] = droppedFlags([flag("--jinja")], [], "l.sh", "base", new Set(), "base", "l.sh", "llama.cpp");
    expect(f!.fix).toMatch(/template/);
  });
  it("contract examples are the engine's own flags", () => {
    expect(contractExample("vllm")).toContain("--reasoning-parser");
    expect(contractExample("sglang")).toContain("--context-length");
    expect(contractExample("llama.cpp")).toContain("--jinja");
    expect(contractExample("llama.cpp")).not.toContain("--reasoning-parser qwen3");
  });
  it("preflight's 'no contract flags declared' shows the example of the script's engine", async () => {
    const script = parseLaunch("script", "#!/bin/bash\nllama-server -m /m.gguf --port 8080 -c 8192 --jinja\n");
    const [f] = await checkContracts({
      reader: null as never,
      file: "l.sh",
      script,
      specs: [],
      historyOk: true,
      history: async () => [],
    });
    expect(f!.fix).toContain(contractExample("llama.cpp"));
  });
});

describe("an argparse option respelt as a prefix of itself (round AH's --disable-radix-cach)", () => {
  const statuses = (engine: "sglang" | "vllm" | "llama.cpp") =>
    droppedFlags(
      [flag("--disable-radix-cache")],
      [flag("--disable-radix-cach")],
      "s.sh",
      "b",
      new Set(),
      "b",
      "s.sh",
      engine,
    ).map((f) => f.status);
  it("is the same option to SGLang's and vLLM's argparse, which take an unambiguous prefix: no drop", () => {
    expect(statuses("sglang")).toEqual(["pass"]);
    expect(statuses("vllm")).toEqual(["pass"]);
  });
  it("is still a drop for llama.cpp, whose parser matches whole names, and a prefix of two letters never counts", () => {
    expect(statuses("llama.cpp")).not.toEqual(["pass"]);
    const short = droppedFlags(
      [flag("--disable-radix-cache")],
      [flag("--dis")],
      "s.sh",
      "b",
      new Set(),
      "b",
      "s.sh",
      "sglang",
    );
    expect(short.map((f) => f.status)).not.toEqual(["pass"]);
    const word = droppedFlags(
      [flag("--enable-auto-tool-choice")],
      [flag("--enable")],
      "s.sh",
      "b",
      new Set(),
      "b",
      "s.sh",
    );
    expect(word.map((f) => f.status)).not.toEqual(["pass"]);
  });
});
