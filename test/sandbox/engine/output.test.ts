// The double's output lines: vLLM's prefix/continuation format, the boot order and failure tails.
import { describe, expect, it } from "vitest";
import { bootScript, type Step } from "./boot.js";
import { logRecord, pyRepr } from "./format.js";
import { makePlan } from "./plan.js";

const api = { name: "APIServer", pid: 1 };
const core = { name: "EngineCore_DP0", pid: 75 };
const at = new Date(2026, 9, 20, 11, 48, 5);
const LINE =
  /^(?:\((?<proc>[A-Za-z_][\w ]*?(?: rank=\d+)?) pid=(?<pid>\d+)\) )?(?<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<mm>\d\d)-(?<dd>\d\d) (?<time>\d\d:\d\d:\d\d) \[?(?<file>[^\]\s]+):(?<line>\d+)\] (?<msg>.*)$/;

function render(steps: Step[]): { stdout: string; stderr: string; listenAt: number | null; exit: number | null } {
  const o = { stdout: "", stderr: "", listenAt: null as number | null, exit: null as number | null };
  for (const s of [...steps].sort((a, b) => a.at - b.at)) {
    if ("listen" in s) o.listenAt = o.stdout.length;
    else if ("exit" in s) o.exit = s.exit;
    else o[s.stream] += s.text(at);
  }
  return o;
}

describe("engine double output", () => {
  it("formats a multi-line record like vLLM's NewLineFormatter under a process prefix", () => {
    const rec = logRecord(
      core,
      "ERROR",
      at,
      "core.py:708",
      "EngineCore failed to start.\nTraceback (most recent call last):",
    );
    expect(rec).toBe(
      "(EngineCore_DP0 pid=75) ERROR 10-20 11:48:05 [core.py:708] EngineCore failed to start.\r\n(EngineCore_DP0 pid=75) ERROR 10-20 11:48:05 [core.py:708] Traceback (most recent call last):\n",
    );
    for (const l of rec.split("\n").filter(Boolean)) expect(LINE.test(l.replace(/\r$/, ""))).toBe(true);
  });

  it("prints non-default args as a Python dict repr", () => {
    expect(pyRepr({ model_tag: "/m", port: 7770, enforce_eager: true })).toBe(
      "{'model_tag': '/m', 'port': 7770, 'enforce_eager': True}",
    );
  });

  it("boots in vLLM's order and opens the port only after the KV line, just before startup complete", () => {
    const plan = makePlan(["/models/qwen", "--max-model-len", "4096", "--kv-cache-memory-bytes", String(2 ** 31)], {
      FAKE_KV_BYTES_PER_TOKEN: "65536",
    });
    const out = render(bootScript(plan, api, core));
    const order = [
      "non-default args: {'model_tag': '/models/qwen'",
      "Model loading took 15.27 GiB memory",
      "Estimated CUDA graph memory:",
      "Available KV cache memory: 2 GiB",
      "GPU KV cache size: 32,768 tokens, Maximum concurrency for 4,096 tokens per request: 8.00x",
      "torch.compile took",
      "Graph capturing finished in",
      "Starting vLLM API server 0 on http://0.0.0.0:8000",
    ];
    const pos = order.map((s) => out.stdout.indexOf(s));
    expect(pos.every((p) => p >= 0)).toBe(true);
    expect(pos.filter((_, i) => i !== 5)).toEqual([...pos.filter((_, i) => i !== 5)].sort((a, b) => a - b));
    expect(out.listenAt).toBeGreaterThan(out.stdout.indexOf("GPU KV cache size"));
    expect(out.stderr.trim().split("\n").at(-1)).toBe("(APIServer pid=1) INFO:     Application startup complete.");
    expect(out.exit).toBeNull();
  });

  it("skips compile and capture with --enforce-eager", () => {
    const out = render(bootScript(makePlan(["/m", "--enforce-eager"], {}), api, core));
    expect(out.stdout).toContain("Skipping CUDA graph capture");
    expect(out.stdout).not.toContain("torch.compile took");
  });

  it("an OOM ends in the worker error wrapped by engine init failure, never listens, and exits 0", () => {
    const out = render(bootScript(makePlan(["/m"], { FAKE_FAIL: "oom" }), api, core));
    const all = out.stdout + out.stderr;
    expect(all).toMatch(
      /RuntimeError: Worker failed with error 'CUDA out of memory\. Tried to allocate 2\.00 GiB\. GPU 0 has a total capacity of 32\.00 GiB of which 1\.12 GiB is free\./,
    );
    expect(all.indexOf("Worker failed with error")).toBeLessThan(
      all.lastIndexOf("RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}"),
    );
    expect(out.listenAt).toBeNull();
    expect(out.exit).toBe(0);
  });

  it("a KV pool too small gives vLLM's ValueError with the estimated length", () => {
    const plan = makePlan(["/m", "--max-model-len", "131072", "--kv-cache-memory-bytes", String(2 ** 30)], {
      FAKE_KV_BYTES_PER_TOKEN: "65536",
    });
    const out = render(bootScript(plan, api, core));
    expect(out.stdout).toContain(
      "ValueError: To serve at least one request with the models's max seq len (131072), (8 GiB KV cache is needed, which is larger than the available KV cache memory (1 GiB). Based on the available memory, the estimated maximum model length is 16384.",
    );
    expect(out.stdout).not.toContain("GPU KV cache size");
  });

  it("a dynamo constraint violation names the specialised constant", () => {
    const out = render(bootScript(makePlan(["/m", "--max-num-seqs", "4"], { FAKE_FAIL: "dynamo" }), api, core));
    expect(out.stdout).toContain("Worker failed with error 'Constraints violated (L['query_start_loc'].size()[0])!");
    expect(out.stdout).toContain("was inferred to be a constant (5).");
  });
});
